package calculator

import (
	"errors"
	"math"

	json "github.com/goccy/go-json"

	"fiplan/compute/fi"
	"fiplan/compute/plan"
	"fiplan/handlers/jsonw"
)

// The answer is encoded from its declaration (response.go): each plan's
// summary, the Monte Carlo and the backtest are filled into their declared
// types, rounded as answered (cents, rates to four places), and encoded
// with goccy/go-json. The projection rows alone are written by appendRow
// and appendHouseholdRow, generated from calcYearDoc's declaration
// (rows_gen.go): a 60-year plan with scenarios is hundreds of rows, and
// reflection over them was most of the answer's cost. The goals are written by hand
// (writeGoals): a goal asked and unmet is null, one not asked absent, which
// no tag can say.

// docs holds the declared values one answer is encoded from, pooled with
// the calcWork so that their buffers are reused.
type docs struct {
	out   *jsonw.Writer
	rate  [2]float64    // the success rates' values
	enc   *json.Encoder // writes to the docs, which append to out
	plans [fi.MaxScenarios + 1]planDocs
	mc    mcDoc
	fiAge percentilesDoc
	bands []mcBandDoc
	bt    backtestDoc
	btInt [8]int
	conv  restatedDoc
	convY [2]int
	seq   sequencesDoc
	seqM  [3]int // the paths' start months
	more  calcAnalysesDoc
	// opt is the search's answer, optVal its value
	opt    optimizedDoc
	optVal float64
}

// planDocs is one plan's declared summary with what its pointers point at.
type planDocs struct {
	sum   calcSummaryDoc
	tax   taxDoc
	city  cityDoc
	ints  [6]int
	house householdSumDoc
	ids   []string
}

func newDocs(out *jsonw.Writer) *docs {
	d := &docs{out: out}
	d.enc = json.NewEncoder(d)
	return d
}

// Write appends p to the answer being written.
func (d *docs) Write(p []byte) (int, error) {
	d.out.B = append(d.out.B, p...)
	return len(p), nil
}

// errEmpty is a declared value that encodes no member.
var errEmpty = errors.New("calculator: a declared object without members")

// members encodes v, a declared struct, as the next members of the object
// being written.
func (d *docs) members(v any) error {
	w := d.out
	w.Elem()
	n := len(w.B)
	if err := d.enc.Encode(v); err != nil {
		return err
	}
	b := w.B
	if len(b)-n < 4 || b[n] != '{' || b[len(b)-2] != '}' { // {...}\n
		return errEmpty
	}
	copy(b[n:], b[n+1:len(b)-2])
	w.B = b[:len(b)-3]
	return nil
}

// round rounds v half away from zero to 1/scale as jsonw.AppendFixed
// does, so that the rounded value encodes as the text AppendFixed writes:
// no negative zero.
func round(v, scale float64) float64 {
	r := math.Round(v*scale) / scale
	if r == 0 {
		return 0
	}
	return r
}

func cents(v float64) float64 { return round(v, 100) }

func rate(v float64) float64 { return round(v, 1e4) }

// age points at v, or is nil for the engine's "never" (-1).
func age(p *int, v int) *int {
	if v < 0 {
		return nil
	}
	*p = v
	return p
}

// writeJSON writes the whole success envelope into out. With milestones
// each plan carries its milestone rows instead of its projections.
func (d *docs) writeJSON(r *plan.Result, milestones bool) error {
	out := d.out
	out.B = append(out.B, `{"success":true,"data":`...)
	out.Begin()
	out.Key("currency")
	out.String(r.Currency)
	if err := d.writePlan(r, 0, milestones); err != nil {
		return err
	}
	out.Key("scenarios")
	out.BeginArray()
	for k := 1; k < len(r.Plans); k++ {
		out.Begin()
		out.Key("name")
		out.String(r.Plans[k].Name)
		if err := d.writePlan(r, k, milestones); err != nil {
			return err
		}
		out.End()
	}
	out.EndArray()
	d.more = calcAnalysesDoc{MonteCarlo: d.monteCarlo(r), Historical: d.backtest(r), Notes: r.Notes}
	if !r.Household {
		d.more.Notes = nil
	}
	if d.more.MonteCarlo != nil || d.more.Historical != nil || len(d.more.Notes) > 0 {
		if err := d.members(&d.more); err != nil {
			return err
		}
	}
	if r.Goals != nil {
		out.Key("goals")
		out.Begin()
		writeGoals(out, r.Goals)
		out.End()
	}
	if r.Optimized != nil {
		if err := d.writeOptimized(r); err != nil {
			return err
		}
	}
	out.End()
	out.B = append(out.B, '}')
	return nil
}

// writePlan writes plan k's members: its summary, tax and city, then its
// projections or its milestones.
func (d *docs) writePlan(r *plan.Result, k int, milestones bool) error {
	p := &r.Plans[k]
	if err := d.members(d.plans[k].summary(r, p)); err != nil {
		return err
	}
	var taxes []float64
	if r.Taxed {
		taxes = p.RowTax
	}
	switch {
	case p.Household != nil && !milestones:
		writeHouseholdRows(d.out, p, r.Taxed, r.Step)
	case milestones:
		writeMilestones(d.out, p, taxes)
	default:
		writeProjections(d.out, p.Rows, taxes, r.Step)
	}
	return nil
}

// summary fills the declared summary of plan p.
func (pd *planDocs) summary(r *plan.Result, p *plan.PlanResult) *calcSummaryDoc {
	s, in := &p.Summary, &pd.ints
	pd.sum = calcSummaryDoc{
		FINumber: cents(p.FINumber), YearsToFI: age(&in[0], s.YearsToFI), FIAge: age(&in[1], s.FIAge), FIYear: age(&in[2], s.FIYear),
		SavingsRate: rate(s.SavingsRate), LeanFINumber: cents(s.LeanFINumber), FatFINumber: cents(s.FatFINumber),
		CoastFINumber: cents(s.CoastFINumber), CoastAge: s.CoastAge, BaristaIncome: cents(s.BaristaIncome),
		RetirementAge: age(&in[3], s.RetirementAge), RunsOut: s.RunsOut, DepletionAge: age(&in[4], s.DepletionAge),
		FinalBalance: cents(s.FinalBalance), FinalBalanceReal: cents(s.FinalReal),
		GuardrailCuts: s.GuardrailCuts, GuardrailRaises: s.GuardrailRaise,
	}
	if r.Taxed && p.Household != nil {
		pd.sum.AfterTaxFINumber = cents(s.FINumber) // a household's rows carry its taxes
	} else if r.Taxed {
		t, pt := &r.Tax, &p.Taxes
		pd.sum.AfterTaxFINumber = cents(s.FINumber)
		pd.tax = taxDoc{Country: t.Country, Region: t.Region, Year: t.Year, Currency: r.Currency,
			GrossIncome: cents(pt.GrossIncome), IncomeTax: cents(pt.IncomeTax), TakeHomeIncome: cents(pt.GrossIncome - pt.IncomeTax),
			RetirementSpending: cents(pt.Spending), GrossRetirementIncome: cents(pt.GrossSpending), RetirementTax: cents(pt.GrossSpending - pt.Spending),
			WithdrawalIncome: t.Withdrawal.String()}
		pd.sum.Tax = &pd.tax
	}
	if c := p.City; c != nil {
		pd.city = cityDoc{ID: c.City.ID, Name: c.City.Name, HouseholdSize: c.Household, MonthlyCostUSD: c.MonthlyUSD,
			Currency: r.Currency, RetirementExpenses: cents(c.Yearly)}
		pd.sum.City = &pd.city
	}
	if h := p.Household; h != nil {
		pd.household(h)
	}
	return &pd.sum
}

// household fills what a household plan adds to its summary.
func (pd *planDocs) household(h *plan.HouseholdResult) {
	hs := &pd.house
	hs.LifetimeTax, hs.LifetimeTaxPV, hs.AfterTaxEndWealth = cents(h.LifetimeTax), cents(h.LifetimeTaxPV), cents(h.AfterTaxEnd)
	if hs.Bridge == nil {
		hs.Bridge = []bridgeDoc{}
	}
	hs.Bridge = hs.Bridge[:0]
	if pd.ids == nil {
		// A bridge no account pays for (the spending met by income and
		// pensions) answers an empty list, never null.
		pd.ids = make([]string, 0, 8)
	}
	pd.ids = pd.ids[:0]
	for _, b := range h.Bridges {
		n := len(pd.ids)
		for _, i := range b.Accounts {
			pd.ids = append(pd.ids, h.IDs[i])
		}
		hs.Bridge = append(hs.Bridge, bridgeDoc{FromAge: b.FromAge, ToAge: b.ToAge, Accounts: pd.ids[n:len(pd.ids):len(pd.ids)]})
	}
	b := &h.Baseline
	hs.Baseline = baselineDoc{LifetimeTax: cents(b.LifetimeTax), LifetimeTaxPV: cents(b.LifetimeTaxPV), DepletionAge: age(&pd.ints[5], b.DepletionAge),
		EndBalanceReal: cents(b.EndReal), AfterTaxEndWealth: cents(b.AfterTaxEnd)}
	pd.sum.householdSumDoc = hs
}

func percentiles(p *fi.Percentiles) percentilesDoc {
	return percentilesDoc{P10: cents(p.P10), P25: cents(p.P25), P50: cents(p.P50), P75: cents(p.P75), P90: cents(p.P90)}
}

// monteCarlo fills the declared simulation; nil when none ran.
func (d *docs) monteCarlo(res *plan.Result) *mcDoc {
	r := res.MonteCarlo
	if r == nil {
		return nil
	}
	if cap(d.bands) < len(r.Bands) {
		d.bands = make([]mcBandDoc, 0, len(r.Bands))
	}
	d.bands = d.bands[:0]
	for i := range r.Bands {
		b := &r.Bands[i]
		d.bands = append(d.bands, mcBandDoc{Year: b.Year, Age: b.Age, percentilesDoc: percentiles(&b.Percentiles)})
	}
	d.mc = mcDoc{Simulations: r.Simulations, ReachedFIRate: rate(r.ReachedFI), Balances: d.bands}
	if !res.NoSuccessRate {
		d.rate[0] = rate(r.SuccessRate)
		d.mc.SuccessRate = &d.rate[0]
	}
	if r.ReachedFI > 0 {
		d.fiAge = percentiles(&r.FIAge)
		d.mc.FIAge = &d.fiAge
	}
	return &d.mc
}

// backtest fills the declared backtest; nil when none ran.
func (d *docs) backtest(res *plan.Result) *backtestDoc {
	r := res.Backtest
	if r == nil {
		return nil
	}
	in := &d.btInt
	d.bt = backtestDoc{Dataset: r.History.Dataset, WindowYears: r.WindowYears, DataFrom: r.History.First, DataTo: r.History.Last,
		Periods: r.Periods, WorstFailed: r.WorstFailed, WorstYearsLasted: r.WorstYearsLasted,
		MedianEndBalanceReal: cents(r.MedianEndBalance), Currency: r.History.Currency}
	if h := &r.History; h.Converted {
		d.conv = restatedDoc{Prices: h.Prices, Note: h.Note}
		if h.Coverage.From != 0 {
			d.convY = [2]int{h.Coverage.From, h.Coverage.To}
			d.conv.From, d.conv.To = &d.convY[0], &d.convY[1]
		}
		d.bt.Conversion = &d.conv
	}
	if r.Drawdowns > 0 || r.Periods == 0 {
		d.rate[1] = rate(r.SuccessRate)
		d.bt.SuccessRate = &d.rate[1]
	}
	if res.Household {
		in[7] = r.Drawdowns
		d.bt.DrawdownWindows = &in[7]
	}
	if r.Periods > 0 {
		in[0] = r.WorstStartYear
		d.bt.WorstStartYear = &in[0]
	}
	if r.WorstStartMonth > 0 {
		in[1] = r.WorstStartMonth
		d.bt.WorstStartMonth = &in[1]
	}
	if r.WorstFailed {
		in[2] = r.WorstFailYear
		d.bt.WorstFailYear = &in[2]
	}
	d.conditions(r)
	if v := r.Sequences; v != nil {
		d.sequences(v)
		d.bt.Sequences = &d.seq
	}
	return &d.bt
}

// conditions fills the declared sample the backtest r ran under: its
// years, start months and withdrawal timing, and its first and last
// windows' starts.
func (d *docs) conditions(r *plan.Backtest) {
	in, s := &d.btInt, &r.Sample
	d.bt.From, d.bt.To = s.From, s.To
	d.bt.StartMonths, d.bt.WithdrawalTiming = "all", "start-of-year"
	if s.January {
		d.bt.StartMonths = "january"
	}
	if s.MonthlyWithdrawals {
		d.bt.WithdrawalTiming = "monthly"
	}
	if r.Periods == 0 {
		return
	}
	in[3], in[5] = r.First.Year, r.Last.Year
	d.bt.FirstStartYear, d.bt.LastStartYear = &in[3], &in[5]
	if r.First.Month > 0 {
		in[4], in[6] = r.First.Month, r.Last.Month
		d.bt.FirstStartMonth, d.bt.LastStartMonth = &in[4], &in[6]
	}
}

// sequences fills the declared sequence-of-returns view.
func (d *docs) sequences(v *fi.SequenceView) {
	s := &d.seq
	s.ByDecade = s.ByDecade[:0]
	for _, dr := range v.Decades[:v.NumDecades] {
		if dr.Periods > 0 {
			s.ByDecade = append(s.ByDecade, decadeDoc{Decade: dr.Decade, Periods: dr.Periods, SuccessRate: rate(float64(dr.Successes) / float64(dr.Periods))})
		}
	}
	if s.ByDecade == nil {
		s.ByDecade = []decadeDoc{}
	}
	for i, p := range [...]*fi.SequencePath{&v.Worst, &v.Median, &v.Best} {
		dst := [...]*sequencePathDoc{&s.Worst, &s.Median, &s.Best}[i]
		path := dst.Path[:0]
		if cap(path) < p.NumYears {
			path = make([]pathYearDoc, 0, fi.MaxYears)
		}
		for _, y := range p.Years[:p.NumYears] {
			path = append(path, pathYearDoc{Year: y.Year, WithdrawalReal: cents(y.Withdrawal), EndBalanceReal: cents(y.EndBalance)})
		}
		if path == nil {
			path = []pathYearDoc{}
		}
		*dst = sequencePathDoc{StartYear: p.StartYear, Failed: p.Failed, YearsLasted: p.YearsLasted, EndBalanceReal: cents(p.EndBalance), Path: path}
		if p.StartMonth > 0 {
			d.seqM[i] = p.StartMonth
			dst.StartMonth = &d.seqM[i]
		}
	}
}

// writeGoals writes the goals asked for. A goal asked and unmet is null
// and one not asked is absent, so they are written here, not encoded.
func writeGoals(w *jsonw.Writer, g *plan.Goals) {
	if g.FIByAge > 0 {
		w.Key("fiByAge")
		w.Int(int64(g.FIByAge))
		w.Key("requiredAnnualSaving")
		if g.SavingOK {
			w.Fixed(g.Saving, 2)
		} else {
			w.Null()
		}
	}
	if g.RateAsked {
		w.Key("targetSuccessRate")
		w.Float(g.TargetRate)
		w.Key("maxWithdrawalRate")
		if g.MaxRate > 0 {
			w.Fixed(g.MaxRate, 4)
		} else {
			w.Null()
		}
		w.Key("maxWithdrawalRateCapped")
		w.Bool(g.RateCapped)
		w.Key("windowYears")
		w.Int(int64(g.WindowYears))
	}
}

// writeProjections writes the rows step selects (see plan.KeepRow), each
// with its tax when taxes is not nil.
func writeProjections(w *jsonw.Writer, rows []fi.Year, taxes []float64, step int) {
	w.Key("projections")
	w.BeginArray()
	for i := range rows {
		if !plan.KeepRow(i, len(rows), step) {
			continue
		}
		w.Elem()
		w.B = appendRow(w.B, &rows[i], taxes, i)
	}
	w.EndArray()
}

// writeMilestones writes the plan's milestone rows, each a projection row
// with its label as its first member.
func writeMilestones(w *jsonw.Writer, p *plan.PlanResult, taxes []float64) {
	w.Key("milestones")
	w.BeginArray()
	for _, m := range p.Milestones {
		w.Elem()
		b := jsonw.AppendString(append(w.B, `{"label":`...), m.Label)
		n := len(b)
		b = appendRow(b, &p.Rows[m.Row], taxes, m.Row)
		b[n] = ',' // the row's opening brace
		w.B = b
	}
	w.EndArray()
}
