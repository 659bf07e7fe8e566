package health

import "testing"

// A portfolio of one world index fund, entered without its expense ratio,
// is spread over thousands of companies: no advice to keep a single
// exposure under 10%, and full points for concentration. A single share
// (an equity holding of a region other than global, without a ratio) is
// still one bet.
func TestWorldFundWithoutExpenseRatioIsLookedThrough(t *testing.T) {
	t.Parallel()
	p := perfect()
	p.Holdings = []Holding{{Name: "Vanguard FTSE All-World", Value: 12000, AssetClass: Equity, Region: Global, ISIN: "IE00BK5BQT80"}}
	r := score(p)
	checkInvariants(t, &p, r)
	if r.Metrics.LargestExposure > ExposureFull {
		t.Fatalf("largest exposure %v of a world fund, want at most %v", r.Metrics.LargestExposure, ExposureFull)
	}
	for _, rc := range r.Recommendations() {
		if rc.Kind == KindSingleHolding || rc.Kind == KindHoldingConcentration {
			t.Fatalf("a world fund alone is advised on concentration: %+v", rc)
		}
	}

	p.Holdings[0].Region = NorthAmerica
	r = score(p)
	if r.Metrics.LargestExposure != 1 {
		t.Fatalf("largest exposure %v of one share, want 1", r.Metrics.LargestExposure)
	}
	found := false
	for _, rc := range r.Recommendations() {
		found = found || rc.Kind == KindSingleHolding
	}
	if !found {
		t.Fatal("one share alone gets no advice on its single exposure")
	}
}

// A government-bond index fund entered without its expense ratio holds
// hundreds of bonds: its name says it is a fund, so it is looked through and
// gets no advice to keep a single exposure under 10%. One gilt held directly
// is still one holding.
func TestBondIndexFundWithoutExpenseRatioIsLookedThrough(t *testing.T) {
	t.Parallel()
	p := perfect()
	p.Holdings = []Holding{
		{Name: "Vanguard FTSE All-World", Value: 60000, AssetClass: Equity, Region: Global},
		{Name: "Vanguard U.K. Government Bond Index", Value: 40000, AssetClass: Bond},
	}
	r := score(p)
	checkInvariants(t, &p, r)
	if r.Metrics.LargestExposure > ExposureFull {
		t.Fatalf("largest exposure %v with a bond index fund, want at most %v", r.Metrics.LargestExposure, ExposureFull)
	}
	for _, rc := range r.Recommendations() {
		if rc.Kind == KindSingleHolding {
			t.Fatalf("a bond index fund is advised as a single exposure: %+v", rc)
		}
	}
	p.Holdings[1].Name = "Treasury 4 1/4% 2036"
	if r = score(p); r.Metrics.LargestExposure < 0.39 {
		t.Fatalf("largest exposure %v with one gilt of 40%%, want 0.4", r.Metrics.LargestExposure)
	}
}
