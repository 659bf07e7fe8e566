package health

import (
	"math"
	"testing"
)

// near compares points, which come out of divisions of decimal fractions.
func near(got, want float64) bool { return math.Abs(got-want) < 1e-6 }

func TestDiversificationPoints(t *testing.T) {
	t.Parallel()
	// full: three classes, unconcentrated, small exposures, no equity
	full := Metrics{EffectiveClasses: 3, HHI: 1000, LargestExposure: 0.10}
	noEquity := spread{}
	unknown := spread{hasEquity: true}
	known := spread{hasEquity: true, knownRegion: true}
	with := func(f func(*Metrics)) Metrics { m := full; f(&m); return m }
	for _, tc := range []struct {
		name string
		m    Metrics
		s    spread
		want diversificationParts
	}{
		{"every point", full, noEquity, diversificationParts{70, 70, 60, 50}},
		{"one class earns nothing", with(func(m *Metrics) { m.EffectiveClasses = 1 }), noEquity, diversificationParts{0, 70, 60, 50}},
		{"below one class", with(func(m *Metrics) { m.EffectiveClasses = 0.4 }), noEquity, diversificationParts{0, 70, 60, 50}},
		{"two classes earn half", with(func(m *Metrics) { m.EffectiveClasses = 2 }), noEquity, diversificationParts{35, 70, 60, 50}},
		{"more than three classes", with(func(m *Metrics) { m.EffectiveClasses = 5.5 }), noEquity, diversificationParts{70, 70, 60, 50}},
		{"HHI just above the full mark", with(func(m *Metrics) { m.HHI = 1008 }), noEquity, diversificationParts{70, 69.65, 60, 50}},
		{"HHI between full and high", with(func(m *Metrics) { m.HHI = 1400 }), noEquity, diversificationParts{70, 52.5, 60, 50}},
		{"HHI highly concentrated earns half", with(func(m *Metrics) { m.HHI = 1800 }), noEquity, diversificationParts{70, 35, 60, 50}},
		{"HHI between high and zero", with(func(m *Metrics) { m.HHI = 3400 }), noEquity, diversificationParts{70, 17.5, 60, 50}},
		{"HHI of two equal holdings", with(func(m *Metrics) { m.HHI = 5000 }), noEquity, diversificationParts{70, 0, 60, 50}},
		{"HHI of one holding", with(func(m *Metrics) { m.HHI = 10000 }), noEquity, diversificationParts{70, 0, 60, 50}},
		{"exposure below the ceiling", with(func(m *Metrics) { m.LargestExposure = 0.02 }), noEquity, diversificationParts{70, 70, 60, 50}},
		{"exposure halfway", with(func(m *Metrics) { m.LargestExposure = 0.30 }), noEquity, diversificationParts{70, 70, 30, 50}},
		{"exposure at the zero mark", with(func(m *Metrics) { m.LargestExposure = 0.50 }), noEquity, diversificationParts{70, 70, 0, 50}},
		{"exposure of everything", with(func(m *Metrics) { m.LargestExposure = 1 }), noEquity, diversificationParts{70, 70, 0, 50}},
		{"equities without a region earn half", full, unknown, diversificationParts{70, 70, 60, 25}},
		{"equities in one region", with(func(m *Metrics) { m.EquityRegions = 1 }), known, diversificationParts{70, 70, 60, 0}},
		{"equities in one and a half regions", with(func(m *Metrics) { m.EquityRegions = 1.5 }), known, diversificationParts{70, 70, 60, 25}},
		{"equities in two regions", with(func(m *Metrics) { m.EquityRegions = 2 }), known, diversificationParts{70, 70, 60, 50}},
		{"equities in four regions", with(func(m *Metrics) { m.EquityRegions = 4 }), known, diversificationParts{70, 70, 60, 50}},
		{"nothing", Metrics{EffectiveClasses: 1, HHI: 10000, LargestExposure: 1, EquityRegions: 1}, known, diversificationParts{}},
	} {
		got := diversificationPoints(&tc.m, &tc.s)
		if !near(got.class, tc.want.class) || !near(got.hhi, tc.want.hhi) || !near(got.exposure, tc.want.exposure) || !near(got.region, tc.want.region) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		if want := tc.want.class + tc.want.hhi + tc.want.exposure + tc.want.region; !near(got.sum(), want) {
			t.Errorf("%s: sum %v, want %v", tc.name, got.sum(), want)
		}
	}
}

func TestCostEfficiencyPoints(t *testing.T) {
	t.Parallel()
	// Expected points from 250 x (1 - D/0.2), D = 1 - ((1.07-ER)/1.069)^H,
	// evaluated to 40 digits.
	for _, tc := range []struct {
		er    float64
		years int
		want  float64
	}{
		{0, 20, 250},
		{0.0005, 20, 250}, // below the benchmark
		{0.001, 20, 250},  // at the benchmark
		{0.001, 40, 250},  // at the benchmark, any horizon
		{0.002, 20, 226.8203257394345},
		{0.005, 10, 204.0070742580920},
		{0.005, 20, 159.7064278908245},
		{0.005, 40, 75.93519911303698}, // a longer horizon costs more
		{0.01, 20, 55.53639915385306},
		{0.006616712080262301, 20, 125}, // drag 10%: half
		{0.012860733624521198, 20, 0},   // drag 20%: nothing
		{0.02, 20, 0},
		{MaxExpenseRatio, 40, 0},
	} {
		m := Metrics{ExpenseRatio: tc.er, HorizonYears: tc.years}
		if got := costEfficiencyPoints(&m); !near(got, tc.want) {
			t.Errorf("ER %v over %d years: %v points, want %v", tc.er, tc.years, got, tc.want)
		}
	}
}

func TestRiskAlignmentPoints(t *testing.T) {
	t.Parallel()
	guide := func(g, target float64) Metrics {
		return Metrics{HasTargetGrowth: true, GrowthShare: g, TargetGrowth: target, SpeculativeCap: 0.05}
	}
	spec := func(share, limit float64) Metrics {
		return Metrics{HasTargetGrowth: true, GrowthShare: 0.5, TargetGrowth: 0.5, SpeculativeShare: share, SpeculativeCap: limit}
	}
	for _, tc := range []struct {
		name string
		m    Metrics
		want riskAlignmentParts
	}{
		{"on the guide", guide(0.5, 0.5), riskAlignmentParts{170, 80}},
		{"within the band above", guide(0.5625, 0.5), riskAlignmentParts{170, 80}},
		{"within the band below", guide(0.4375, 0.5), riskAlignmentParts{170, 80}},
		{"halfway above", guide(0.75, 0.5), riskAlignmentParts{85, 80}},
		{"halfway below", guide(0.25, 0.5), riskAlignmentParts{85, 80}},
		{"at the zero mark", guide(0.9, 0.5), riskAlignmentParts{0, 80}},
		{"past the zero mark", guide(1, 0.3), riskAlignmentParts{0, 80}},
		{"no guide earns half", Metrics{GrowthShare: 0.1, SpeculativeCap: 0.05}, riskAlignmentParts{85, 80}},
		{"no crypto", spec(0, 0.05), riskAlignmentParts{170, 80}},
		{"crypto at the cap", spec(0.10, 0.10), riskAlignmentParts{170, 80}},
		{"crypto halfway past the cap", spec(0.145, 0.02), riskAlignmentParts{170, 40}},
		{"crypto at the zero mark", spec(0.30, 0.05), riskAlignmentParts{170, 0}},
		{"all crypto", spec(1, 0.10), riskAlignmentParts{170, 0}},
	} {
		got := riskAlignmentPoints(&tc.m)
		if !near(got.growth, tc.want.growth) || !near(got.speculative, tc.want.speculative) || !near(got.sum(), tc.want.growth+tc.want.speculative) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestResiliencePoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		months      float64
		coast       float64
		liquid      float64
		hasExpenses bool
		want        resilienceParts
	}{
		{"every point", 6, 1, 1, true, resilienceParts{120, 70, 60}},
		{"no emergency fund", 0, 1, 1, true, resilienceParts{0, 70, 60}},
		{"half the months", 3, 1, 1, true, resilienceParts{60, 70, 60}},
		{"more months than needed", 1200, 1, 1, true, resilienceParts{120, 70, 60}},
		{"half way to FI", 6, 0.5, 1, true, resilienceParts{120, 35, 60}},
		{"past FI", 6, 10, 1, true, resilienceParts{120, 70, 60}},
		{"no progress", 6, 0, 1, true, resilienceParts{120, 0, 60}},
		{"expenses unknown earn half", 0, 0, 1, false, resilienceParts{60, 35, 60}},
		{"expenses unknown ignore the figures", 6, 1, 1, false, resilienceParts{60, 35, 60}},
		{"illiquid under the full mark", 6, 1, 0.75, true, resilienceParts{120, 70, 60}},
		{"illiquid at the full mark", 6, 1, 0.70, true, resilienceParts{120, 70, 60}},
		{"illiquid halfway", 6, 1, 0.45, true, resilienceParts{120, 70, 30}},
		{"illiquid at the zero mark", 6, 1, 0.20, true, resilienceParts{120, 70, 0}},
		{"all illiquid", 6, 1, 0, true, resilienceParts{120, 70, 0}},
	} {
		m := Metrics{EmergencyMonths: tc.months, CoastFIProgress: tc.coast, LiquidShare: tc.liquid}
		got := resiliencePoints(&m, tc.hasExpenses)
		if !near(got.emergency, tc.want.emergency) || !near(got.fi, tc.want.fi) || !near(got.liquidity, tc.want.liquidity) ||
			!near(got.sum(), tc.want.emergency+tc.want.fi+tc.want.liquidity) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestGrowthGuide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ps   person
		want float64
		ok   bool
	}{
		{"nothing known", person{}, 0, false},
		{"target without age", person{target: 60, hasTarget: true}, 0, false},
		{"low tolerance only", person{tol: RiskLow}, 0.40, true},
		{"medium tolerance only", person{tol: RiskMedium}, 0.60, true},
		{"high tolerance only", person{tol: RiskHigh}, 0.80, true},
		{"age 40", person{age: 40, hasAge: true}, 0.70, true},
		{"age 40, high tolerance", person{age: 40, hasAge: true, tol: RiskHigh}, 0.80, true},
		{"age 15 is capped", person{age: 15, hasAge: true}, 0.90, true},
		{"age 90 is floored", person{age: 90, hasAge: true}, 0.30, true},
		{"age 90, low tolerance", person{age: 90, hasAge: true, tol: RiskLow}, 0.20, true},
		{"30 years out", person{age: 30, hasAge: true, target: 60, hasTarget: true}, 0.90, true},
		{"12.5 years out", person{age: 47.5, hasAge: true, target: 60, hasTarget: true}, 0.70, true},
		{"at the target", person{age: 60, hasAge: true, target: 60, hasTarget: true}, 0.50, true},
		{"3.5 years past", person{age: 63.5, hasAge: true, target: 60, hasTarget: true}, 0.40, true},
		{"long past", person{age: 80, hasAge: true, target: 60, hasTarget: true}, 0.30, true},
		{"30 years out, high tolerance, capped at all", person{age: 30, hasAge: true, target: 60, hasTarget: true, tol: RiskHigh}, 1, true},
		{"at the target, low tolerance", person{age: 60, hasAge: true, target: 60, hasTarget: true, tol: RiskLow}, 0.40, true},
	} {
		got, ok := growthGuide(&tc.ps)
		if ok != tc.ok || !near(got, tc.want) {
			t.Errorf("%s: guide %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCountedValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    float64
		want float64
		ok   bool
	}{
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
		{math.Inf(-1), 0, false},
		{-5, 0, false},
		{0, 0, false},
		{0.0099, 0, false},
		{MinValue, MinValue, true},
		{123.45, 123.45, true},
		{MaxValue, MaxValue, true},
		{1e300, MaxValue, true},
	} {
		if got, ok := countedValue(tc.v); got != tc.want || ok != tc.ok {
			t.Errorf("countedValue(%v) = %v, %v; want %v, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

func TestKeepTop(t *testing.T) {
	t.Parallel()
	var tl tally
	for i, excess := range []float64{1, 5, 3, 5, 2, 7, 5} {
		tl.keepTop(costCand{idx: i, excess: excess})
	}
	if tl.nTop != 3 {
		t.Fatalf("kept %d candidates", tl.nTop)
	}
	// largest first; of equal excesses the earlier holding stays ahead
	for j, want := range []int{5, 1, 3} {
		if tl.top[j].idx != want {
			t.Errorf("top[%d] is holding %d, want %d (top %+v)", j, tl.top[j].idx, want, tl.top)
		}
	}
	var two tally
	two.keepTop(costCand{idx: 0, excess: 1})
	two.keepTop(costCand{idx: 1, excess: 4})
	if two.nTop != 2 || two.top[0].idx != 1 || two.top[1].idx != 0 {
		t.Errorf("two candidates kept as %d %+v", two.nTop, two.top)
	}
}

func TestReadPerson(t *testing.T) {
	t.Parallel()
	all := MissingAge | MissingTargetRetirementAge | MissingRiskTolerance | MissingAnnualExpenses | MissingEmergencyFund
	for _, tc := range []struct {
		name    string
		c       Context
		want    person
		missing Missing
	}{
		{"nothing stated: cash is the emergency fund", Context{}, person{emergencyFund: 900}, all},
		{"everything stated", Context{Age: 40, HasAge: true, TargetRetirementAge: 55, HasTargetRetirementAge: true,
			AnnualExpenses: 30000, HasAnnualExpenses: true, RiskTolerance: RiskHigh, EmergencyFund: 5000, HasEmergencyFund: true},
			person{age: 40, hasAge: true, target: 55, hasTarget: true, tol: RiskHigh, expenses: 30000, hasExpenses: true,
				emergencyFund: 5000, hasEmergencyFund: true}, 0},
		{"values without their flags", Context{Age: 40, TargetRetirementAge: 55, AnnualExpenses: 30000, EmergencyFund: 5000},
			person{emergencyFund: 900}, all},
		{"ages out of range", Context{Age: 121, HasAge: true, TargetRetirementAge: -1, HasTargetRetirementAge: true, RiskTolerance: RiskLow},
			person{tol: RiskLow, emergencyFund: 900}, all &^ MissingRiskTolerance},
		{"tolerance out of range", Context{RiskTolerance: RiskHigh + 1}, person{emergencyFund: 900}, all},
		{"expenses below a cent", Context{AnnualExpenses: 0.005, HasAnnualExpenses: true}, person{emergencyFund: 900}, all},
		{"expenses not a number", Context{AnnualExpenses: math.NaN(), HasAnnualExpenses: true}, person{emergencyFund: 900}, all},
		{"huge figures are capped", Context{AnnualExpenses: 1e300, HasAnnualExpenses: true, EmergencyFund: math.MaxFloat64, HasEmergencyFund: true},
			person{expenses: MaxValue, hasExpenses: true, emergencyFund: MaxValue, hasEmergencyFund: true},
			MissingAge | MissingTargetRetirementAge | MissingRiskTolerance},
		{"negative emergency fund", Context{EmergencyFund: -1, HasEmergencyFund: true}, person{emergencyFund: 900}, all},
		{"a stated zero emergency fund counts", Context{EmergencyFund: 0, HasEmergencyFund: true},
			person{hasEmergencyFund: true}, all &^ MissingEmergencyFund},
	} {
		got, missing := readPerson(&tc.c, 900)
		if got != tc.want || missing != tc.missing {
			t.Errorf("%s: got %+v missing %b; want %+v missing %b", tc.name, got, missing, tc.want, tc.missing)
		}
	}
}
