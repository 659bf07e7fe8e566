package health

import (
	"fiplan/compute/category"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// perfect returns a portfolio that earns every point.
func perfect() Portfolio {
	return Portfolio{
		Holdings: []Holding{
			{Name: "World Equity Index", Value: 700_000, AssetClass: Equity, ExpenseRatio: 0.0003, HasExpenseRatio: true, Region: Global},
			{Name: "Aggregate Bond Index", Value: 400_000, AssetClass: Bond, ExpenseRatio: 0.0005, HasExpenseRatio: true},
			{Name: "Savings", Value: 100_000, AssetClass: Cash},
		},
		Context: Context{
			Age: 40, HasAge: true,
			TargetRetirementAge: 45, HasTargetRetirementAge: true, // guide 58%
			AnnualExpenses: 40_000, HasAnnualExpenses: true,
			RiskTolerance: RiskMedium,
			EmergencyFund: 30_000, HasEmergencyFund: true,
		},
	}
}

func score(p Portfolio) *Result {
	var r Result
	Score(&p, &r)
	return &r
}

// checkInvariants asserts what must hold for every input.
func checkInvariants(t testing.TB, p *Portfolio, r *Result) {
	t.Helper()
	if r.Score < 0 || r.Score > MaxScore {
		t.Fatalf("score %d out of range", r.Score)
	}
	sum := 0
	for i, c := range r.Components {
		if c.Name != ComponentNames[i] || c.Max != ComponentMax {
			t.Fatalf("component %d = %+v", i, c)
		}
		if c.Score < 0 || c.Score > c.Max {
			t.Fatalf("component %s score %d out of range", c.Name, c.Score)
		}
		sum += c.Score
	}
	if sum != r.Score {
		t.Fatalf("components sum to %d, score %d", sum, r.Score)
	}
	if (r.NumRecs == 0) != (r.Score == MaxScore) {
		t.Fatalf("score %d with %d recommendations", r.Score, r.NumRecs)
	}
	if r.NumRecs < 0 || r.NumRecs > MaxRecommendations {
		t.Fatalf("NumRecs %d", r.NumRecs)
	}
	// every component below its max has at least one recommendation, and none above
	var perComp [NumComponents]int
	var buf []byte
	for i, rc := range r.Recommendations() {
		if rc.Priority != i+1 {
			t.Fatalf("rec %d has priority %d", i, rc.Priority)
		}
		if rc.Impact < 1 || rc.Impact > MaxScore {
			t.Fatalf("rec %d impact %d", i, rc.Impact)
		}
		if i > 0 && rc.Impact > r.Recs[i-1].Impact {
			t.Fatalf("recs not ordered by impact: %d after %d", rc.Impact, r.Recs[i-1].Impact)
		}
		if rc.Kind >= numKinds || rc.Component >= NumComponents {
			t.Fatalf("rec %d: kind %d component %d", i, rc.Kind, rc.Component)
		}
		if rc.Holding >= len(p.Holdings) {
			t.Fatalf("rec %d: holding index %d", i, rc.Holding)
		}
		perComp[rc.Component]++
		for _, x := range []float64{rc.Share, rc.Value, rc.Target, rc.Amount, rc.Total, rc.gain} {
			if !finite(x) {
				t.Fatalf("rec %d (%s) has a non-finite field: %+v", i, rc.Kind, rc)
			}
		}
		for _, text := range [][]byte{AppendTitle(buf[:0], &r.Recs[i]), AppendDetail(buf[:0], &r.Recs[i])} {
			s := string(text)
			if len(s) == 0 || strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
				t.Fatalf("rec %d (%s) renders %q", i, rc.Kind, s)
			}
			if !utf8.ValidString(s) && utf8.ValidString(rc.Name) {
				t.Fatalf("rec %d renders invalid UTF-8 %q", i, s)
			}
		}
	}
	for c := range perComp {
		if full := r.Components[c].Score == ComponentMax; full == (perComp[c] > 0) && !r.Missing.Has(MissingHoldings) {
			t.Fatalf("component %s scores %d with %d recommendations", ComponentNames[c], r.Components[c].Score, perComp[c])
		}
	}
	checkFinite(t, reflect.ValueOf(r.Metrics))
}

func checkFinite(t testing.TB, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Float64:
		if !finite(v.Float()) {
			t.Fatalf("non-finite metric")
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			checkFinite(t, v.Field(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			checkFinite(t, v.Index(i))
		}
	}
}

func TestPerfectScoresFullWithoutRecommendations(t *testing.T) {
	t.Parallel()
	p := perfect()
	r := score(p)
	checkInvariants(t, &p, r)
	if r.Score != MaxScore || r.NumRecs != 0 {
		t.Fatalf("perfect portfolio: %d, %+v, recs %d", r.Score, r.Components, r.NumRecs)
	}
	if r.Missing != 0 {
		t.Fatalf("missing %b", r.Missing)
	}
}

// TestAssetClassCodes pins the value of every asset class, which stores
// keep as a code, and checks that the exported list cannot be changed from
// outside.
func TestAssetClassCodes(t *testing.T) {
	t.Parallel()
	want := []string{"equity", "bond", "cash", "real_estate", "crypto", "commodity", "other"}
	classes := [...]AssetClass{Equity, Bond, Cash, RealEstate, Crypto, Commodity, Other}
	got := AssetClasses()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("AssetClasses() = %q, want %q", got, want)
	}
	for code, c := range classes {
		if int(c) != code || c.String() != want[code] {
			t.Errorf("%s has value %d, want %d", c, c, code)
		}
	}
	// Each class is the category of the same code.
	cats := [...]string{category.Equity, category.Bond, category.Cash, category.RealEstate, category.Crypto, category.Commodity, category.Other}
	for _, c := range classes {
		if code, ok := category.Code(c.String()); !ok || int(code) != int(c) || cats[c] != c.String() {
			t.Errorf("class %s (value %d) is category code %d, %v", c, c, code, ok)
		}
	}
	if NumAssetClasses != len(category.Names()) {
		t.Errorf("%d classes, %d categories", NumAssetClasses, len(category.Names()))
	}
	got[0] = "changed"
	if again := AssetClasses(); !reflect.DeepEqual(again, want) {
		t.Fatalf("changing a returned list changed the next: %q", again)
	}
	if Equity.String() != "equity" {
		t.Fatal("changing a returned list changed the class names")
	}
}

// TestAssetClassesLookupAllocatesNothing pins that looking a name up in the
// returned list, as handlers do per request, keeps the copy on the stack.
func TestAssetClassesLookupAllocatesNothing(t *testing.T) {
	i := -1
	if n := testing.AllocsPerRun(100, func() { i = slices.Index(AssetClasses(), "crypto") }); n != 0 {
		t.Fatalf("lookup allocates %v times", n)
	}
	if i != int(Crypto) {
		t.Fatalf("crypto at %d", i)
	}
}

func TestEnumListsMatchConstants(t *testing.T) {
	t.Parallel()
	for i, n := range AssetClasses() {
		if c, ok := ParseAssetClass(n); !ok || int(c) != i || c.String() != n {
			t.Errorf("asset class %q", n)
		}
	}
	if len(AssetClasses()) != NumAssetClasses || AssetClass(200).String() != "other" {
		t.Error("asset class list")
	}
	for i, n := range Regions {
		if g, ok := ParseRegion(n); !ok || int(g) != i+1 || g.String() != n {
			t.Errorf("region %q", n)
		}
	}
	for i, n := range RiskTolerances {
		if v, ok := ParseRiskTolerance(n); !ok || int(v) != i+1 || v.String() != n {
			t.Errorf("risk tolerance %q", n)
		}
	}
	if _, ok := ParseRiskTolerance("conservative"); ok {
		t.Error("unexpected tolerance")
	}
	for i, n := range KindNames {
		if Kind(i).String() != n || titles[i] == "" {
			t.Errorf("kind %q", n)
		}
	}
	if len(KindNames) != int(numKinds) || len(ComponentNames) != NumComponents || len(MissingNames) != numMissing {
		t.Error("list lengths")
	}
	var names []string
	names = (MissingAge | MissingRegion).AppendNames(names)
	if strings.Join(names, ",") != "age,holdings[].region" {
		t.Errorf("missing names %v", names)
	}
}

// The published rule text must mention the numbers the code uses.
func TestMethodMentionsParameters(t *testing.T) {
	t.Parallel()
	for _, want := range []string{"5%", "70", "1000", "1800", "5000", "20 equal", "10%", "50%", "65% North America"} {
		if !strings.Contains(MethodDiversification, want) {
			t.Errorf("MethodDiversification lacks %q", want)
		}
	}
	for _, want := range []string{"0.10%", "0.50%", "7%", "10..40", "20 when", "20%"} {
		if !strings.Contains(MethodCostEfficiency, want) {
			t.Errorf("MethodCostEfficiency lacks %q", want)
		}
	}
	for _, want := range []string{"90%", "50%", "30%", "110 minus age", "40% / 60% / 80%", "170", "2% low", "25 points"} {
		if !strings.Contains(MethodRiskAlignment, want) {
			t.Errorf("MethodRiskAlignment lacks %q", want)
		}
	}
	for _, want := range []string{"months / 6", "25 x annualExpenses", "4% a year", "30%", "80%"} {
		if !strings.Contains(MethodResilience, want) {
			t.Errorf("MethodResilience lacks %q", want)
		}
	}
	if !strings.Contains(Method, MethodResilience) {
		t.Error("Method does not include the components")
	}
}

func eqFund(name string, v float64, g Region) Holding {
	return Holding{Name: name, Value: v, AssetClass: Equity, ExpenseRatio: 0.0005, HasExpenseRatio: true, Region: g}
}

func stock(name string, v float64, g Region) Holding {
	return Holding{Name: name, Value: v, AssetClass: Equity, Region: g}
}

func TestDiversificationBoundaries(t *testing.T) {
	t.Parallel()
	bondF := Holding{Name: "bonds", Value: 0, AssetClass: Bond, ExpenseRatio: 0.0005, HasExpenseRatio: true}
	cash := Holding{Name: "cash", Value: 0, AssetClass: Cash}
	with := func(h Holding, v float64) Holding { h.Value = v; return h }
	tenStocks := func(g Region) []Holding {
		hs := make([]Holding, 10)
		for i := range hs {
			hs[i] = stock("s", 10, g)
		}
		return hs
	}
	cases := []struct {
		name     string
		holdings []Holding
		want     int
	}{
		{"one stock", []Holding{stock("ACME", 100, NorthAmerica)}, 0},
		{"two equal stocks one region", []Holding{stock("A", 50, Europe), stock("B", 50, Europe)}, 0},
		// classes 0, HHI 1000 -> 70, exposure 10% -> 60, one region -> 0
		{"ten equal stocks", tenStocks(NorthAmerica), 130},
		// same, regions unknown -> 25
		{"ten equal stocks no region", tenStocks(RegionUnknown), 155},
		// one global fund: HHI 500, exposure 5%, regions 2.15 -> 0+70+60+50
		{"one global fund", []Holding{eqFund("world", 100, Global)}, 180},
		// equity 95 + bond 5: classes 2 -> 35
		{"two classes", []Holding{eqFund("world", 95, Global), with(bondF, 5)}, 215},
		// 90/5/5: three classes
		{"three classes", []Holding{eqFund("world", 90, Global), with(bondF, 5), with(cash, 5)}, 250},
		// bond 96 + cash 4: classes 1.8 -> 28; no equity -> region 50
		{"no equity", []Holding{with(bondF, 96), with(cash, 4)}, 28 + 70 + 60 + 50},
		// equity split evenly NA/EU: 2 regions -> full
		{"two regions", []Holding{eqFund("us", 45, NorthAmerica), eqFund("eu", 45, Europe), with(bondF, 10)}, 35 + 70 + 60 + 50},
		// one stock at 30% beside funds: exposure 30% -> 30 points; HHI 900+... -> (0.09+0.49/20)*1e4 = 1145 -> 63.66;
		// regions: NA 0.3+0.7*0.65, EU, AP, EM from the world fund -> effective 1/sum(share^2)
		{"stock at 30%", []Holding{stock("ACME", 30, NorthAmerica), eqFund("world", 70, Global)}, int(math.Round(0 + 70*(1-0.5*(1145-1000)/800.0) + 30 +
			50*(1/(math.Pow(0.3+0.7*0.65, 2)+math.Pow(0.7*0.15, 2)+2*math.Pow(0.7*0.10, 2))-1)))},
		// commodity fund looked through as 5: exposure 20% -> 45
		{"commodity fund", []Holding{{Name: "gold", Value: 100, AssetClass: Commodity, ExpenseRatio: 0.004, HasExpenseRatio: true}}, 0 + int(math.Round(hhiPoints(2000))) + 45 + 50},
		// crypto fund is not looked through
		{"crypto fund", []Holding{{Name: "btc", Value: 100, AssetClass: Crypto, ExpenseRatio: 0.02, HasExpenseRatio: true}}, 0 + 0 + 0 + 50},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := perfect()
			p.Holdings = tc.holdings
			r := score(p)
			checkInvariants(t, &p, r)
			if got := r.Components[Diversification].Score; got != tc.want {
				t.Fatalf("diversification %d, want %d (metrics %+v)", got, tc.want, r.Metrics)
			}
		})
	}
}

func TestHHIPoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ hhi, want float64 }{
		{0, 70}, {1000, 70}, {1400, 52.5}, {1800, 35}, {3400, 17.5}, {5000, 0}, {10000, 0},
	} {
		if got := hhiPoints(tc.hhi); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("hhiPoints(%v) = %v, want %v", tc.hhi, got, tc.want)
		}
	}
}

func TestCostBoundaries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		er          float64
		has         bool
		age, target float64
		want        int
	}{
		{"zero fee", 0, true, 0, 0, 250},
		{"benchmark", 0.001, true, 0, 0, 250},
		{"0.2% over 20y", 0.002, true, 0, 0, 227},
		{"0.5% over 20y", 0.005, true, 0, 0, 160},
		{"1% over 20y", 0.01, true, 0, 0, 56},
		{"1.5% over 20y", 0.015, true, 0, 0, 0},
		{"absent assumed 0.5%", 0, false, 0, 0, 160},
		{"0.5% over a short horizon floors at 10y", 0.005, true, 40, 42, 204},
		{"0.5% over 50y caps at 40y", 0.005, true, 20, 70, 76},
		{"absurd fee capped", 5, true, 0, 0, 0},
		{"NaN fee treated as absent", math.NaN(), true, 0, 0, 160},
		{"negative fee treated as absent", -0.01, true, 0, 0, 160},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := perfect()
			p.Holdings = []Holding{{Name: "fund", Value: 1000, AssetClass: Equity, ExpenseRatio: tc.er, HasExpenseRatio: tc.has}}
			p.Context = Context{}
			if tc.target > 0 {
				p.Context = Context{Age: tc.age, HasAge: true, TargetRetirementAge: tc.target, HasTargetRetirementAge: true}
			}
			r := score(p)
			checkInvariants(t, &p, r)
			if got := r.Components[CostEfficiency].Score; got != tc.want {
				t.Fatalf("cost %d, want %d (er %v, horizon %d)", got, tc.want, r.Metrics.ExpenseRatio, r.Metrics.HorizonYears)
			}
		})
	}
}

func TestCashWithoutExpenseRatioIsFree(t *testing.T) {
	t.Parallel()
	p := perfect()
	p.Holdings = []Holding{{Name: "cash", Value: 100, AssetClass: Cash}}
	r := score(p)
	if r.Components[CostEfficiency].Score != 250 || r.Missing.Has(MissingExpenseRatio) {
		t.Fatalf("cash cost %d missing %b", r.Components[CostEfficiency].Score, r.Missing)
	}
}

func TestGlidePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ y, want float64 }{
		{40, 0.9}, {25, 0.9}, {12.5, 0.7}, {0, 0.5}, {-3.5, 0.4}, {-7, 0.3}, {-30, 0.3},
	} {
		if got := glidePath(tc.y); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("glidePath(%v) = %v, want %v", tc.y, got, tc.want)
		}
	}
}

func TestRiskBoundaries(t *testing.T) {
	t.Parallel()
	bond := func(v float64) Holding {
		return Holding{Name: "b", Value: v, AssetClass: Bond, ExpenseRatio: 0.0005, HasExpenseRatio: true}
	}
	crypto := func(v float64) Holding { return Holding{Name: "coin", Value: v, AssetClass: Crypto} }
	cases := []struct {
		name     string
		ctx      Context
		holdings []Holding
		want     int
	}{
		// medium tolerance only: guide 60%
		{"on guide", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 60, Global), bond(40)}, 250},
		{"edge of band", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 70, Global), bond(30)}, 250},
		{"midway", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 85, Global), bond(15)}, 85 + 80},
		{"far off", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 100, Global)}, 0 + 80},
		{"too low", Context{RiskTolerance: RiskHigh}, []Holding{eqFund("w", 40, Global), bond(60)}, 0 + 80},
		// age 60 only: 110-60 = 50%
		{"age rule", Context{Age: 60, HasAge: true}, []Holding{eqFund("w", 50, Global), bond(50)}, 250},
		// age 60 + low: 40%; 50% is at the band edge
		{"age rule low", Context{Age: 60, HasAge: true, RiskTolerance: RiskLow}, []Holding{eqFund("w", 50, Global), bond(50)}, 250},
		// age 30 retiring at 65: 90%; 40% growth is 50 points off
		{"glide path far", Context{Age: 30, HasAge: true, TargetRetirementAge: 65, HasTargetRetirementAge: true}, []Holding{eqFund("w", 40, Global), bond(60)}, 80},
		// nothing known: half of 170
		{"no context", Context{}, []Holding{eqFund("w", 60, Global), bond(40)}, 85 + 80},
		// crypto: medium cap 5%, zero at 30%
		{"crypto at cap", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 55, Global), crypto(5), bond(40)}, 250},
		{"crypto midway", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 42.5, Global), crypto(17.5), bond(40)}, 170 + 40},
		{"crypto all", Context{RiskTolerance: RiskMedium}, []Holding{crypto(100)}, 0},
		{"crypto high cap", Context{RiskTolerance: RiskHigh}, []Holding{eqFund("w", 70, Global), crypto(10), bond(20)}, 250},
		{"real estate counts half", Context{RiskTolerance: RiskMedium}, []Holding{eqFund("w", 30, Global), {Name: "flat", Value: 60, AssetClass: RealEstate}, bond(10)}, 250},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Portfolio{Holdings: tc.holdings, Context: tc.ctx}
			r := score(p)
			checkInvariants(t, &p, r)
			if got := r.Components[RiskAlignment].Score; got != tc.want {
				t.Fatalf("risk %d, want %d (growth %v target %v)", got, tc.want, r.Metrics.GrowthShare, r.Metrics.TargetGrowth)
			}
		})
	}
}

func TestResilienceBoundaries(t *testing.T) {
	t.Parallel()
	base := func() Portfolio {
		p := perfect()
		p.Context.AnnualExpenses = 12_000 // 1,000 a month; FI number 300,000, reached by the holdings
		return p
	}
	cases := []struct {
		name string
		edit func(p *Portfolio)
		want int
	}{
		{"full", func(p *Portfolio) {}, 250},
		{"6 months", func(p *Portfolio) { p.Context.EmergencyFund = 6000 }, 250},
		{"3 months", func(p *Portfolio) { p.Context.EmergencyFund = 3000 }, 60 + 70 + 60},
		{"no emergency fund", func(p *Portfolio) { p.Context.EmergencyFund = 0 }, 0 + 70 + 60},
		{"emergency fund from cash", func(p *Portfolio) { p.Context.HasEmergencyFund = false }, 250},
		{"expenses unknown", func(p *Portfolio) { p.Context.HasAnnualExpenses = false }, 60 + 35 + 60},
		{"expenses NaN", func(p *Portfolio) { p.Context.AnnualExpenses = math.NaN() }, 60 + 35 + 60},
		{"half FI, no target age", func(p *Portfolio) {
			p.Context.AnnualExpenses = 96_000 // FI number 2.4M, portfolio 1.2M
			p.Context.EmergencyFund = 48_000
			p.Context.HasTargetRetirementAge = false
		}, 120 + 35 + 60},
		{"coast FI reached", func(p *Portfolio) {
			p.Context.AnnualExpenses = 80_000 // FI number 2M; 1.2M x 1.04^14 = 2.08M
			p.Context.EmergencyFund = 40_000
			p.Context.TargetRetirementAge = 54
		}, 250},
		{"30% illiquid", func(p *Portfolio) {
			p.Holdings = append(p.Holdings, Holding{Name: "rental", Value: 1_200_000 * 3 / 7, AssetClass: RealEstate})
		}, 250},
		{"55% illiquid", func(p *Portfolio) {
			p.Holdings = append(p.Holdings, Holding{Name: "rental", Value: 1_200_000 * 55 / 45, AssetClass: RealEstate})
		}, 120 + 70 + 30},
		{"REIT fund is liquid", func(p *Portfolio) {
			p.Holdings = append(p.Holdings, Holding{Name: "reit", Value: 1_200_000 * 55 / 45, AssetClass: RealEstate, ExpenseRatio: 0.001, HasExpenseRatio: true})
		}, 250},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := base()
			tc.edit(&p)
			r := score(p)
			checkInvariants(t, &p, r)
			if got := r.Components[Resilience].Score; got != tc.want {
				t.Fatalf("resilience %d, want %d (metrics %+v)", got, tc.want, r.Metrics)
			}
		})
	}
}

func TestEmptyAndInvalidHoldings(t *testing.T) {
	t.Parallel()
	for _, hs := range [][]Holding{
		nil,
		{{Name: "zero", Value: 0}},
		{{Name: "neg", Value: -5}, {Name: "nan", Value: math.NaN()}, {Name: "inf", Value: math.Inf(1)}},
	} {
		p := perfect()
		p.Holdings = hs
		r := score(p)
		checkInvariants(t, &p, r)
		if !r.Missing.Has(MissingHoldings) || r.Recs[0].Kind != KindNoHoldings {
			t.Fatalf("empty portfolio: %+v", r.Recs[0])
		}
		// the stated 9-month emergency fund still counts
		if r.Score != EmergencyPoints || r.Components[Resilience].Score != EmergencyPoints {
			t.Fatalf("empty portfolio score %d", r.Score)
		}
		if r.Metrics.Ignored != len(hs) {
			t.Fatalf("ignored %d", r.Metrics.Ignored)
		}
	}
}

func TestMissingContextIsReported(t *testing.T) {
	t.Parallel()
	p := perfect()
	p.Context = Context{}
	p.Holdings = append(p.Holdings, Holding{Name: "stock", Value: 1000, AssetClass: Equity})
	r := score(p)
	checkInvariants(t, &p, r)
	for _, f := range []Missing{MissingAge, MissingAnnualExpenses, MissingRiskTolerance, MissingTargetRetirementAge, MissingEmergencyFund, MissingExpenseRatio, MissingRegion} {
		if !r.Missing.Has(f) {
			t.Errorf("missing flag %b not set in %b", f, r.Missing)
		}
	}
	kinds := map[Kind]bool{}
	for _, rc := range r.Recommendations() {
		kinds[rc.Kind] = true
	}
	for _, k := range []Kind{KindRiskContextMissing, KindExpensesMissing} {
		if !kinds[k] {
			t.Errorf("no %s recommendation", k)
		}
	}
	// an out-of-range age is as good as absent
	p = perfect()
	p.Context.Age = 400
	if r := score(p); !r.Missing.Has(MissingAge) {
		t.Error("age 400 accepted")
	}
}

func TestRecommendationTexts(t *testing.T) {
	t.Parallel()
	p := Portfolio{
		Holdings: []Holding{
			{Name: "Star Active Fund", Value: 60_000, AssetClass: Equity, ExpenseRatio: 0.0095, HasExpenseRatio: true, Region: NorthAmerica},
			{Name: "ACME Corp", Value: 30_000, AssetClass: Equity, Region: NorthAmerica, ExpenseRatio: 0, HasExpenseRatio: false},
			{Name: "Cash", Value: 4_000, AssetClass: Cash},
		},
		Context: Context{Age: 40, HasAge: true, AnnualExpenses: 40_000, HasAnnualExpenses: true, RiskTolerance: RiskMedium},
	}
	r := score(p)
	checkInvariants(t, &p, r)
	texts := map[Kind]string{}
	for i := range r.Recommendations() {
		rc := &r.Recs[i]
		texts[rc.Kind] = string(AppendTitle(nil, rc)) + " | " + string(AppendDetail(nil, rc))
	}
	want := map[Kind][]string{
		// 60,000 x (0.95% - 0.10%) = 510 a year; over 20 years at 7%: 60,000 x (1.069^20 - 1.0605^20)
		KindFundCost:            {"Star Active Fund", "0.95%", "$510 a year", "0.10% index fund", "20 years", "7%"},
		KindSingleHolding:       {"ACME Corp is 32% of the portfolio", "10%"},
		KindEmergencyFund:       {"Cash holdings", "1.2 months", "6 is the usual floor", "$16,000"},
		KindExpenseRatioUnknown: {"1 holding (32% of the portfolio)", "0.50%"},
	}
	for k, subs := range want {
		s, ok := texts[k]
		if !ok {
			t.Errorf("no %s recommendation; have %v", k, texts)
			continue
		}
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				t.Errorf("%s text %q lacks %q", k, s, sub)
			}
		}
	}
	total := 60_000 * (math.Pow(1.069, 20) - math.Pow(1.0605, 20))
	if !strings.Contains(texts[KindFundCost], string(appendMoney(nil, "", total))) {
		t.Errorf("fund cost over horizon: %q, want %v", texts[KindFundCost], total)
	}
}

func TestMoneyAndNameRendering(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cur  string
		x    float64
		want string
	}{
		{"", 0, "$0"}, {"USD", 999.4, "$999"}, {"", 1234567.5, "$1,234,568"}, {"EUR", 1000, "€1,000"},
		{"GBP", -2500, "-£2,500"}, {"CHF", 12, "12 CHF"}, {"", math.NaN(), "$0"}, {"", 1e300, "$1,000,000,000,000,000,000"},
	} {
		if got := string(appendMoney(nil, tc.cur, tc.x)); got != tc.want {
			t.Errorf("appendMoney(%q, %v) = %q, want %q", tc.cur, tc.x, got, tc.want)
		}
	}
	long := strings.Repeat("é", 100)
	got := string(appendName(nil, &Recommendation{Name: long}))
	if !utf8.ValidString(got) || len(got) > maxNameBytes+3 {
		t.Errorf("long name rendered as %q", got)
	}
	if got := string(appendName(nil, &Recommendation{Holding: 2})); got != "holding #3" {
		t.Errorf("empty name rendered as %q", got)
	}
}
