package plans_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/plans"
)

// A saved plan's input: a 40-year-old saving toward drawdown at 55.
const planInput = `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":300000,"targetRetirementAge":55}`

func savePlan(t *testing.T, h *testserver.Harness, tok, name, input string) map[string]any {
	t.Helper()
	r := h.Do("POST", "/api/v1/plans", `{"name":`+fmt.Sprintf("%q", name)+`,"input":`+input+`}`, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("save plan: %d %s", r.Status, r.Raw)
	}
	return r.Data()
}

var planIDPattern = regexp.MustCompile(`^pln_[a-z2-7]{26}$`)

func TestPlansSaveReadListReplaceDelete(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	p := savePlan(t, h, h.Token("alice", "free", ""), "Lean at 55", planInput)
	id, _ := p["id"].(string)
	if !planIDPattern.MatchString(id) || p["name"] != "Lean at 55" || p["createdAt"] == nil || p["createdAt"] != p["updatedAt"] {
		t.Fatalf("saved plan = %v", p)
	}
	var want, got any
	_ = json.Unmarshal([]byte(planInput), &want)
	if got = p["input"]; !reflect.DeepEqual(got, want) {
		t.Errorf("input kept as %v, want %v", got, want)
	}

	r := h.Do("GET", "/api/v1/plans/"+id, "", tok...)
	if r.Status != 200 || !reflect.DeepEqual(r.Data(), p) || r.Header["Etag"] == "" {
		t.Fatalf("GET = %d %s (ETag %q)", r.Status, r.Raw, r.Header["Etag"])
	}
	tag := r.Header["Etag"]

	savePlan(t, h, h.Token("alice", "free", ""), "Second", planInput)
	r = h.Do("GET", "/api/v1/plans?limit=1&offset=1", "", tok...)
	items, _ := r.Body["data"].([]any)
	meta, _ := r.Body["meta"].(map[string]any)
	if r.Status != 200 || len(items) != 1 || items[0].(map[string]any)["name"] != "Second" || meta["total"] != 2.0 {
		t.Fatalf("list page = %d %s", r.Status, r.Raw)
	}

	// PUT with the current tag replaces name and input, keeps id and createdAt.
	r = h.Do("PUT", "/api/v1/plans/"+id, `{"name":"Fat at 55","input":{"currentAge":40,"annualIncome":90000,"annualExpenses":60000,"lifeExpectancy":90}}`, append(tok, "If-Match", tag)...)
	if r.Status != 200 || r.Data()["name"] != "Fat at 55" || r.Data()["createdAt"] != p["createdAt"] || r.Data()["id"] != id || r.Header["Etag"] == tag {
		t.Fatalf("PUT = %d %s", r.Status, r.Raw)
	}
	newTag := r.Header["Etag"]
	// The old tag is stale now: PUT, PATCH and DELETE with it answer 412 and change nothing.
	testserver.ExpectError(t, h.Do("PUT", "/api/v1/plans/"+id, `{"name":"x","input":`+planInput+`}`, append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	testserver.ExpectError(t, h.Do("PATCH", "/api/v1/plans/"+id, `{"name":"x"}`, append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/plans/"+id, "", append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	if r = h.Do("GET", "/api/v1/plans/"+id, "", tok...); r.Data()["name"] != "Fat at 55" || r.Header["Etag"] != newTag {
		t.Fatalf("a stale write changed the plan: %s", r.Raw)
	}

	// PATCH merges into the stored input.
	r = h.Do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentSavings":123456,"lifeExpectancy":null}}`, append(tok, "If-Match", newTag)...)
	in, _ := r.Data()["input"].(map[string]any)
	if r.Status != 200 || in["currentSavings"] != 123456.0 || in["annualExpenses"] != 60000.0 || in["currentAge"] != 40.0 {
		t.Fatalf("PATCH = %d %s", r.Status, r.Raw)
	}
	if _, ok := in["lifeExpectancy"]; ok {
		t.Errorf("PATCH with null left lifeExpectancy in the input: %v", in)
	}
	r = h.Do("GET", "/api/v1/plans/"+id, "", tok...)
	if r.Status != 200 {
		t.Fatalf("GET after PATCH: %d %s", r.Status, r.Raw)
	}

	if r = h.Do("DELETE", "/api/v1/plans/"+id, "", append(tok, "If-Match", r.Header["Etag"])...); r.Status != 204 {
		t.Fatalf("DELETE = %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/plans/"+id, "", tok...), 404, "NOT_FOUND")
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/plans/"+id, "", tok...), 404, "NOT_FOUND")
}

// Another user's plan id answers 404 on every route, as an unknown id
// does; an id outside its grammar is 400 before any lookup.
func TestPlansOfAnotherUserAreNotFound(t *testing.T) {
	h := testserver.New(t)
	id := savePlan(t, h, h.Token("alice", "free", ""), "Mine", planInput)["id"].(string)
	bob := testserver.Bearer(h.Token("bob", "free", ""))
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/plans/" + id, ""},
		{"PUT", "/api/v1/plans/" + id, `{"name":"stolen","input":` + planInput + `}`},
		{"PATCH", "/api/v1/plans/" + id, `{"name":"stolen"}`},
		{"DELETE", "/api/v1/plans/" + id, ""},
		{"POST", "/api/v1/plans/" + id + "/run", ""},
		{"POST", "/api/v1/plans/" + id + "/checkin", `{"currentSavings":1000}`},
	} {
		r := h.Do(c.method, c.path, c.body, bob...)
		testserver.ExpectError(t, r, 404, "NOT_FOUND")
	}
	if r := h.Do("GET", "/api/v1/plans", "", bob...); r.Body["meta"].(map[string]any)["total"] != 0.0 {
		t.Errorf("bob lists alice's plans: %s", r.Raw)
	}
	if r := h.Do("GET", "/api/v1/plans/"+id, "", testserver.Bearer(h.Token("alice", "free", ""))...); r.Status != 200 || r.Data()["name"] != "Mine" {
		t.Errorf("alice's plan after bob's tries: %d %s", r.Status, r.Raw)
	}
	for _, bad := range []string{"pln_short", "ast_aaaaaaaaaaaaaaaaaaaaaaaaaa", "pln_AAAAAAAAAAAAAAAAAAAAAAAAAA", "..%2f..%2fassets"} {
		r := h.Do("GET", "/api/v1/plans/"+bad, "", bob...)
		if r.Status != 400 && r.Status != 404 {
			t.Errorf("GET /plans/%s = %d %s", bad, r.Status, r.Raw)
		}
		if r.Status == 400 && r.Code() != "VALIDATION_ERROR" {
			t.Errorf("GET /plans/%s: code %s", bad, r.Code())
		}
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/plans/pln_aaaaaaaaaaaaaaaaaaaaaaaaa1", "", bob...), 400, "VALIDATION_ERROR")
}

// The stored input is a calculator body, checked as the calculator checks
// one: its declaration and its cross-field rules, each error's path under
// input.
func TestPlansRefuseBadInputWithItsPath(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	for _, c := range []struct{ input, status, code, path string }{
		{`{"annualIncome":1,"annualExpenses":1}`, "400", "MISSING_FIELD", "input.currentAge"},
		{`{"currentAge":5,"annualIncome":1,"annualExpenses":1}`, "400", "VALIDATION_ERROR", "input.currentAge"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"lifeExpectancy":30}`, "400", "VALIDATION_ERROR", "input.lifeExpectancy"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"tax":{"country":"XX"}}`, "400", "VALIDATION_ERROR", "input.tax.country"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"scenarios":[{"name":"a","currentAge":50,"lifeExpectancy":45}]}`, "400", "VALIDATION_ERROR", "input.scenarios[0].lifeExpectancy"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"nope":1}`, "400", "VALIDATION_ERROR", "input.nope"},
		// the household's rules too, as the calculator's plan.Check applies them
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"currentSavings":1,"accounts":[{"id":"a","type":"cash","balance":1}]}`, "400", "VALIDATION_ERROR", "input.accounts"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"pensions":[{"fromAge":67,"amount":1,"owner":"partner"}]}`, "400", "VALIDATION_ERROR", "input.pensions[0].owner"},
		{`[1]`, "400", "VALIDATION_ERROR", "input"},
	} {
		r := h.Do("POST", "/api/v1/plans", `{"name":"x","input":`+c.input+`}`, tok...)
		testserver.ExpectError(t, r, 400, c.code)
		details, _ := r.Body["details"].([]any)
		if len(details) == 0 || details[0].(map[string]any)["path"] != c.path {
			t.Errorf("input %s: details %v, want path %s", c.input, details, c.path)
		}
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/plans", `{"input":`+planInput+`}`, tok...), 400, "MISSING_FIELD")
	if r := h.Do("GET", "/api/v1/plans", "", tok...); r.Body["meta"].(map[string]any)["total"] != 0.0 {
		t.Fatalf("a refused plan was stored: %s", r.Raw)
	}
	// PUT and PATCH check the input as POST does, and store nothing on a refusal.
	id := savePlan(t, h, h.Token("alice", "free", ""), "ok", planInput)["id"].(string)
	r := h.Do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentAge":null}}`, tok...)
	testserver.ExpectError(t, r, 400, "MISSING_FIELD")
	if d, _ := r.Body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != "input.currentAge" {
		t.Errorf("PATCH details %v", r.Body["details"])
	}
	r = h.Do("PUT", "/api/v1/plans/"+id, `{"name":"x","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1,"stockShare":0.8,"cashShare":0.5}}`, tok...)
	testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
	if d, _ := r.Body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != "input.cashShare" {
		t.Errorf("PUT details %v", r.Body["details"])
	}
	if r = h.Do("GET", "/api/v1/plans/"+id, "", tok...); r.Data()["name"] != "ok" || r.Data()["input"].(map[string]any)["currentAge"] != 40.0 {
		t.Errorf("a refused write changed the plan: %s", r.Raw)
	}
}

// A user keeps at most MaxPlans plans; the next is 409 CONFLICT, as an
// asset past the asset cap is, and stores nothing.
func TestPlansCap(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "pro", "")
	for i := range plans.MaxPlans {
		savePlan(t, h, tok, fmt.Sprint("plan ", i), planInput)
	}
	r := h.Do("POST", "/api/v1/plans", `{"name":"one more","input":`+planInput+`}`, testserver.Bearer(tok)...)
	testserver.ExpectError(t, r, 409, "CONFLICT")
	if !strings.Contains(r.Body["error"].(string), "100") {
		t.Errorf("the refusal does not name the cap: %s", r.Raw)
	}
	if r = h.Do("GET", "/api/v1/plans?limit=1", "", testserver.Bearer(tok)...); r.Body["meta"].(map[string]any)["total"] != float64(plans.MaxPlans) {
		t.Errorf("total after the cap: %s", r.Raw)
	}
	// Another user is not affected.
	savePlan(t, h, h.Token("bob", "free", ""), "bob's", planInput)
}

// A retried save under the same Idempotency-Key answers the first answer
// again and stores one plan; the key with another body is 409.
func TestPlansIdempotentRetry(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	body := `{"name":"retried","input":` + planInput + `}`
	key := []string{"Idempotency-Key", "5f0c6a2e-8a51-4f7e-9a58-1f2b3c4d5e6f"}
	first := h.Do("POST", "/api/v1/plans", body, append(tok, key...)...)
	again := h.Do("POST", "/api/v1/plans", body, append(tok, key...)...)
	if first.Status != 201 || again.Status != 201 || again.Data()["id"] != first.Data()["id"] || again.Header["Idempotent-Replayed"] != "true" {
		t.Fatalf("retry = %d %s (replayed %q), first %d %s", again.Status, again.Raw, again.Header["Idempotent-Replayed"], first.Status, first.Raw)
	}
	if r := h.Do("GET", "/api/v1/plans", "", tok...); r.Body["meta"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("a retry stored a second plan: %s", r.Raw)
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/plans", `{"name":"other","input":`+planInput+`}`, append(tok, key...)...), 409, "CONFLICT")
}

// Run answers exactly what the calculator answers for the stored input.
func TestPlanRunIsTheCalculatorsAnswer(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	input := `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":300000,"historical":{},"scenarios":[{"name":"frugal","annualExpenses":35000}]}`
	id := savePlan(t, h, tok, "run me", input)["id"].(string)
	run := h.Do("POST", "/api/v1/plans/"+id+"/run", "", testserver.Bearer(tok)...)
	calc := h.Do("POST", "/api/v1/calculator", input)
	if run.Status != 200 || calc.Status != 200 {
		t.Fatalf("run %d %s; calculator %d", run.Status, run.Raw, calc.Status)
	}
	if !reflect.DeepEqual(run.Body["data"], calc.Body["data"]) {
		t.Errorf("run and calculator differ:\nrun:  %.300s\ncalc: %.300s", run.Raw, calc.Raw)
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/plans/"+id+"/run", "", testserver.Bearer(h.Token("bob", "free", ""))...), 404, "NOT_FOUND")
}

// A run is charged as its calculation: a Monte Carlo plan costs its
// units, so a caller whose limit covers the request alone meets 429.
func TestPlanRunIsChargedItsWork(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("60/1m", "5/1m", "6000/1m"))
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "heavy", `{"currentAge":30,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":15000}}`)["id"].(string)
	// Its 10 units are more than the free tier's whole 5: no wait admits
	// it, so the refusal says so and gives no retryAfter.
	r := h.Do("POST", "/api/v1/plans/"+id+"/run", "", testserver.Bearer(tok)...)
	testserver.ExpectError(t, r, 429, errcode.CostOverAllowance)
	if _, ok := r.Body["retryAfter"]; ok || r.Header["Retry-After"] != "" || r.Header["Ratelimit-Limit"] != "5" ||
		!strings.Contains(string(r.Raw), "costs 10 units") || !strings.Contains(string(r.Raw), "whole allowance of 5") {
		t.Fatalf("over the whole allowance: %v %s", r.Header, r.Raw)
	}
	// The refusal charged only the request's own unit: the next small
	// request leaves 2 of 5 (the save, the refused run, and itself).
	if r := h.Do("GET", "/api/v1/plans/"+id, "", testserver.Bearer(tok)...); r.Status != 200 || r.Header["Ratelimit-Remaining"] != "2" {
		t.Fatalf("after the refusal: %d %v", r.Status, r.Header)
	}
	// A run within the allowance but over what is left waits: RATE_LIMITED
	// with a retryAfter after which it is admitted.
	light := savePlan(t, h, tok, "light", `{"currentAge":30,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":3000}}`)["id"].(string)
	r = h.Do("POST", "/api/v1/plans/"+light+"/run", "", testserver.Bearer(tok)...)
	testserver.ExpectError(t, r, 429, errcode.RateLimited)
	if after, _ := r.Body["retryAfter"].(float64); after < 1 || after > 60 {
		t.Fatalf("retryAfter %v", r.Body["retryAfter"])
	}
	h.Advance(time.Minute)
	if r := h.Do("POST", "/api/v1/plans/"+light+"/run", "", testserver.Bearer(tok)...); r.Status != 200 {
		t.Fatalf("the light run after a minute: %d %s", r.Status, r.Raw)
	}
}

func checkIn(t *testing.T, h *testserver.Harness, tok, id, body string) *testserver.Resp {
	t.Helper()
	return h.Do("POST", "/api/v1/plans/"+id+"/checkin", body, testserver.Bearer(tok)...)
}

// The yearly check-in runs the plan from this year: ages advanced by the
// years since its start, savings replaced, and answers this year's
// spending with the guardrails and the odds from today.
func TestPlanCheckIn(t *testing.T) {
	h := testserver.New(t) // the harness clock is in 2026
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "guardrails", `{"startYear":2020,"currentAge":58,"annualIncome":80000,"annualExpenses":40000,`+
		`"currentSavings":600000,"targetRetirementAge":62,"withdrawalStrategy":"guyton-klinger","scenarios":[{"name":"x","annualExpenses":1}],"goals":{"fiByAge":60}}`)["id"].(string)
	r := checkIn(t, h, tok, id, `{"currentSavings":1000000}`)
	if r.Status != 200 {
		t.Fatalf("check-in = %d %s", r.Status, r.Raw)
	}
	d := r.Data()
	if d["planId"] != id || d["year"] != 2026.0 || d["age"] != 64.0 || d["retired"] != true || d["drawdownAge"] != 64.0 || d["withdrawalStrategy"] != "guyton-klinger" {
		t.Fatalf("check-in = %s; want age 64 (58 + 6 years), retired in 2026", r.Raw)
	}
	if d["currentSavings"] != 1e6 || d["spending"] != 40000.0 || d["portfolio"] != 1e6 || d["withdrawalRate"] != 0.04 || d["currency"] != "USD" {
		t.Errorf("spending = %s; want 40000 of 1000000 (0.04) USD", r.Raw)
	}
	g, _ := d["guardrails"].(map[string]any)
	if g == nil || g["initialRate"] != 0.04 || g["cutAbove"] != 0.048 || g["raiseBelow"] != 0.032 || g["cutBelowPortfolio"] != 833333.33 || g["raiseAbovePortfolio"] != 1250000.0 || g["inflationCap"] != nil {
		t.Errorf("guardrails = %v", g)
	}
	s, _ := d["successRates"].(map[string]any)
	if h, _ := s["historical"].(float64); s["historical"] == nil || h <= 0 || h > 1 || s["historicalWindows"].(float64) < 1 || s["windowYears"] != 30.0 || s["monteCarlo"] != nil {
		t.Errorf("success rates = %v; want a historical rate over 30-year windows and no Monte Carlo", s)
	}
	// The saved plan itself is unchanged.
	if p := h.Do("GET", "/api/v1/plans/"+id, "", testserver.Bearer(tok)...).Data(); p["input"].(map[string]any)["currentAge"] != 58.0 {
		t.Errorf("a check-in changed the saved plan: %v", p)
	}

	// Still saving: the first drawdown year's withdrawal, in today's
	// money; with monteCarlo in the input, its success rate too. Without
	// startYear the plan's start is the year it was saved.
	id2 := savePlan(t, h, tok, "saver", `{"currentAge":40,"annualIncome":90000,"annualExpenses":36000,"targetRetirementAge":50,"monteCarlo":{"simulations":500}}`)["id"].(string)
	h.Advance(2 * 365 * 24 * 3600e9)
	tok = h.Token("alice", "free", "")
	r = checkIn(t, h, tok, id2, `{"balances":{"brokerage":150000,"cash":50000}}`)
	d = r.Data()
	if r.Status != 200 || d["age"] != 42.0 || d["retired"] != false || d["drawdownAge"] != 50.0 || d["drawdownYear"] != 2036.0 || d["spending"] != 36000.0 || d["currentSavings"] != 200000.0 || d["guardrails"] != nil {
		t.Fatalf("check-in of a saver = %d %s", r.Status, r.Raw)
	}
	if mc := d["successRates"].(map[string]any)["monteCarlo"]; mc == nil {
		t.Errorf("no Monte Carlo rate for a plan that asks for one: %s", r.Raw)
	}
}

func TestPlanCheckInRefusals(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "p", planInput)["id"].(string)
	for _, c := range []struct{ body, code, path string }{
		{`{}`, "MISSING_FIELD", "currentSavings"},
		{`{"currentSavings":1,"balances":{"a":1}}`, "VALIDATION_ERROR", "balances"},
		{`{"currentSavings":-1}`, "VALIDATION_ERROR", "currentSavings"},
		{`{"balances":{"Not An Id":1}}`, "VALIDATION_ERROR", "balances.Not An Id"},
		{`{"balances":{"isa":"lots"}}`, "VALIDATION_ERROR", "balances.isa"},
		{`{"balances":[1]}`, "VALIDATION_ERROR", "balances"},
	} {
		r := checkIn(t, h, tok, id, c.body)
		testserver.ExpectError(t, r, 400, c.code)
		if d, _ := r.Body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != c.path {
			t.Errorf("%s: details %v, want path %s", c.body, r.Body["details"], c.path)
		}
	}
	// A plan whose life expectancy has passed cannot be run from today.
	old := savePlan(t, h, tok, "old", `{"startYear":1990,"currentAge":60,"annualIncome":1,"annualExpenses":1,"lifeExpectancy":90}`)["id"].(string)
	r := checkIn(t, h, tok, old, `{"currentSavings":1000}`)
	testserver.ExpectError(t, r, 409, "CONFLICT")
	if !strings.Contains(r.Body["error"].(string), "lifeExpectancy") {
		t.Errorf("the refusal does not name the field: %s", r.Raw)
	}
}

// Export lists the plans; erasure removes them.
func TestPlansExportAndErase(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "exported", planInput)["id"].(string)
	r := h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(tok)...)
	list, _ := r.Data()["plans"].([]any)
	if r.Status != 200 || len(list) != 1 || list[0].(map[string]any)["id"] != id || list[0].(map[string]any)["input"].(map[string]any)["currentAge"] != 40.0 {
		t.Fatalf("export = %d %s", r.Status, r.Raw)
	}
	if r = h.Do("DELETE", "/api/v1/user", "", testserver.Bearer(tok)...); r.Status != 204 {
		t.Fatalf("erase = %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/plans/"+id, "", testserver.Bearer(tok)...), 404, "NOT_FOUND")
	if r = h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(tok)...); len(r.Data()["plans"].([]any)) != 0 {
		t.Errorf("plans after erasure: %s", r.Raw)
	}
}

// A household calculation costs its measured work on every door: a saved
// plan's run is charged what the calculator charges for its input, many
// units for a simulation whose paths x years one-pot would cost one.
func TestPlanRunIsChargedAsTheCalculator(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("60/1m", "5000/1m", "6000/1m"))
	tok := h.Token("alice", "free", "")
	input := `{"currentAge":45,"annualIncome":90000,"annualExpenses":70000,"lifeExpectancy":95,"partner":{"age":43,"annualIncome":60000},` +
		`"accounts":[{"id":"k1","type":"us-401k","balance":250000},{"id":"t","type":"taxable","balance":150000},{"id":"c","type":"cash","balance":30000}],` +
		`"tax":{"country":"US"},"output":"summary","monteCarlo":{"simulations":200}}`
	id := savePlan(t, h, tok, "household", input)["id"].(string)
	remaining := func(r *testserver.Resp) int {
		t.Helper()
		n, err := strconv.Atoi(r.Header["Ratelimit-Remaining"])
		if r.Status != 200 || err != nil {
			t.Fatalf("%d %s, RateLimit-Remaining %q", r.Status, r.Raw, r.Header["Ratelimit-Remaining"])
		}
		return n
	}
	before := remaining(h.Do("GET", "/api/v1/plans/"+id, "", testserver.Bearer(tok)...))
	afterCalc := remaining(h.Do("POST", "/api/v1/calculator", input, testserver.Bearer(tok)...))
	afterRun := remaining(h.Do("POST", "/api/v1/plans/"+id+"/run", "", testserver.Bearer(tok)...))
	calc, run := before-afterCalc, afterCalc-afterRun
	if calc != run || calc < 5 {
		t.Fatalf("the calculator charged %d units and the plan's run %d; want the same, at least 5 (200 x 52 household path-years, taxed)", calc, run)
	}
}

// A check-in whose withdrawal rate leaves the guardrail band raises
// guardrail.crossed, once a year however often the plan is checked in;
// one inside the band raises nothing.
func TestCheckInRaisesGuardrailCrossed(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "guardrails", `{"startYear":2020,"currentAge":58,"annualIncome":80000,"annualExpenses":40000,`+
		`"currentSavings":600000,"targetRetirementAge":62,"withdrawalStrategy":"guyton-klinger"}`)["id"].(string)
	events := func() []map[string]any { return eventsOf(t, h, tok, "guardrail.crossed") }
	if r := checkIn(t, h, tok, id, `{"currentSavings":1000000}`); r.Status != 200 || len(events()) != 0 {
		t.Fatalf("inside the band: %d %s, events %v", r.Status, r.Raw, events())
	}
	for range 2 {
		r := checkIn(t, h, tok, id, `{"currentSavings":700000}`)
		if r.Status != 200 || r.Data()["withdrawalRate"].(float64) <= 0.048 {
			t.Fatalf("check-in: %d %s", r.Status, r.Raw)
		}
	}
	evs := events()
	if len(evs) != 1 {
		t.Fatalf("events after two check-ins above the band: %v", evs)
	}
	e := evs[0]
	d, _ := e["data"].(map[string]any)
	if e["type"] != "guardrail.crossed" || e["planId"] != id || d["side"] != "upper" || d["year"] != 2026.0 || d["cutAbove"] != 0.048 {
		t.Errorf("event: %v", e)
	}
}

// eventsOf is the user's events of type typ, newest first.
func eventsOf(t *testing.T, h *testserver.Harness, tok, typ string) []map[string]any {
	t.Helper()
	r := h.Do("GET", "/api/v1/user/events?limit=100", "", testserver.Bearer(tok)...)
	if r.Status != 200 {
		t.Fatalf("events: %d %s", r.Status, r.Raw)
	}
	list, _ := r.Body["data"].([]any)
	var out []map[string]any
	for _, e := range list {
		if m, _ := e.(map[string]any); m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// A check-in whose total strays more than a tenth from the plan's
// expected portfolio for the year raises plan.offtrack, once a year for
// each side, with the expected and actual figures and the share; one
// within the band raises nothing. A total that reaches the FI number
// raises fi.reached once for the plan. Both stores keep them alike.
func TestCheckInRaisesOfftrackAndFIReached(t *testing.T) {
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			var h *testserver.Harness
			if backend == "postgres" {
				if os.Getenv("FI_TEST_POSTGRES") == "" {
					t.Skip("FI_TEST_POSTGRES is not set")
				}
				h = testserver.New(t, testserver.WithDB(testserver.PGStore(t)))
			} else {
				h = testserver.New(t)
			}
			tok := h.Token("alice", "free", "")
			// Started this year, so the expected portfolio for 2026 is the
			// saved 500,000; the FI number is 40,000 / 0.04.
			id := savePlan(t, h, tok, "path", `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,`+
				`"currentSavings":500000,"targetRetirementAge":60}`)["id"].(string)
			for _, body := range []string{`{"currentSavings":540000}`, `{"currentSavings":455000}`} {
				if r := checkIn(t, h, tok, id, body); r.Status != 200 {
					t.Fatalf("check-in %s: %d %s", body, r.Status, r.Raw)
				}
			}
			if evs := eventsOf(t, h, tok, "plan.offtrack"); len(evs) != 0 {
				t.Fatalf("within the band: %v", evs)
			}
			for range 2 {
				if r := checkIn(t, h, tok, id, `{"currentSavings":400000}`); r.Status != 200 {
					t.Fatalf("check-in below: %d %s", r.Status, r.Raw)
				}
			}
			evs := eventsOf(t, h, tok, "plan.offtrack")
			if len(evs) != 1 {
				t.Fatalf("after two check-ins below: %v", evs)
			}
			d, _ := evs[0]["data"].(map[string]any)
			if evs[0]["planId"] != id || d["side"] != "below" || d["year"] != 2026.0 || d["expected"] != 500000.0 ||
				d["actual"] != 400000.0 || d["share"] != -0.2 || d["currency"] != "USD" {
				t.Errorf("below: %v", evs[0])
			}
			if got := eventsOf(t, h, tok, "fi.reached"); len(got) != 0 {
				t.Fatalf("fi.reached below the FI number: %v", got)
			}
			for range 2 {
				if r := checkIn(t, h, tok, id, `{"currentSavings":1200000}`); r.Status != 200 {
					t.Fatalf("check-in above: %d %s", r.Status, r.Raw)
				}
			}
			evs = eventsOf(t, h, tok, "plan.offtrack")
			if len(evs) != 2 {
				t.Fatalf("after check-ins below and above: %v", evs)
			}
			sides := map[any]bool{}
			for _, e := range evs {
				sides[e["data"].(map[string]any)["side"]] = true
			}
			if !sides["below"] || !sides["above"] {
				t.Errorf("sides: %v", evs)
			}
			fi := eventsOf(t, h, tok, "fi.reached")
			if len(fi) != 1 {
				t.Fatalf("fi.reached after two check-ins past the FI number: %v", fi)
			}
			d, _ = fi[0]["data"].(map[string]any)
			if fi[0]["planId"] != id || d["fiNumber"] != 1e6 || d["actual"] != 1.2e6 || d["year"] != 2026.0 {
				t.Errorf("fi.reached: %v", fi[0])
			}
			// Next year the same plan may be off track again, but FI is
			// reached once for the plan.
			h.Advance(365 * 24 * time.Hour)
			tok = h.Token("alice", "free", "")
			if r := checkIn(t, h, tok, id, `{"currentSavings":3000000}`); r.Status != 200 {
				t.Fatalf("next year: %d %s", r.Status, r.Raw)
			}
			if n := len(eventsOf(t, h, tok, "fi.reached")); n != 1 {
				t.Errorf("fi.reached raised %d times", n)
			}
			if n := len(eventsOf(t, h, tok, "plan.offtrack")); n != 3 {
				t.Errorf("plan.offtrack after a year above: %d events, want 3", n)
			}
		})
	}
}

// A plan's checkinDate is kept, refused when it is no date of the year,
// and removed by a merge patch's null.
func TestPlanCheckinDate(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	r := h.Do("POST", "/api/v1/plans", `{"name":"x","checkinDate":"02-30","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, testserver.Bearer(tok)...)
	if r.Status != 400 || r.Code() != "VALIDATION_ERROR" || !strings.Contains(string(r.Raw), `"path":"checkinDate"`) {
		t.Fatalf("02-30: %d %s", r.Status, r.Raw)
	}
	r = h.Do("POST", "/api/v1/plans", `{"name":"x","checkinDate":"03-31","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, testserver.Bearer(tok)...)
	if r.Status != 201 || r.Data()["checkinDate"] != "03-31" {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := r.Data()["id"].(string)
	r = h.Do("PATCH", "/api/v1/plans/"+id, `{"checkinDate":null}`, testserver.Bearer(tok)...)
	if _, has := r.Data()["checkinDate"]; r.Status != 200 || has {
		t.Fatalf("patch null: %d %s", r.Status, r.Raw)
	}
}

// A plan started years ago is measured against its projection for this
// year, not its saved savings: still holding the savings it started with
// six years of saving later is off track below.
func TestCheckInOfftrackAgainstTheProjection(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	id := savePlan(t, h, tok, "old", `{"startYear":2020,"currentAge":34,"annualIncome":90000,"annualExpenses":40000,`+
		`"currentSavings":100000,"targetRetirementAge":60}`)["id"].(string)
	if r := checkIn(t, h, tok, id, `{"currentSavings":100000}`); r.Status != 200 {
		t.Fatalf("check-in: %d %s", r.Status, r.Raw)
	}
	evs := eventsOf(t, h, tok, "plan.offtrack")
	if len(evs) != 1 {
		t.Fatalf("events: %v", evs)
	}
	d, _ := evs[0]["data"].(map[string]any)
	expected, _ := d["expected"].(float64)
	if d["side"] != "below" || expected < 300000 || d["actual"] != 100000.0 || d["share"].(float64) >= -0.5 {
		t.Errorf("event: %v", d)
	}
}

// The stored assets are measured against every saved plan on each write:
// an asset create below the plan's expected portfolio raises
// plan.offtrack below, one that takes the total (converted into the
// plan's currency) past the FI number raises plan.offtrack above and
// fi.reached, each once and under the check-in's ids, so a check-in of
// the same total adds nothing; a plan rewritten is measured by its new
// path. Both stores alike.
func TestAssetsRaiseOfftrackAndFIReached(t *testing.T) {
	onBothStores(t, func(t *testing.T, h *testserver.Harness) {
		tok := h.Token("alice", "free", "")
		id := savePlan(t, h, tok, "path", `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,`+
			`"currentSavings":500000,"targetRetirementAge":60}`)["id"].(string)
		add := func(body string) string {
			t.Helper()
			r := h.Do("POST", "/api/v1/assets", body, testserver.Bearer(tok)...)
			if r.Status != 201 {
				t.Fatalf("asset %s: %d %s", body, r.Status, r.Raw)
			}
			return r.Data()["id"].(string)
		}
		first := add(`{"name":"fund","value":400000,"currency":"USD"}`)
		evs := eventsOf(t, h, tok, "plan.offtrack")
		if len(evs) != 1 {
			t.Fatalf("after an asset of 400,000: %v", evs)
		}
		d, _ := evs[0]["data"].(map[string]any)
		if evs[0]["planId"] != id || d["side"] != "below" || d["expected"] != 500000.0 || d["actual"] != 400000.0 || d["currency"] != "USD" {
			t.Errorf("below: %v", evs[0])
		}
		if r := checkIn(t, h, tok, id, `{"currentSavings":400000}`); r.Status != 200 || len(eventsOf(t, h, tok, "plan.offtrack")) != 1 {
			t.Fatalf("a check-in of the same total raised again: %d %v", r.Status, eventsOf(t, h, tok, "plan.offtrack"))
		}
		add(`{"name":"euros","value":700000,"currency":"EUR"}`)
		if n := len(eventsOf(t, h, tok, "plan.offtrack")); n != 2 {
			t.Fatalf("plan.offtrack after the total passed the path: %d, want 2", n)
		}
		fi := eventsOf(t, h, tok, "fi.reached")
		if len(fi) != 1 {
			t.Fatalf("fi.reached: %v", fi)
		}
		d, _ = fi[0]["data"].(map[string]any)
		// 700,000 euros are worth more than 600,000 dollars at any
		// rate the table has held.
		if a, _ := d["actual"].(float64); d["fiNumber"] != 1e6 || a < 1e6 || a == 1.1e6 {
			t.Errorf("fi.reached: %v", fi[0])
		}
		// A plan rewritten to start from twice as much is measured by
		// its new path: next year the remaining 700,000 euros are
		// below it (they were above the old one's).
		r := h.Do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentSavings":1000000}}`, testserver.Bearer(tok)...)
		if r.Status != 200 {
			t.Fatalf("patch: %d %s", r.Status, r.Raw)
		}
		h.Advance(365 * 24 * time.Hour)
		tok = h.Token("alice", "free", "")
		if r := h.Do("DELETE", "/api/v1/assets/"+first, "", testserver.Bearer(tok)...); r.Status != 204 {
			t.Fatalf("delete: %d %s", r.Status, r.Raw)
		}
		evs = eventsOf(t, h, tok, "plan.offtrack")
		if len(evs) != 3 {
			t.Fatalf("after the delete next year: %v", evs)
		}
		d, _ = evs[0]["data"].(map[string]any)
		if e, _ := d["expected"].(float64); d["side"] != "below" || d["year"] != 2027.0 || e < 1e6 {
			t.Errorf("newest event: %v", evs[0])
		}
	})
}

// onBothStores runs fn against a server on bbolt and one on PostgreSQL
// (skipped without FI_TEST_POSTGRES).
func onBothStores(t *testing.T, fn func(t *testing.T, h *testserver.Harness)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, testserver.New(t)) })
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv("FI_TEST_POSTGRES") == "" {
			t.Skip("FI_TEST_POSTGRES is not set")
		}
		fn(t, testserver.New(t, testserver.WithDB(testserver.PGStore(t))))
	})
}
