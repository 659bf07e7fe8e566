package handlers

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp"

	testharness "fiplan/handlers/internal/harness"
)

// calcGolden is every kind of calculator answer: the plain plan with
// scenarios, each output, taxes in and out of the tax country's currency,
// cities, Monte Carlo, both backtest datasets with sequences, both goals,
// the CSV answers, and household plans whose rows carry every member a
// household adds (spousal and survivor benefits, health, SEPP, yield,
// conversions, pension splitting, means-tested pensions, wealth tax, the
// Vorabpauschale, a relocation), in JSON and CSV, taxed and untaxed.
var calcGolden = []struct{ accept, body string }{
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"output":"yearly","every":7,"pensions":[{"fromAge":67,"amount":12000}],"events":[{"age":50,"amount":-80000,"label":"house"},{"age":60,"amount":100000,"nominal":true}]}`},
	{"", `{"startYear":2026,"currentAge":55,"annualIncome":30000,"annualExpenses":40000,"currentSavings":300000,"targetRetirementAge":60,"output":"summary","withdrawalStrategy":"guyton-klinger"}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"tax":{"country":"GB"},"cityId":"lisbon-pt","householdSize":2,"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"home","retirementExpenses":30000},{"name":"porto","cityId":"porto-pt","householdSize":1}]}`},
	{"", `{"startYear":2026,"currentAge":40,"annualIncome":120000,"annualExpenses":60000,"currentSavings":200000,"currency":"EUR","tax":{"country":"US","region":"NY","year":2025,"withdrawalIncome":"capitalGains"},"output":"yearly"}`},
	{"", `{"startYear":2026,"currentAge":45,"annualIncome":80000,"annualExpenses":30000,"currentSavings":100000,"tax":{"country":"SE","year":2025}}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"output":"summary","monteCarlo":{"simulations":500,"seed":7}}`},
	{"", `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":80000,"currentSavings":900000,"output":"summary","monteCarlo":{"simulations":300}}`},
	{"", `{"startYear":2026,"currentAge":50,"annualIncome":100000,"annualExpenses":50000,"currentSavings":900000,"output":"summary","historical":{"years":30,"sequences":true}}`},
	{"", `{"startYear":2026,"currentAge":50,"annualIncome":100000,"annualExpenses":50000,"currentSavings":900000,"output":"summary","withdrawalStrategy":"cape","cape":30,"historical":{"years":25,"sequences":true,"dataset":"shiller-monthly"}}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"output":"summary","goals":{"fiByAge":50,"targetSuccessRate":0.95}}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":40000,"annualExpenses":39000,"output":"summary","goals":{"fiByAge":36,"targetSuccessRate":1},"historical":{"years":40}}`},
	{"text/csv", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"scenarios":[{"name":"=frugal, really","annualExpenses":35000}],"output":"yearly","monteCarlo":{"simulations":100}}`},
	{"text/csv", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"tax":{"country":"DE"},"output":"yearly","every":10}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"tax":{"country":"GB","region":"XX"}}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"cityId":"lisbon-pt","scenarios":[{"name":"x","cityId":"nowhere"}]}`},
	{"", `{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"householdSize":2}`},
	{"", `{"startYear":2026,"currentAge":52,"annualIncome":110000,"annualExpenses":60000,"targetRetirementAge":55,"lifeExpectancy":90,"partner":{"age":50,"annualIncome":20000,"retirementAge":55,"lifeExpectancy":75},"accounts":[{"id":"cash","type":"cash","balance":30000},{"id":"ira","type":"us-ira","balance":900000,"annualContribution":30000},{"id":"roth","type":"us-roth-ira","balance":80000},{"id":"brokerage","type":"taxable","balance":300000,"costBasis":200000,"yield":0.02}],"pensions":[{"kind":"us-social-security","fromAge":67,"amount":6000},{"kind":"us-social-security","owner":"partner","fromAge":67,"amount":30000}],"conversions":{"upToRate":0.12},"healthcare":{"phases":[{"fromAge":55,"amount":20000},{"fromAge":65,"amount":8000}],"benchmarkPremium":18000},"bridge":{"sepp":[{"account":"ira","method":"amortization","fromAge":55}]},"tax":{"country":"US"},"output":"yearly","every":2,"scenarios":[{"name":"lean","annualExpenses":50000}]}`},
	{"text/csv", `{"startYear":2026,"currentAge":52,"annualIncome":110000,"annualExpenses":60000,"targetRetirementAge":55,"lifeExpectancy":90,"partner":{"age":50,"annualIncome":20000,"retirementAge":55,"lifeExpectancy":75},"accounts":[{"id":"cash","type":"cash","balance":30000},{"id":"ira","type":"us-ira","balance":900000,"annualContribution":30000},{"id":"roth","type":"us-roth-ira","balance":80000},{"id":"brokerage","type":"taxable","balance":300000,"costBasis":200000,"yield":0.02}],"pensions":[{"kind":"us-social-security","fromAge":67,"amount":6000},{"kind":"us-social-security","owner":"partner","fromAge":67,"amount":30000}],"conversions":{"upToRate":0.12},"healthcare":{"phases":[{"fromAge":55,"amount":20000},{"fromAge":65,"amount":8000}],"benchmarkPremium":18000},"bridge":{"sepp":[{"account":"ira","method":"amortization","fromAge":55}]},"tax":{"country":"US"},"output":"yearly","every":2,"scenarios":[{"name":"lean","annualExpenses":50000}]}`},
	{"", `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":30000,"lifeExpectancy":80,"partner":{"age":60,"lifeExpectancy":80},"accounts":[{"id":"rrsp","type":"ca-rrsp","balance":60000},{"id":"tfsa","type":"ca-tfsa","balance":20000}],"pensions":[{"kind":"ca-cpp","fromAge":65,"amount":8000},{"kind":"ca-oas","fromAge":65,"amount":8800},{"kind":"ca-oas","owner":"partner","fromAge":65,"amount":8800}],"tax":{"country":"CA","region":"ON"}}`},
	{"", `{"startYear":2026,"currentAge":64,"annualIncome":0,"annualExpenses":50000,"lifeExpectancy":75,"partner":{"age":64,"lifeExpectancy":75},"accounts":[{"id":"rrsp","type":"ca-rrsp","balance":600000}],"pensions":[{"kind":"ca-cpp","fromAge":65,"amount":14000}],"tax":{"country":"CA","region":"ON"}}`},
	{"", `{"startYear":2026,"currentAge":50,"annualIncome":0,"annualExpenses":40000,"targetRetirementAge":50,"lifeExpectancy":60,"accounts":[{"id":"ira","type":"us-ira","balance":300000},{"id":"cash","type":"cash","balance":60000}],"bridge":{"sepp":[{"account":"ira","method":"rmd","fromAge":50}]},"tax":{"country":"US"}}`},
	{"", `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":40000,"targetRetirementAge":60,"lifeExpectancy":72,"accounts":[{"id":"cash","type":"cash","balance":50000},{"id":"brokerage","type":"taxable","balance":1500000,"costBasis":1000000}],"tax":{"country":"NL","year":2026},"relocations":[{"atAge":66,"country":"NO"}]}`},
	{"text/csv", `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":40000,"targetRetirementAge":60,"lifeExpectancy":72,"accounts":[{"id":"cash","type":"cash","balance":50000},{"id":"brokerage","type":"taxable","balance":1500000,"costBasis":1000000}],"tax":{"country":"NL","year":2026},"relocations":[{"atAge":66,"country":"NO"}]}`},
	{"", `{"startYear":2026,"currentAge":50,"annualIncome":60000,"annualExpenses":30000,"lifeExpectancy":60,"accounts":[{"id":"etf","type":"de-aktienfonds","balance":200000,"costBasis":150000}],"tax":{"country":"DE"}}`},
	{"", `{"startYear":2026,"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"lifeExpectancy":50,"partner":{"age":38},"accounts":[{"id":"cash","type":"cash","balance":10000},{"id":"t","type":"taxable","balance":100000}]}`},
	{"text/csv", `{"startYear":2026,"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"lifeExpectancy":50,"partner":{"age":38},"accounts":[{"id":"cash","type":"cash","balance":10000},{"id":"t","type":"taxable","balance":100000}]}`},
}

// mcpGolden are fi_calculate calls whose structured answers are pinned:
// the milestone rows with and without tax and scenarios, and a plan whose
// money runs out.
var mcpGolden = []string{
	`{"startYear":2026,"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"scenarios":[{"name":"frugal","annualExpenses":35000}]}`,
	`{"startYear":2026,"currentAge":58,"annualIncome":50000,"annualExpenses":60000,"currentSavings":400000,"targetRetirementAge":60,"tax":{"country":"GB"}}`,
	`{"startYear":2026,"currentAge":84,"annualIncome":90000,"annualExpenses":45000,"output":"full"}`,
}

var engineField = regexp.MustCompile(`"engine":"fiplan test \([^"]*\)"`)

// TestCalculatorGolden pins the exact bytes of the calculator's answers,
// JSON and CSV, and of the MCP tool fi_calculate, so that moving the
// plan's computation between packages cannot change a byte of them.
func TestCalculatorGolden(t *testing.T) {
	h := newHarness(t, withMCP(false))
	var got bytes.Buffer
	for _, g := range calcGolden {
		status, ctype, raw := calcAccept(t, h, g.accept, g.body)
		fmt.Fprintf(&got, "### %s %s\n%d %s\n%s\n", g.accept, g.body, status, ctype, raw)
	}
	key, _ := h.APIKey("ada", "free")
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range mcpGolden {
		res := testharness.Call(t, cs, "fi_calculate", args)
		// The engine names the test binary's toolchain: pinned apart.
		out := engineField.ReplaceAll(testharness.Structured(t, res), []byte(`"engine":"fiplan test"`))
		fmt.Fprintf(&got, "### mcp %s\n%s\n%s\n", args, out, res.Content[0].(*sdk.TextContent).Text)
	}
	compareGolden(t, filepath.Join("testdata", "golden", "calculator.txt"), got.Bytes())
}

// compareGolden compares got with the golden file at path, which
// -update-golden rewrites, and reports the first line that differs.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("cannot read golden file %q (go test -run %s -update-golden writes it): %v", path, t.Name(), err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
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

// calcAccept serves one calculator request in-process with an Accept
// header and returns the status, Content-Type and body.
func calcAccept(t *testing.T, h *harness, accept, body string) (int, string, []byte) {
	t.Helper()
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.9"), nil)
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/api/v1/calculator")
	rc.Request.Header.SetContentType("application/json")
	if accept != "" {
		rc.Request.Header.Set("Accept", accept)
	}
	rc.Request.SetBodyString(body)
	serve(t, h.S, &rc)
	return rc.Response.StatusCode(), string(rc.Response.Header.ContentType()), append([]byte(nil), rc.Response.Body()...)
}
