package tax

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// perUSD is a rate table for tests: units of each currency per US dollar.
type perUSD map[string]float64

func (r perUSD) Convert(x float64, from, to string) (float64, bool) {
	f, ok1 := r[from]
	t, ok2 := r[to]
	if !ok1 || !ok2 {
		return 0, false
	}
	return x / f * t, true
}

var testRates = perUSD{"USD": 1, "EUR": 0.9, "GBP": 0.8, "JPY": 150, "CAD": 1.35, "DKK": 6.8, "CHF": 0.88}

// flat7 is a flat 7% on foreign income of every part, as Italy's pensioner
// regime.
func flat7() *Offer {
	r := covering(TreatFlat, allParts...)
	r.Rate = 0.07
	return &Offer{ID: "it-flat-7", Label: "flat 7%", Rules: []ScopedRule{{Rule: r, Origin: OriginForeign}}}
}

func optimizeQuery(t testing.TB) *Query {
	t.Helper()
	us, it, gb := loadSystem(t, "us"), loadSystem(t, "it"), loadSystem(t, "gb")
	closed := &Offer{ID: "it-closed", Closed: true, Rules: flat7().Rules}
	broken := &Offer{ID: "it-broken", Why: "its amounts in XXX cannot be converted to EUR"}
	work := &Offer{ID: "it-work", Label: "work relief", Rules: []ScopedRule{{Rule: covering(TreatExempt, Employment), Origin: OriginDomestic}}}
	return &Query{
		Home:           us,
		Income:         Income{Pension: 30000, Dividends: 20000, CapitalGains: 15000, Interest: 2000},
		BudgetUSD:      48000,
		WithdrawalRate: 0.04,
		Programs:       true,
		Candidates: []Candidate{
			{System: gb},
			{System: it, Offers: []*Offer{flat7(), closed, broken, work}},
			{System: us},
		},
	}
}

func TestOptimizeRanking(t *testing.T) {
	t.Parallel()
	q := optimizeQuery(t)
	var r Ranking
	if err := Optimize(q, testRates, &r); err != nil {
		t.Fatal(err)
	}
	// The current situation is the home country's normal rules, in dollars.
	cur := r.Current
	wantTax, err := Due(q.Home, q.Home.Latest(), &q.Income, q.Home.LocalTax.Region, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cur.System != q.Home || cur.Offer != nil || cur.Gross != 67000 || cur.Tax != wantTax || cur.NetUSD != 67000-wantTax {
		t.Fatalf("current: %+v, want tax %v", cur, wantTax)
	}
	// GB, IT, US under their normal rules and the Italian flat regime; the
	// closed, broken and work-only offers are skipped with their reasons.
	var got []string
	for _, o := range r.Options {
		id := o.System.Country
		if o.Offer != nil {
			id = o.Offer.ID
		}
		got = append(got, id)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"GB", "IT", "US", "it-flat-7"}) {
		t.Fatalf("options %v", got)
	}
	wantSkip := []Skip{
		{"IT", "it-closed", "closed to new entrants"},
		{"IT", "it-broken", "its amounts in XXX cannot be converted to EUR"},
		{"IT", "it-work", "its rules cover none of this income (see domesticIncome)"},
	}
	if !slices.Equal(r.Skipped, wantSkip) {
		t.Fatalf("skipped %v, want %v", r.Skipped, wantSkip)
	}
	for i, o := range r.Options {
		if i > 0 && o.NetUSD > r.Options[i-1].NetUSD {
			t.Errorf("option %d (%s) after a worse one", i, o.System.Country)
		}
		f := testRates[o.System.Currency] / testRates["USD"]
		if math.Abs(o.Gross-67000*f) > 1e-6 || math.Abs(o.NetUSD-(o.Gross-o.Tax)/f) > 1e-6 {
			t.Errorf("%s: gross %v net USD %v at rate %v", o.System.Country, o.Gross, o.NetUSD, f)
		}
		// The FI number's withdrawal leaves the budget after tax.
		var rg *Regime
		if o.Offer != nil {
			rg = &Regime{}
			o.Offer.Regime(&q.Domestic, rg)
		}
		mix := Income{Pension: 30000, Dividends: 20000, CapitalGains: 15000, Interest: 2000}
		k := o.Withdrawal / mix.Total()
		mix = Income{Pension: 30000 * k, Dividends: 20000 * k, CapitalGains: 15000 * k, Interest: 2000 * k}
		tt, _ := Due(o.System, o.Year, &mix, o.Region, rg)
		if budget := 48000 * f; !o.HasFI || math.Abs(o.Withdrawal-tt-budget) > 1 || o.FI != o.Withdrawal/0.04 {
			t.Errorf("%s %v: withdrawal %v leaves %v, budget %v; FI %v", o.System.Country, o.Offer != nil, o.Withdrawal, o.Withdrawal-tt, budget, o.FI)
		}
	}
	// The flat 7% beats Italy's normal rules on this income.
	it := map[bool]float64{}
	for _, o := range r.Options {
		if o.System.Country == "IT" {
			it[o.Offer != nil] = o.NetUSD
		}
	}
	if !(it[true] > it[false]) {
		t.Errorf("IT flat 7%% %v, normal %v", it[true], it[false])
	}
}

func TestOptimizeOptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(q *Query)
		rates Rates
		check func(t *testing.T, r *Ranking)
	}{
		{"no programs", func(q *Query) { q.Programs = false }, testRates, func(t *testing.T, r *Ranking) {
			if len(r.Options) != 3 || len(r.Skipped) != 0 {
				t.Errorf("options %d skipped %v", len(r.Options), r.Skipped)
			}
		}},
		{"no budget", func(q *Query) { q.BudgetUSD = 0 }, testRates, func(t *testing.T, r *Ranking) {
			for _, o := range append(r.Options, r.Current) {
				if o.HasFI || o.FI != 0 {
					t.Errorf("%s: FI number without a budget", o.System.Country)
				}
			}
		}},
		{"a local job opens the work relief", func(q *Query) { q.Income.Employment = 50000; q.Domestic[Employment] = true }, testRates, func(t *testing.T, r *Ranking) {
			if !slices.ContainsFunc(r.Options, func(o Option) bool { return o.Offer != nil && o.Offer.ID == "it-work" }) {
				t.Errorf("it-work not ranked: skipped %v", r.Skipped)
			}
		}},
		{"a year a country lacks takes its latest", func(q *Query) { q.Year = 1990 }, testRates, func(t *testing.T, r *Ranking) {
			for _, o := range r.Options {
				if o.Year != o.System.Latest() {
					t.Errorf("%s: year %d", o.System.Country, o.Year)
				}
			}
		}},
		{"a candidate without a rate is skipped", nil, perUSD{"USD": 1, "GBP": 0.8}, func(t *testing.T, r *Ranking) {
			want := Skip{Country: "IT", Reason: "no exchange rate for EUR"}
			if len(r.Options) != 2 || !slices.Contains(r.Skipped, want) {
				t.Errorf("options %d skipped %v", len(r.Options), r.Skipped)
			}
		}},
		{"a region candidate is taxed there", func(q *Query) {
			q.Candidates = []Candidate{{System: loadSystem(t, "gb"), Region: "SCT"}, {System: loadSystem(t, "gb")}}
		}, testRates, func(t *testing.T, r *Ranking) {
			if len(r.Options) != 2 || r.Options[0].Region == r.Options[1].Region {
				t.Fatalf("options %+v", r.Options)
			}
			for _, o := range r.Options {
				in := Income{Pension: 30000 * 0.8, Dividends: 20000 * 0.8, CapitalGains: 15000 * 0.8, Interest: 2000 * 0.8}
				if tt, _ := Due(o.System, o.Year, &in, o.Region, nil); math.Abs(tt-o.Tax) > 1e-6 {
					t.Errorf("region %q: tax %v, want %v", o.Region, o.Tax, tt)
				}
			}
		}},
		{"a withdrawal rate near 0 gives no FI number", func(q *Query) { q.WithdrawalRate = 1e-320 }, testRates, func(t *testing.T, r *Ranking) {
			for _, o := range append(r.Options, r.Current) {
				if o.HasFI || !allFinite(&o) {
					t.Errorf("%s: %+v", o.System.Country, o)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := optimizeQuery(t)
			if c.edit != nil {
				c.edit(q)
			}
			var r Ranking
			if err := Optimize(q, c.rates, &r); err != nil {
				t.Fatal(err)
			}
			c.check(t, &r)
		})
	}
}

func TestOptimizeErrors(t *testing.T) {
	t.Parallel()
	var r Ranking
	q := optimizeQuery(t)
	if err := Optimize(q, perUSD{"EUR": 1}, &r); !errors.Is(err, ErrOptimize) || !strings.Contains(err.Error(), "USD") {
		t.Errorf("home without a rate: %v", err)
	}
	q.Home = nil
	if err := Optimize(q, testRates, &r); !errors.Is(err, ErrOptimize) {
		t.Errorf("no home: %v", err)
	}
	q = optimizeQuery(t)
	q.Candidates[0].Region = "XX"
	if err := Optimize(q, testRates, &r); !errors.Is(err, ErrRegion) || !strings.Contains(err.Error(), "GB") {
		t.Errorf("unknown region: %v", err)
	}
	// Rates that are 0, negative or infinite count as missing.
	for _, bad := range []float64{0, -1, math.Inf(1), math.NaN()} {
		q = optimizeQuery(t)
		r = Ranking{}
		if err := Optimize(q, perUSD{"USD": 1, "GBP": 0.8, "EUR": bad}, &r); err != nil || len(r.Options) != 2 {
			t.Errorf("EUR rate %v: %v, %d options", bad, err, len(r.Options))
		}
	}
}

func TestOfferRegime(t *testing.T) {
	t.Parallel()
	o := &Offer{ID: "x", Label: "X", Rules: []ScopedRule{
		{Rule: covering(TreatExempt, Pension, Dividends), Origin: OriginForeign},
		{Rule: covering(TreatFlat, Employment, Pension), Origin: OriginDomestic},
		{Rule: covering(TreatExempt, CapitalGains), Origin: OriginAll},
	}}
	domestic := [NumParts]bool{Employment: true, Dividends: true}
	var rg Regime
	o.Regime(&domestic, &rg)
	want := [][NumParts]bool{
		{Pension: true},
		{Employment: true},
		{CapitalGains: true},
	}
	if rg.ID != "x" || rg.Label != "X" || rg.N != 3 {
		t.Fatalf("regime %s %s %d", rg.ID, rg.Label, rg.N)
	}
	for i := range want {
		if rg.Rules[i].Parts != want[i] {
			t.Errorf("rule %d parts %v, want %v", i, rg.Rules[i].Parts, want[i])
		}
	}
	// Refilling starts over.
	o.Regime(&[NumParts]bool{}, &rg)
	if rg.N != 3 || rg.Rules[1].Parts != ([NumParts]bool{}) {
		t.Errorf("refill: %d rules, domestic rule %v", rg.N, rg.Rules[1].Parts)
	}
}

func allFinite(o *Option) bool {
	for _, x := range []float64{o.Gross, o.Tax, o.Net, o.GrossUSD, o.TaxUSD, o.NetUSD, o.FI, o.FIUSD, o.Withdrawal} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Over random incomes, rates, budgets and withdrawal rates (extreme ones
// included): every figure is finite, net is gross less tax, the options are
// sorted, the order of the candidates does not change the ranking, and a
// larger budget never lowers an FI number.
func TestOptimizeProperties(t *testing.T) {
	t.Parallel()
	all := loadAll(t)
	rng := rand.New(rand.NewPCG(11, 17))
	extreme := []float64{0, 1e-320, 1e-9, 1, 1e6, 1e12}
	pick := func(p float64) float64 {
		if rng.Float64() < 0.2 {
			return extreme[rng.IntN(len(extreme))]
		}
		return rng.Float64() * p
	}
	n := 40
	if testing.Short() {
		n = 8
	}
	for i := range n {
		rates := perUSD{}
		for k, v := range testRates {
			rates[k] = v * math.Exp(rng.NormFloat64()*0.3)
		}
		rates["USD"] = 1
		var cands []Candidate
		for _, s := range all {
			if _, ok := rates[s.Currency]; ok && rng.IntN(2) == 0 {
				cands = append(cands, Candidate{System: s, Offers: []*Offer{flat7()}})
			}
		}
		if len(cands) == 0 {
			continue
		}
		q := &Query{Home: cands[0].System, Programs: true, Candidates: cands,
			Income:         Income{Employment: pick(2e5), Pension: pick(1e5), Dividends: pick(1e5), CapitalGains: pick(1e5)},
			BudgetUSD:      pick(1e5),
			WithdrawalRate: max(pick(0.1), 1e-320),
		}
		var r Ranking
		if err := Optimize(q, rates, &r); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for j, o := range append(r.Options, r.Current) {
			if !allFinite(&o) || o.Net != o.Gross-o.Tax || o.HasFI && !(o.FI > 0) || !o.HasFI && o.FI != 0 {
				t.Fatalf("case %d option %d: %+v (query %+v)", i, j, o, q)
			}
		}
		if !slices.IsSortedFunc(r.Options, compareOptions) {
			t.Fatalf("case %d: not sorted", i)
		}
		// The same candidates in reverse order rank the same.
		q2 := *q
		q2.Candidates = slices.Clone(q.Candidates)
		slices.Reverse(q2.Candidates)
		var r2 Ranking
		if err := Optimize(&q2, rates, &r2); err != nil {
			t.Fatal(err)
		}
		for j := range r.Options {
			a, b := &r.Options[j], &r2.Options[j]
			if a.System != b.System || a.Offer != b.Offer && (a.Offer == nil || b.Offer == nil || a.Offer.ID != b.Offer.ID) {
				t.Fatalf("case %d: candidate order changed rank %d", i, j+1)
			}
		}
		// A larger budget never lowers an FI number.
		q3 := *q
		q3.BudgetUSD = q.BudgetUSD*1.5 + 1000
		var r3 Ranking
		if err := Optimize(&q3, rates, &r3); err != nil {
			t.Fatal(err)
		}
		fiOf := func(r *Ranking) map[string]float64 {
			m := map[string]float64{}
			for _, o := range r.Options {
				if o.HasFI {
					m[o.System.Country+"/"+offerID(o.Offer)] = o.FI
				}
			}
			return m
		}
		less := fiOf(&r)
		for k, more := range fiOf(&r3) {
			// GrossFor is exact to a cent: allow that slack over the rate.
			if v, ok := less[k]; ok && more < v-0.011/q.WithdrawalRate {
				t.Errorf("case %d %s: FI %v with the larger budget, %v with the smaller", i, k, more, v)
			}
		}
	}
}

func offerID(o *Offer) string {
	if o == nil {
		return ""
	}
	return o.ID
}

// Once its slices have grown, a Ranking is refilled without allocating.
func TestOptimizeAllocs(t *testing.T) {
	q := optimizeQuery(t)
	var r Ranking
	if err := Optimize(q, testRates, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := Optimize(q, testRates, &r); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Optimize allocates %v times per call", n)
	}
}

func TestCandidateSame(t *testing.T) {
	t.Parallel()
	ca, gb := loadSystem(t, "ca"), loadSystem(t, "gb")
	cases := []struct {
		a, b Candidate
		same bool
	}{
		{Candidate{System: ca}, Candidate{System: ca, Region: "ON"}, true}, // ON is CA's reference region
		{Candidate{System: gb}, Candidate{System: gb, Region: "SCT"}, false},
		{Candidate{System: gb, Region: "SCT"}, Candidate{System: gb, Region: "SCT"}, true},
		{Candidate{System: gb}, Candidate{System: ca}, false},
	}
	for _, c := range cases {
		if c.a.Same(c.b) != c.same || c.b.Same(c.a) != c.same {
			t.Errorf("%s %q vs %s %q: same %v", c.a.System.Country, c.a.Region, c.b.System.Country, c.b.Region, !c.same)
		}
	}
}
