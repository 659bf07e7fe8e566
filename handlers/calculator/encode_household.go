package calculator

import (
	"fiplan/compute/plan"
	"fiplan/handlers/jsonw"
)

// writeHouseholdRows writes a household plan's rows as step selects: each
// a projection row followed by what a household adds, both generated from
// calcYearDoc's declaration (appendRow and appendHouseholdRow, rows_gen.go).
func writeHouseholdRows(w *jsonw.Writer, p *plan.PlanResult, taxed bool, step int) {
	h := p.Household
	w.Key("projections")
	w.BeginArray()
	for i := range p.Rows {
		if !plan.KeepRow(i, len(p.Rows), step) {
			continue
		}
		w.Elem()
		b := appendRow(w.B, &p.Rows[i], nil, i)
		b = appendHouseholdRow(b[:len(b)-1], &h.Result, i, taxed)
		w.B = append(b, '}')
	}
	w.EndArray()
}
