package household

import "testing"

// auSuper decodes Australia's wrapper file and returns its super fund.
func auSuper(t *testing.T) *Wrapper {
	t.Helper()
	r := parseWrapperFile(t, "au")
	if len(r.Benefits) != 0 {
		t.Errorf("AU lists benefits %v; the means-tested Age Pension is left out", r.Benefits)
	}
	w := r.Wrapper("au-super")
	if w == nil {
		t.Fatal("no au-super")
	}
	return w
}

// Concessional contributions caps, by the income year that begins on 1 July
// of the year given.
func TestAUSuperCaps(t *testing.T) {
	c := auSuper(t).Contrib
	for _, tc := range []struct {
		year int
		want float64
	}{{2023, 27500}, {2024, 30000}, {2025, 30000}, {2026, 32500}} {
		if got, ok := c.LimitFor(tc.year, 45, 1); !ok || got != tc.want {
			t.Errorf("table: concessional cap %d-%02d %v, want %v", tc.year, (tc.year+1)%100, got, tc.want)
		}
	}
	// Computed: indexed after the last year on file (the law indexes to
	// earnings in steps of 2,500; inflation stands in for it here).
	if got, _ := c.LimitFor(2029, 45, 1.1); !approx(got, 35750, 1e-6) {
		t.Errorf("computed: cap 2029-30 at 10%% growth %v, want 35,750", got)
	}
	if !c.PreTax || !c.Employer || !c.EmployerInLimit {
		t.Errorf("concessional contributions: preTax %v employer %v employerInLimit %v, want all true", c.PreTax, c.Employer, c.EmployerInLimit)
	}
}

// The 15% contributions tax and the 15% tax on earnings in the fund.
func TestAUSuperTax(t *testing.T) {
	w := auSuper(t)
	// Computed from the rules: a full 30,000 of concessional contributions
	// in 2024-25 pays 4,500 of contributions tax, leaving 25,500 invested.
	limit, _ := w.Contrib.LimitFor(2024, 45, 1)
	tax := limit * w.Contrib.Tax
	if tax != 4500 || limit-tax != 25500 {
		t.Errorf("computed: contributions tax %v leaving %v, want 4,500 and 25,500", tax, limit-tax)
	}
	// Computed: 10,000 of earnings in accumulation pays 1,500.
	if got := 10000 * w.EarningsTax; got != 1500 {
		t.Errorf("computed: earnings tax on 10,000 %v, want 1,500", got)
	}
	if w.Withdrawal.Taxed != TaxedNone {
		t.Errorf("benefits from 60 are tax-free: taxed %v", w.Withdrawal.Taxed)
	}
}

// Preservation age: 60 for people born on or after 1 July 1964, and the money
// is locked before it.
func TestAUSuperPreservationAge(t *testing.T) {
	a := auSuper(t).Access
	if !a.Locked || a.Penalty != 0 {
		t.Errorf("super is locked before preservation age: %+v", a)
	}
	for _, tc := range []struct {
		born int
		want float64
	}{{1958, 55}, {1960, 56}, {1962, 58}, {1963, 59}, {1964, 60}, {1985, 60}} {
		if got := ByBirth(a.ByBirth, tc.born); got != tc.want {
			t.Errorf("table: born %d, preservation age %v, want %v", tc.born, got, tc.want)
		}
	}
}

// The wrapper ids the contract names for these three countries exist with
// the kind it implies.
func TestContractWrapperIDsGBCAAU(t *testing.T) {
	want := map[string]map[string]Kind{
		"gb": {"gb-isa": KindTaxFree, "gb-lisa": KindTaxFree, "gb-sipp": KindPension},
		"ca": {"ca-rrsp": KindTaxDeferred, "ca-tfsa": KindTaxFree},
		"au": {"au-super": KindPension},
	}
	benefits := map[string][]string{"gb": {"gb-state-pension"}, "ca": {"ca-cpp", "ca-oas"}}
	for cc, ids := range want {
		r := parseWrapperFile(t, cc)
		for id, kind := range ids {
			w := r.Wrapper(id)
			if w == nil {
				t.Errorf("%s: no wrapper %s", cc, id)
				continue
			}
			if w.Kind != kind {
				t.Errorf("%s: kind %v, want %v", id, w.Kind, kind)
			}
		}
		for _, kind := range benefits[cc] {
			if r.Benefit(kind) == nil {
				t.Errorf("%s: no benefit %s", cc, kind)
			}
		}
	}
}
