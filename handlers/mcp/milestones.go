package mcp

import (
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// milestoneDoc says which projection rows are milestones.
const milestoneDoc = "start: the first year; age N0: each birthday that is a multiple of ten; fi: the year of age fiAge; " +
	"retirement: the first drawdown year; depleted: the year of age depletionAge; end: the last year"

// milestones replaces the yearly projections of a calculator answer (and
// of each scenario) with its milestone rows.
func milestones(data []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	if err := trimPlan(top); err != nil {
		return nil, err
	}
	if raw, ok := top["scenarios"]; ok {
		var scenarios []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &scenarios); err != nil {
			return nil, err
		}
		for _, sc := range scenarios {
			if err := trimPlan(sc); err != nil {
				return nil, err
			}
		}
		b, err := json.Marshal(scenarios)
		if err != nil {
			return nil, err
		}
		top["scenarios"] = b
	}
	return json.Marshal(top)
}

// trimPlan swaps one plan's projections for its milestones.
func trimPlan(plan map[string]json.RawMessage) error {
	raw, ok := plan["projections"]
	if !ok {
		return nil
	}
	delete(plan, "projections")
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return err
	}
	marks := map[string]int{}
	for _, k := range []string{"fiAge", "retirementAge", "depletionAge"} {
		var age *int
		if v, ok := plan[k]; ok && json.Unmarshal(v, &age) == nil && age != nil {
			marks[k] = *age
		}
	}
	picked := make([]json.RawMessage, 0, 12)
	for i, row := range rows {
		var r struct {
			Age int `json:"age"`
		}
		if err := json.Unmarshal(row, &r); err != nil {
			return err
		}
		age := r.Age
		var labels []string
		if i == 0 {
			labels = append(labels, "start")
		}
		if age%10 == 0 {
			labels = append(labels, "age "+strconv.Itoa(age))
		}
		if a, ok := marks["fiAge"]; ok && a == age {
			labels = append(labels, "fi")
		}
		if a, ok := marks["retirementAge"]; ok && a == age {
			labels = append(labels, "retirement")
		}
		if a, ok := marks["depletionAge"]; ok && a == age {
			labels = append(labels, "depleted")
		}
		if i == len(rows)-1 {
			labels = append(labels, "end")
		}
		if len(labels) == 0 || len(row) < 2 || row[0] != '{' {
			continue
		}
		// The row as the API wrote it, with the label as its first member.
		label, _ := json.Marshal(strings.Join(labels, ", "))
		m := make([]byte, 0, len(row)+len(label)+10)
		m = append(append(append(m, `{"label":`...), label...), ',')
		picked = append(picked, append(m, row[1:]...))
	}
	b, err := json.Marshal(picked)
	if err != nil {
		return err
	}
	plan["milestones"] = b
	return nil
}
