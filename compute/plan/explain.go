package plan

import (
	"math"
	"strconv"
	"strings"
)

// Explain says in one or two sentences what decides the base plan's
// outcome, from its typed figures: the year the money runs out, the bridge
// to an access age and the accounts that pay for it, the worth of the
// drawing order against the conventional one, or the tax on the
// retirement income. Empty when nothing stands out.
func (r *Result) Explain() string {
	p := &r.Plans[0]
	s := &p.Summary
	var parts []string
	if s.RunsOut {
		parts = append(parts, "The money runs out at age "+strconv.Itoa(s.DepletionAge)+": the spending from then on outlasts the savings, so spending less, saving more or retiring later decides the plan.")
	}
	if h := p.Household; h != nil {
		if len(h.Bridges) > 0 {
			b := h.Bridges[0]
			last := h.Bridges[len(h.Bridges)-1]
			ids := make([]string, 0, len(b.Accounts))
			for _, i := range b.Accounts {
				ids = append(ids, h.IDs[i])
			}
			parts = append(parts, "From "+strconv.Itoa(b.FromAge)+" to "+strconv.Itoa(last.ToAge)+" some pension money is not yet open; the bridge starts on "+strings.Join(ids, ", ")+".")
		}
		if d := h.Baseline.LifetimeTax - h.LifetimeTax; math.Abs(d) >= 1 {
			word := "saves"
			if d < 0 {
				word, d = "costs", -d
			}
			parts = append(parts, "Against the conventional order without conversions, this plan "+word+" "+money(d)+" of lifetime tax (today's money).")
		}
	} else if r.Taxed && p.Taxes.GrossSpending > 0 && p.Taxes.Spending > 0 {
		rate := 1 - p.Taxes.Spending/p.Taxes.GrossSpending
		up := p.Taxes.GrossSpending/p.Taxes.Spending - 1
		parts = append(parts, "The retirement income is taxed at "+pct(rate)+" on average, so the FI number after tax is "+pct(up)+" above the one before tax.")
	}
	return strings.Join(parts, " ")
}

// pct writes a share as a percentage to one place.
func pct(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) + "%" }

// money writes v rounded to the unit with thousands separators.
func money(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
