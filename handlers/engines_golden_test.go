package handlers

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*.txt from the current responses")

// goldenStep is one request of a golden scenario; keep marks the responses
// whose bytes are recorded (setup requests are only checked for success).
type goldenStep struct {
	method, path, body, user, tier string
	keep                           bool
}

// TestEngineGolden pins the exact bytes of the fi-score, asset summary, tax
// calculate (with programs) and tax optimize responses for a fixed clock
// and fixed stored documents, so that moving their logic between packages
// cannot change a byte of the answers.
func TestEngineGolden(t *testing.T) {
	h := newHarness(t)
	steps := []goldenStep{
		// fi-score and summary with nothing stored
		{"GET", "/api/v1/fi-score", "", "empty", "free", true},
		{"GET", "/api/v1/assets/summary", "", "empty", "free", true},
		// a profile in EUR, a GBP base currency, assets in three currencies
		{"PATCH", "/api/v1/user/settings", `{"baseCurrency":"GBP","withdrawalRate":0.035,"expectedReturn":0.06}`, "ann", "free", false},
		{"PUT", "/api/v1/user/profile", `{"birthYear":1984,"currency":"EUR","annualIncome":72000,"annualExpenses":38000,"targetRetirementAge":55,"riskTolerance":"high"}`, "ann", "free", false},
		{"POST", "/api/v1/assets", `{"name":"World ETF","category":"equity","isin":"IE00BK5BQT80","value":120000,"currency":"EUR","costBasis":90000,"expenseRatio":0.0022,"region":"global","accountType":"taxable"}`, "ann", "free", false},
		{"POST", "/api/v1/assets", `{"name":"US Treasury","category":"bond","value":40000,"currency":"USD","expenseRatio":0.0005,"region":"north_america","accountType":"tax-advantaged"}`, "ann", "free", false},
		{"POST", "/api/v1/assets", `{"name":"Cash ISA","category":"cash","value":15000,"currency":"GBP","costBasis":15000}`, "ann", "free", false},
		{"POST", "/api/v1/assets", `{"name":"Bitcoin","category":"crypto","value":8000.55,"currency":"USD"}`, "ann", "free", false},
		{"GET", "/api/v1/fi-score", "", "ann", "free", true},
		{"GET", "/api/v1/assets/summary", "", "ann", "free", true},
		// a profile without expenses or age, assets only
		{"PUT", "/api/v1/user/profile", `{"annualIncome":50000}`, "bob", "free", false},
		{"POST", "/api/v1/assets", `{"name":"All-World","category":"equity","value":25000,"currency":"USD"}`, "bob", "free", false},
		{"GET", "/api/v1/fi-score", "", "bob", "free", true},
		{"GET", "/api/v1/assets/summary", "", "bob", "free", true},
		// already FI
		{"PUT", "/api/v1/user/profile", `{"currentAge":61,"annualExpenses":20000}`, "cat", "free", false},
		{"POST", "/api/v1/assets", `{"name":"Fund","category":"equity","value":900000,"currency":"CHF","expenseRatio":0.001}`, "cat", "free", false},
		{"GET", "/api/v1/fi-score", "", "cat", "free", true},
		// tax calculate under programs (their rules converted for the engine)
		{"POST", "/api/v1/tax/calculate", `{"country":"IT","income":{"pension":60000,"dividends":10000},"program":"it-pensioner-7"}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"NL","income":{"employment":85000,"interest":1200,"dividends":3000},"program":"nl-30-ruling","domesticIncome":["employment"]}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"GB","region":"SCT","income":{"employment":85000,"capitalGains":5000}}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"IT","income":{"pension":400000,"dividends":100000},"program":"it-lump-sum"}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"MT","income":{"pension":30000,"interest":4000,"capitalGains":9000},"program":"mt-grp"}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"ES","income":{"employment":700000,"dividends":20000},"program":"es-beckham","domesticIncome":["employment"]}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"IE","income":{"employment":150000},"program":"ie-sarp","domesticIncome":["employment"]}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"IT","income":{"employment":120000},"program":"it-impatriate","domesticIncome":["employment"]}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"GE","income":{"selfEmployment":300000},"program":"ge-small-business"}`, "dan", "free", true},
		{"POST", "/api/v1/tax/calculate", `{"country":"GR","income":{"employment":90000},"program":"gr-employment-50","domesticIncome":["employment"]}`, "dan", "free", true},
		{"GET", "/api/v1/tax/programs?limit=100", "", "dan", "free", true},
		{"GET", "/api/v1/tax/programs?limit=100&offset=100", "", "dan", "free", true},
		// tax optimize
		{"POST", "/api/v1/tax/optimize", `{"country":"US","income":{"pension":30000,"interest":2000,"dividends":20000,"capitalGains":15000},"monthlyBudgetUSD":4000}`, "eve", "pro", true},
		{"POST", "/api/v1/tax/optimize", `{"country":"DE","income":{"employment":70000},"candidates":["pt","ES","IT","nl","CH"],"domesticIncome":["employment"],"year":2025}`, "eve", "pro", true},
		{"POST", "/api/v1/tax/optimize", `{"country":"GB","income":{"selfEmployment":40000,"dividends":5000},"candidates":["FR","JP","CA","DK"],"programs":false,"monthlyBudgetUSD":3000,"withdrawalRate":0.035}`, "eve", "pro", true},
		// tax optimize with region candidates
		{"POST", "/api/v1/tax/optimize", `{"country":"US","income":{"employment":90000,"dividends":5000},"candidates":["gb-sct","GB","CA-ON","dk","JP-13"],"monthlyBudgetUSD":4000}`, "eve", "pro", true},
	}
	var got bytes.Buffer
	for i, st := range steps {
		r := h.Do(st.method, st.path, st.body, bearer(h.Token(st.user, st.tier, ""))...)
		if r.Status >= 300 {
			t.Fatalf("step %d %s %s: %d %s", i, st.method, st.path, r.Status, r.Raw)
		}
		if st.keep {
			fmt.Fprintf(&got, "### %s %s %s %s\n%d\n%s\n", st.user, st.method, st.path, st.body, r.Status, r.Raw)
		}
	}
	path := filepath.Join("testdata", "golden", "engines.txt")
	if *updateGolden {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("cannot read golden file %q (go test -run TestEngineGolden -update-golden writes it): %v", path, err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		g, w := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range max(len(g), len(w)) {
			var gl, wl []byte
			if i < len(g) {
				gl = g[i]
			}
			if i < len(w) {
				wl = w[i]
			}
			if !bytes.Equal(gl, wl) {
				t.Fatalf("response bytes differ from %s at line %d:\n got: %.600s\nwant: %.600s", path, i+1, gl, wl)
			}
		}
	}
}
