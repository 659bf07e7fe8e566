package calculator

import (
	"strconv"

	"fiplan/compute/household"
	"fiplan/compute/plan"
	"fiplan/handlers/jsonw"
)

// writeHouseholdRows writes a household plan's rows as step selects: each
// a projection row (the generated appendRow) followed by what a household
// adds, the rest of calcYearDoc's encoding, written by hand.
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

// appendHouseholdRow appends row i's household members (after a comma).
func appendHouseholdRow(b []byte, h *household.Result, i int, taxed bool) []byte {
	x := &h.Extra[i]
	if taxed {
		t := &x.Tax
		b = append(b, `,"tax":{"incomeTax":`...)
		b = jsonw.AppendFixed(b, t.Income, 2)
		b = append(b, `,"socialContributions":`...)
		b = jsonw.AppendFixed(b, t.Social, 2)
		b = append(b, `,"capitalTax":`...)
		b = jsonw.AppendFixed(b, t.Capital, 2)
		b = append(b, `,"penalties":`...)
		b = jsonw.AppendFixed(b, t.Penalties, 2)
		if t.WealthOn {
			b = append(b, `,"wealthTax":`...)
			b = jsonw.AppendFixed(b, t.Wealth, 2)
		}
		b = append(b, `,"total":`...)
		b = jsonw.AppendFixed(b, t.Total, 2)
		b = append(b, '}')
	}
	if x.PartnerAge >= 0 {
		b = append(b, `,"partnerAge":`...)
		b = strconv.AppendInt(b, int64(x.PartnerAge), 10)
	}
	b = append(b, `,"income":{"employment":`...)
	b = jsonw.AppendFixed(b, x.Employment, 2)
	b = append(b, `,"pensions":`...)
	b = jsonw.AppendFixed(b, x.Pensions, 2)
	b = optionalCents(b, `,"yield":`, x.Yield)
	b = optionalCents(b, `,"spousal":`, x.Spousal)
	b = optionalCents(b, `,"survivor":`, x.Survivor)
	b = optionalCents(b, `,"meansTested":`, x.MeansTested)
	b = append(b, `},"accounts":[`...)
	for k, a := range h.Accounts(i) {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonw.AppendString(append(b, `{"id":`...), h.IDs[k])
		b = append(b, `,"startBalance":`...)
		b = jsonw.AppendFixed(b, a.Start, 2)
		b = append(b, `,"contributions":`...)
		b = jsonw.AppendFixed(b, a.Contributions, 2)
		b = append(b, `,"growth":`...)
		b = jsonw.AppendFixed(b, a.Growth, 2)
		b = append(b, `,"withdrawals":`...)
		b = jsonw.AppendFixed(b, a.Withdrawals, 2)
		b = append(b, `,"conversions":`...)
		b = jsonw.AppendFixed(b, a.Conversions, 2)
		b = append(b, `,"endBalance":`...)
		b = jsonw.AppendFixed(b, a.End, 2)
		b = optionalCents(b, `,"sepp":`, a.SEPP)
		b = append(b, '}')
	}
	b = append(b, ']')
	if x.Residence != "" {
		b = jsonw.AppendString(append(b, `,"residence":`...), x.Residence)
	}
	b = optionalCents(b, `,"overLimit":`, x.OverLimit)
	b = optionalCents(b, `,"requiredWithdrawals":`, x.Required)
	b = optionalCents(b, `,"conversions":`, x.Converted)
	b = optionalCents(b, `,"shortfall":`, x.Short)
	b = optionalCents(b, `,"pensionSplit":`, x.Split)
	b = optionalCents(b, `,"vorabpauschale":`, x.Advance)
	b = optionalCents(b, `,"sepp":`, x.SEPP)
	b = optionalCents(b, `,"seppRecapture":`, x.Recapture)
	if c := &x.Health; cents(c.Premiums) != 0 || cents(c.Credit) != 0 || cents(c.Surcharge) != 0 {
		b = jsonw.AppendFixed(append(b, `,"health":{"premiums":`...), c.Premiums, 2)
		b = jsonw.AppendFixed(append(b, `,"credit":`...), c.Credit, 2)
		b = jsonw.AppendFixed(append(b, `,"surcharge":`...), c.Surcharge, 2)
		b = append(b, '}')
	}
	return b
}

// optionalCents appends key and v in cents unless they round to zero (an
// omitempty member).
func optionalCents(b []byte, key string, v float64) []byte {
	if cents(v) == 0 {
		return b
	}
	return jsonw.AppendFixed(append(b, key...), v, 2)
}
