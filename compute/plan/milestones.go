package plan

import (
	"strconv"
	"strings"

	"fiplan/compute/fi"
)

// MilestoneRule says which rows are milestones, in the words of their
// labels.
const MilestoneRule = "start: the first year; age N0: each birthday that is a multiple of ten; fi: the year of age fiAge; " +
	"retirement: the first drawdown year; depleted: the year of age depletionAge; end: the last year"

// Milestones appends the milestone rows among the rows step selects (see
// KeepRow), each with its labels joined by ", " in the order of
// MilestoneRule.
func Milestones(dst []Milestone, rows []fi.Year, s *fi.Summary, step int) []Milestone {
	var labels [6]string
	n := len(rows)
	for i := range rows {
		if !KeepRow(i, n, step) {
			continue
		}
		age, k := rows[i].Age, 0
		add := func(l string) { labels[k] = l; k++ }
		if i == 0 {
			add("start")
		}
		if age%10 == 0 {
			add("age " + strconv.Itoa(age))
		}
		if s.FIAge >= 0 && age == s.FIAge {
			add("fi")
		}
		if s.RetirementAge >= 0 && age == s.RetirementAge {
			add("retirement")
		}
		if s.DepletionAge >= 0 && age == s.DepletionAge {
			add("depleted")
		}
		if i == n-1 {
			add("end")
		}
		if k > 0 {
			dst = append(dst, Milestone{Row: i, Label: strings.Join(labels[:k], ", ")})
		}
	}
	return dst
}
