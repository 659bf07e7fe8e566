package calculator_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/internal/testserver"
)

// FuzzHousehold posts household bodies: whatever the partner, accounts,
// statutory pensions, spending phases, withdrawal order, conversions,
// relocations and filing say, the answer is a 200 or a 4xx, never a 500
// or a panic, and a 200 validates against the OpenAPI document; asked as
// CSV, a 200 is CSV whose every record has the header's columns.
func FuzzHousehold(f *testing.F) {
	for _, body := range []string{
		`{"currentAge":45,"annualIncome":120000,"annualExpenses":65000,"targetRetirementAge":57,"partner":{"age":43,"annualIncome":70000,"retirementAge":57},` +
			`"accounts":[{"id":"k401","type":"us-401k","balance":350000,"annualContribution":23000,"employerContribution":6000},{"id":"roth","type":"us-roth-ira","balance":60000,"annualContribution":7000},` +
			`{"id":"hsa","type":"us-hsa","balance":25000,"annualContribution":4000},{"id":"brokerage","type":"taxable","balance":180000,"costBasis":120000,"annualContribution":12000},` +
			`{"id":"cash","type":"cash","balance":30000},{"id":"her-401k","type":"us-401k","owner":"partner","balance":140000,"annualContribution":15000}],` +
			`"pensions":[{"kind":"us-social-security","fromAge":67,"amount":32000},{"kind":"us-social-security","owner":"partner","fromAge":62,"amount":21000}],` +
			`"conversions":{"upToRate":0.12},"tax":{"country":"US","filing":"joint"}}`,
		`{"currentAge":18,"annualIncome":0,"annualExpenses":1e-300,"lifeExpectancy":120,"partner":{"age":100,"lifeExpectancy":101},` +
			`"accounts":[{"id":"a","type":"us-ira","balance":1e11,"owner":"partner"},{"id":"b","type":"us-roth-401k","balance":0,"costBasis":0}],` +
			`"withdrawalOrder":["b","a"],"conversions":{"upToRate":0.6},"tax":{"country":"US","region":"CA","year":2026}}`,
		`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"accounts":[{"id":"isa","type":"gb-isa","balance":200000,"annualContribution":1e9},` +
			`{"id":"sipp","type":"gb-sipp","balance":400000},{"id":"lisa","type":"gb-lisa","balance":30000}],"pensions":[{"kind":"gb-state-pension","fromAge":70,"amount":11500}],` +
			`"spending":[{"fromAge":60,"amount":45000},{"fromAge":75,"amount":30000}],"withdrawalOrder":"tax-smart","tax":{"country":"GB","region":"SCT"},` +
			`"relocations":[{"atAge":65,"country":"CA","region":"ON"},{"atAge":70,"country":"AU"}]}`,
		`{"currentAge":40,"annualIncome":90000,"annualExpenses":50000,"partner":{"age":38,"annualIncome":1e9,"incomeGrowthRate":0.3},` +
			`"accounts":[{"id":"rrsp","type":"ca-rrsp","balance":100000,"annualContribution":40000},{"id":"tfsa","type":"ca-tfsa","balance":50000,"owner":"partner","annualContribution":7000}],` +
			`"pensions":[{"kind":"ca-cpp","fromAge":60,"amount":15000},{"kind":"ca-oas","fromAge":70,"amount":8000,"owner":"partner"},{"fromAge":65,"amount":1e8,"inflationLinked":false}],` +
			`"withdrawalOrder":"proportional","tax":{"country":"CA","filing":"single"},"monteCarlo":{"simulations":10},"historical":{"years":20}}`,
		`{"currentAge":30,"annualIncome":80000,"annualExpenses":40000,"accounts":[{"id":"super","type":"au-super","balance":50000,"employerContribution":9000}],` +
			`"tax":{"country":"AU"},"scenarios":[{"name":"x","annualExpenses":1}],"output":"yearly","every":7}`,
		`{"currentAge":70,"annualIncome":0,"annualExpenses":1e9,"currentSavings":5,"partner":{"age":18},"spending":[{"fromAge":120,"amount":0}],"tax":{"country":"DE","filing":"joint"}}`,
		`{"currentAge":50,"annualIncome":1,"annualExpenses":1,"accounts":[{"id":"x","type":"us-401k","balance":1}],"relocations":[{"atAge":51,"country":"US","cityId":"lisbon-pt"}]}`,
	} {
		f.Add([]byte(body))
	}
	serve := testserver.FuzzRoute(f, "/api/v1/calculator")
	s := testserver.NewFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		serve(t, body)
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.1"), nil)
		rc.Request.Header.SetMethod("POST")
		rc.Request.SetRequestURI("/api/v1/calculator")
		rc.Request.Header.Set("Accept", "text/csv")
		rc.Request.SetBody(body)
		testserver.Serve(t, s, &rc)
		if code := rc.Response.StatusCode(); code >= 500 {
			t.Fatalf("CSV: status %d for %s: %s", code, body, rc.Response.Body())
		} else if code != 200 {
			return
		}
		if ct := string(rc.Response.Header.ContentType()); ct != "text/csv; charset=utf-8" {
			t.Fatalf("CSV asked, %s answered for %s", ct, body)
		}
		if _, err := csv.NewReader(bytes.NewReader(rc.Response.Body())).ReadAll(); err != nil {
			t.Fatalf("CSV for %s: %v\n%s", body, err, rc.Response.Body())
		}
	})
}

// A retired stretch before an access age that no account pays for (the
// scenario spends next to nothing) is a bridge with an empty list of
// accounts, never null.
func TestHouseholdBridgeWithoutAccounts(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":30,"annualIncome":80000,"annualExpenses":40000,"accounts":[{"id":"super","type":"au-super","balance":50000,"employerContribution":9000}],`+
		`"tax":{"country":"AU"},"scenarios":[{"name":"x","annualExpenses":1}]}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bridge := r.Data()["scenarios"].([]any)[0].(map[string]any)["bridge"].([]any)
	if len(bridge) == 0 {
		t.Fatal("no bridge before the super's access age")
	}
	for _, b := range bridge {
		if a, ok := b.(map[string]any)["accounts"].([]any); !ok || a == nil {
			t.Fatalf("bridge %v: accounts is not a list", b)
		}
	}
}
