package household

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The wrappers of the first four wrapper files join the ledger that
// TestWrapperExamples counts, so every wrapper of every file has a tagged
// worked example there. The country tests (us_test.go, gb_test.go,
// ca_test.go, au_test.go) check these rules more widely; the ledger holds
// one example a wrapper: a figure the authority prints (a limit, a table's
// divisor or factor) tagged table, our arithmetic on its rule computed.
func init() {
	wrapperCountries = append(wrapperCountries, "us", "gb", "ca", "au")
	wrapperExamples = append(wrapperExamples,
		wrapperExample{"us-401k", "table", "2026 elective deferral limit 24,500; 35,750 at 60 to 63 (IRS Notice 2025-67)", ex401kLimit},
		wrapperExample{"us-roth-401k", "table", "shares the 401(k) deferral limit: 24,500 in 2026, 32,500 from 50", exRoth401kLimit},
		wrapperExample{"us-ira", "table", "Uniform Lifetime Table: divisor 24.6 at 75, so 100,000 asks 4,065.04", exIRAMinimum},
		wrapperExample{"us-roth-ira", "table", "2026 IRA limit 7,500, 8,600 from 50 (IRS Notice 2025-67)", exRothIRALimit},
		wrapperExample{"us-hsa", "table", "2026 self-only HSA limit 4,400, 5,400 from 55 (Rev. Proc. 2025-19)", exHSALimit},
		wrapperExample{"gb-isa", "table", "ISA allowance 20,000 a tax year", exISALimit},
		wrapperExample{"gb-lisa", "computed", "a Lifetime ISA drawn at 55 pays the 25% withdrawal charge, shown on the row", exLISACharge},
		wrapperExample{"gb-sipp", "computed", "UFPLS: a quarter of each lump sum is tax-free within the 268,275 allowance (our arithmetic on PTM063300)", exSIPPTaxFree},
		wrapperExample{"ca-rrsp", "table", "RRIF minimum at 72 on 1 January (73 reached in the year): 5.40% of the balance", exRRIFMinimum},
		wrapperExample{"ca-tfsa", "table", "TFSA dollar limit 7,000 for 2026", exTFSALimit},
		wrapperExample{"au-super", "computed", "preserved until 60 for anyone born from 1 July 1964; tax-free from 60", exSuperAccess},
	)
}

// limitIs checks a wrapper's contribution limit for a year and age.
func limitIs(t *testing.T, cc, id string, year, age int, want float64) {
	t.Helper()
	w := parseWrapperFile(t, cc).Wrapper(id)
	if w == nil {
		t.Fatalf("%s: no such wrapper", id)
	}
	got, ok := w.Contrib.LimitFor(year, age, 1)
	if !ok || got != want {
		t.Errorf("%s %d at %d: limit %v (%v), want %v", id, year, age, got, ok, want)
	}
}

func ex401kLimit(t *testing.T) {
	limitIs(t, "us", "us-401k", 2026, 40, 24500)
	limitIs(t, "us", "us-401k", 2026, 61, 35750)
}

func exRoth401kLimit(t *testing.T) {
	limitIs(t, "us", "us-roth-401k", 2026, 45, 24500)
	limitIs(t, "us", "us-roth-401k", 2026, 50, 32500)
}

func exIRAMinimum(t *testing.T) {
	w := parseWrapperFile(t, "us").Wrapper("us-ira")
	if got := w.RMD.Divisors().Minimum(75, 100000); math.Abs(got-100000/24.6) > 0.005 {
		t.Errorf("minimum at 75 on 100,000: %v, want %.2f", got, 100000/24.6)
	}
}

func exRothIRALimit(t *testing.T) {
	limitIs(t, "us", "us-roth-ira", 2026, 49, 7500)
	limitIs(t, "us", "us-roth-ira", 2026, 50, 8600)
}

func exHSALimit(t *testing.T) {
	limitIs(t, "us", "us-hsa", 2026, 54, 4400)
	limitIs(t, "us", "us-hsa", 2026, 55, 5400)
}

func exISALimit(t *testing.T) { limitIs(t, "gb", "gb-isa", 2026, 30, 20000) }

func exLISACharge(t *testing.T) {
	r := parseWrapperFile(t, "gb")
	p := single(r, taxSystem(t, "gb"), 55, 58, Account{ID: "l", Type: "gb-lisa", Wrapper: r.Wrapper("gb-lisa"), Balance: 100000, CostBasis: -1})
	p.Residences[0].Country = "GB"
	p.Return, p.Inflation, p.Expenses, p.People[0].RetirementAge = 0, 0, 10000, 55
	res := run(t, &p)
	w := res.Accounts(0)[0].Withdrawals
	// the charge is paid from the withdrawal: w - 0.25 w = 10,000
	if x := res.Extra[0]; math.Abs(w-10000/0.75) > 0.5 || math.Abs(x.Tax.Penalties-0.25*w) > 0.01 {
		t.Errorf("drew %v with a charge of %v, want %v and a quarter of it", w, x.Tax.Penalties, 10000/0.75)
	}
}

func exSIPPTaxFree(t *testing.T) {
	w := parseWrapperFile(t, "gb").Wrapper("gb-sipp")
	if got := w.Withdrawal.TaxFree(40000, 0); got != 10000 {
		t.Errorf("tax-free part of 40,000: %v, want 10,000", got)
	}
	if got := w.Withdrawal.TaxFree(40000, 268275-4000); got != 4000 {
		t.Errorf("with 4,000 of the allowance left: %v, want 4,000", got)
	}
}

func exRRIFMinimum(t *testing.T) {
	w := parseWrapperFile(t, "ca").Wrapper("ca-rrsp")
	// ages here are the age reached in the year; the prescribed factor
	// goes by the age on 1 January, one less
	if got := w.RMD.Divisors().Minimum(73, 100000); math.Abs(got-5400) > 0.005 {
		t.Errorf("RRIF minimum at 72 on 1 January on 100,000: %v, want 5,400", got)
	}
}

func exTFSALimit(t *testing.T) { limitIs(t, "ca", "ca-tfsa", 2026, 30, 7000) }

func exSuperAccess(t *testing.T) {
	w := parseWrapperFile(t, "au").Wrapper("au-super")
	h := held{w: w}
	h.ownAges(1966)
	if h.access != 60 {
		t.Errorf("born 1966: preserved until %v, want 60", h.access)
	}
	if w.Withdrawal.Taxed != TaxedNone {
		t.Errorf("taxed %v from 60, want none", w.Withdrawal.TaxedName)
	}
}

// Every wrapper file is in the ledger: a new country's wrappers cannot
// land without their worked examples.
func TestWrapperLedgerCoversEveryFile(t *testing.T) {
	files, err := filepath.Glob("../../embed/tax/wrappers/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no wrapper files: %v", err)
	}
	for _, f := range files {
		if cc := strings.TrimSuffix(filepath.Base(f), ".json"); !slices.Contains(wrapperCountries, cc) {
			t.Errorf("%s: wrapper file not in the worked-example ledger (wrapperCountries)", cc)
		}
	}
}
