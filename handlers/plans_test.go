package handlers

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

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/plans"
)

// A saved plan's input: a 40-year-old saving toward drawdown at 55.
const planInput = `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":300000,"targetRetirementAge":55}`

func savePlan(t *testing.T, h *harness, tok, name, input string) map[string]any {
	t.Helper()
	r := h.do("POST", "/api/v1/plans", `{"name":`+fmt.Sprintf("%q", name)+`,"input":`+input+`}`, bearer(tok)...)
	if r.status != 201 {
		t.Fatalf("save plan: %d %s", r.status, r.raw)
	}
	return r.data()
}

var planIDPattern = regexp.MustCompile(`^pln_[a-z2-7]{26}$`)

func TestPlansSaveReadListReplaceDelete(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	p := savePlan(t, h, h.token("alice", "free", ""), "Lean at 55", planInput)
	id, _ := p["id"].(string)
	if !planIDPattern.MatchString(id) || p["name"] != "Lean at 55" || p["createdAt"] == nil || p["createdAt"] != p["updatedAt"] {
		t.Fatalf("saved plan = %v", p)
	}
	var want, got any
	_ = json.Unmarshal([]byte(planInput), &want)
	if got = p["input"]; !reflect.DeepEqual(got, want) {
		t.Errorf("input kept as %v, want %v", got, want)
	}

	r := h.do("GET", "/api/v1/plans/"+id, "", tok...)
	if r.status != 200 || !reflect.DeepEqual(r.data(), p) || r.header["Etag"] == "" {
		t.Fatalf("GET = %d %s (ETag %q)", r.status, r.raw, r.header["Etag"])
	}
	tag := r.header["Etag"]

	savePlan(t, h, h.token("alice", "free", ""), "Second", planInput)
	r = h.do("GET", "/api/v1/plans?limit=1&offset=1", "", tok...)
	items, _ := r.body["data"].([]any)
	meta, _ := r.body["meta"].(map[string]any)
	if r.status != 200 || len(items) != 1 || items[0].(map[string]any)["name"] != "Second" || meta["total"] != 2.0 {
		t.Fatalf("list page = %d %s", r.status, r.raw)
	}

	// PUT with the current tag replaces name and input, keeps id and createdAt.
	r = h.do("PUT", "/api/v1/plans/"+id, `{"name":"Fat at 55","input":{"currentAge":40,"annualIncome":90000,"annualExpenses":60000,"lifeExpectancy":90}}`, append(tok, "If-Match", tag)...)
	if r.status != 200 || r.data()["name"] != "Fat at 55" || r.data()["createdAt"] != p["createdAt"] || r.data()["id"] != id || r.header["Etag"] == tag {
		t.Fatalf("PUT = %d %s", r.status, r.raw)
	}
	newTag := r.header["Etag"]
	// The old tag is stale now: PUT, PATCH and DELETE with it answer 412 and change nothing.
	expectError(t, h.do("PUT", "/api/v1/plans/"+id, `{"name":"x","input":`+planInput+`}`, append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	expectError(t, h.do("PATCH", "/api/v1/plans/"+id, `{"name":"x"}`, append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	expectError(t, h.do("DELETE", "/api/v1/plans/"+id, "", append(tok, "If-Match", tag)...), 412, "PRECONDITION_FAILED")
	if r = h.do("GET", "/api/v1/plans/"+id, "", tok...); r.data()["name"] != "Fat at 55" || r.header["Etag"] != newTag {
		t.Fatalf("a stale write changed the plan: %s", r.raw)
	}

	// PATCH merges into the stored input.
	r = h.do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentSavings":123456,"lifeExpectancy":null}}`, append(tok, "If-Match", newTag)...)
	in, _ := r.data()["input"].(map[string]any)
	if r.status != 200 || in["currentSavings"] != 123456.0 || in["annualExpenses"] != 60000.0 || in["currentAge"] != 40.0 {
		t.Fatalf("PATCH = %d %s", r.status, r.raw)
	}
	if _, ok := in["lifeExpectancy"]; ok {
		t.Errorf("PATCH with null left lifeExpectancy in the input: %v", in)
	}
	r = h.do("GET", "/api/v1/plans/"+id, "", tok...)
	if r.status != 200 {
		t.Fatalf("GET after PATCH: %d %s", r.status, r.raw)
	}

	if r = h.do("DELETE", "/api/v1/plans/"+id, "", append(tok, "If-Match", r.header["Etag"])...); r.status != 204 {
		t.Fatalf("DELETE = %d %s", r.status, r.raw)
	}
	expectError(t, h.do("GET", "/api/v1/plans/"+id, "", tok...), 404, "NOT_FOUND")
	expectError(t, h.do("DELETE", "/api/v1/plans/"+id, "", tok...), 404, "NOT_FOUND")
}

// Another user's plan id answers 404 on every route, as an unknown id
// does; an id outside its grammar is 400 before any lookup.
func TestPlansOfAnotherUserAreNotFound(t *testing.T) {
	h := newHarness(t)
	id := savePlan(t, h, h.token("alice", "free", ""), "Mine", planInput)["id"].(string)
	bob := bearer(h.token("bob", "free", ""))
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/plans/" + id, ""},
		{"PUT", "/api/v1/plans/" + id, `{"name":"stolen","input":` + planInput + `}`},
		{"PATCH", "/api/v1/plans/" + id, `{"name":"stolen"}`},
		{"DELETE", "/api/v1/plans/" + id, ""},
		{"POST", "/api/v1/plans/" + id + "/run", ""},
		{"POST", "/api/v1/plans/" + id + "/checkin", `{"currentSavings":1000}`},
	} {
		r := h.do(c.method, c.path, c.body, bob...)
		expectError(t, r, 404, "NOT_FOUND")
	}
	if r := h.do("GET", "/api/v1/plans", "", bob...); r.body["meta"].(map[string]any)["total"] != 0.0 {
		t.Errorf("bob lists alice's plans: %s", r.raw)
	}
	if r := h.do("GET", "/api/v1/plans/"+id, "", bearer(h.token("alice", "free", ""))...); r.status != 200 || r.data()["name"] != "Mine" {
		t.Errorf("alice's plan after bob's tries: %d %s", r.status, r.raw)
	}
	for _, bad := range []string{"pln_short", "ast_aaaaaaaaaaaaaaaaaaaaaaaaaa", "pln_AAAAAAAAAAAAAAAAAAAAAAAAAA", "..%2f..%2fassets"} {
		r := h.do("GET", "/api/v1/plans/"+bad, "", bob...)
		if r.status != 400 && r.status != 404 {
			t.Errorf("GET /plans/%s = %d %s", bad, r.status, r.raw)
		}
		if r.status == 400 && r.code() != "VALIDATION_ERROR" {
			t.Errorf("GET /plans/%s: code %s", bad, r.code())
		}
	}
	expectError(t, h.do("GET", "/api/v1/plans/pln_aaaaaaaaaaaaaaaaaaaaaaaaa1", "", bob...), 400, "VALIDATION_ERROR")
}

// The stored input is a calculator body, checked as the calculator checks
// one: its declaration and its cross-field rules, each error's path under
// input.
func TestPlansRefuseBadInputWithItsPath(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	for _, c := range []struct{ input, status, code, path string }{
		{`{"annualIncome":1,"annualExpenses":1}`, "400", "MISSING_FIELD", "input.currentAge"},
		{`{"currentAge":5,"annualIncome":1,"annualExpenses":1}`, "400", "VALIDATION_ERROR", "input.currentAge"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"lifeExpectancy":30}`, "400", "VALIDATION_ERROR", "input.lifeExpectancy"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"tax":{"country":"XX"}}`, "400", "VALIDATION_ERROR", "input.tax.country"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"scenarios":[{"name":"a","currentAge":50,"lifeExpectancy":45}]}`, "400", "VALIDATION_ERROR", "input.scenarios[0].lifeExpectancy"},
		{`{"currentAge":40,"annualIncome":1,"annualExpenses":1,"nope":1}`, "400", "VALIDATION_ERROR", "input.nope"},
		{`[1]`, "400", "VALIDATION_ERROR", "input"},
	} {
		r := h.do("POST", "/api/v1/plans", `{"name":"x","input":`+c.input+`}`, tok...)
		expectError(t, r, 400, c.code)
		details, _ := r.body["details"].([]any)
		if len(details) == 0 || details[0].(map[string]any)["path"] != c.path {
			t.Errorf("input %s: details %v, want path %s", c.input, details, c.path)
		}
	}
	expectError(t, h.do("POST", "/api/v1/plans", `{"input":`+planInput+`}`, tok...), 400, "MISSING_FIELD")
	if r := h.do("GET", "/api/v1/plans", "", tok...); r.body["meta"].(map[string]any)["total"] != 0.0 {
		t.Fatalf("a refused plan was stored: %s", r.raw)
	}
	// PUT and PATCH check the input as POST does, and store nothing on a refusal.
	id := savePlan(t, h, h.token("alice", "free", ""), "ok", planInput)["id"].(string)
	r := h.do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentAge":null}}`, tok...)
	expectError(t, r, 400, "MISSING_FIELD")
	if d, _ := r.body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != "input.currentAge" {
		t.Errorf("PATCH details %v", r.body["details"])
	}
	r = h.do("PUT", "/api/v1/plans/"+id, `{"name":"x","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1,"stockShare":0.8,"cashShare":0.5}}`, tok...)
	expectError(t, r, 400, "VALIDATION_ERROR")
	if d, _ := r.body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != "input.cashShare" {
		t.Errorf("PUT details %v", r.body["details"])
	}
	if r = h.do("GET", "/api/v1/plans/"+id, "", tok...); r.data()["name"] != "ok" || r.data()["input"].(map[string]any)["currentAge"] != 40.0 {
		t.Errorf("a refused write changed the plan: %s", r.raw)
	}
}

// A user keeps at most MaxPlans plans; the next is 409 CONFLICT, as an
// asset past the asset cap is, and stores nothing.
func TestPlansCap(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "pro", "")
	for i := range plans.MaxPlans {
		savePlan(t, h, tok, fmt.Sprint("plan ", i), planInput)
	}
	r := h.do("POST", "/api/v1/plans", `{"name":"one more","input":`+planInput+`}`, bearer(tok)...)
	expectError(t, r, 409, "CONFLICT")
	if !strings.Contains(r.body["error"].(string), "100") {
		t.Errorf("the refusal does not name the cap: %s", r.raw)
	}
	if r = h.do("GET", "/api/v1/plans?limit=1", "", bearer(tok)...); r.body["meta"].(map[string]any)["total"] != float64(plans.MaxPlans) {
		t.Errorf("total after the cap: %s", r.raw)
	}
	// Another user is not affected.
	savePlan(t, h, h.token("bob", "free", ""), "bob's", planInput)
}

// A retried save under the same Idempotency-Key answers the first answer
// again and stores one plan; the key with another body is 409.
func TestPlansIdempotentRetry(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	body := `{"name":"retried","input":` + planInput + `}`
	key := []string{"Idempotency-Key", "5f0c6a2e-8a51-4f7e-9a58-1f2b3c4d5e6f"}
	first := h.do("POST", "/api/v1/plans", body, append(tok, key...)...)
	again := h.do("POST", "/api/v1/plans", body, append(tok, key...)...)
	if first.status != 201 || again.status != 201 || again.data()["id"] != first.data()["id"] || again.header["Idempotent-Replayed"] != "true" {
		t.Fatalf("retry = %d %s (replayed %q), first %d %s", again.status, again.raw, again.header["Idempotent-Replayed"], first.status, first.raw)
	}
	if r := h.do("GET", "/api/v1/plans", "", tok...); r.body["meta"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("a retry stored a second plan: %s", r.raw)
	}
	expectError(t, h.do("POST", "/api/v1/plans", `{"name":"other","input":`+planInput+`}`, append(tok, key...)...), 409, "CONFLICT")
}

// Run answers exactly what the calculator answers for the stored input.
func TestPlanRunIsTheCalculatorsAnswer(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
	input := `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":300000,"historical":{},"scenarios":[{"name":"frugal","annualExpenses":35000}]}`
	id := savePlan(t, h, tok, "run me", input)["id"].(string)
	run := h.do("POST", "/api/v1/plans/"+id+"/run", "", bearer(tok)...)
	calc := h.do("POST", "/api/v1/calculator", input)
	if run.status != 200 || calc.status != 200 {
		t.Fatalf("run %d %s; calculator %d", run.status, run.raw, calc.status)
	}
	if !reflect.DeepEqual(run.body["data"], calc.body["data"]) {
		t.Errorf("run and calculator differ:\nrun:  %.300s\ncalc: %.300s", run.raw, calc.raw)
	}
	expectError(t, h.do("POST", "/api/v1/plans/"+id+"/run", "", bearer(h.token("bob", "free", ""))...), 404, "NOT_FOUND")
}

// A run is charged as its calculation: a Monte Carlo plan costs its
// units, so a caller whose limit covers the request alone meets 429.
func TestPlanRunIsChargedItsWork(t *testing.T) {
	h := newHarness(t, withRates("60/1m", "5/1m", "6000/1m"))
	tok := h.token("alice", "free", "")
	id := savePlan(t, h, tok, "heavy", `{"currentAge":30,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":15000}}`)["id"].(string)
	// Its 10 units are more than the free tier's whole 5: no wait admits
	// it, so the refusal says so and gives no retryAfter.
	r := h.do("POST", "/api/v1/plans/"+id+"/run", "", bearer(tok)...)
	expectError(t, r, 429, errcode.CostOverAllowance)
	if _, ok := r.body["retryAfter"]; ok || r.header["Retry-After"] != "" || r.header["Ratelimit-Limit"] != "5" ||
		!strings.Contains(string(r.raw), "costs 10 units") || !strings.Contains(string(r.raw), "whole allowance of 5") {
		t.Fatalf("over the whole allowance: %v %s", r.header, r.raw)
	}
	// The refusal charged only the request's own unit: the next small
	// request leaves 2 of 5 (the save, the refused run, and itself).
	if r := h.do("GET", "/api/v1/plans/"+id, "", bearer(tok)...); r.status != 200 || r.header["Ratelimit-Remaining"] != "2" {
		t.Fatalf("after the refusal: %d %v", r.status, r.header)
	}
	// A run within the allowance but over what is left waits: RATE_LIMITED
	// with a retryAfter after which it is admitted.
	light := savePlan(t, h, tok, "light", `{"currentAge":30,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":3000}}`)["id"].(string)
	r = h.do("POST", "/api/v1/plans/"+light+"/run", "", bearer(tok)...)
	expectError(t, r, 429, errcode.RateLimited)
	if after, _ := r.body["retryAfter"].(float64); after < 1 || after > 60 {
		t.Fatalf("retryAfter %v", r.body["retryAfter"])
	}
	h.advance(time.Minute)
	if r := h.do("POST", "/api/v1/plans/"+light+"/run", "", bearer(tok)...); r.status != 200 {
		t.Fatalf("the light run after a minute: %d %s", r.status, r.raw)
	}
}

func checkIn(t *testing.T, h *harness, tok, id, body string) *resp {
	t.Helper()
	return h.do("POST", "/api/v1/plans/"+id+"/checkin", body, bearer(tok)...)
}

// The yearly check-in runs the plan from this year: ages advanced by the
// years since its start, savings replaced, and answers this year's
// spending with the guardrails and the odds from today.
func TestPlanCheckIn(t *testing.T) {
	h := newHarness(t) // the harness clock is in 2026
	tok := h.token("alice", "free", "")
	id := savePlan(t, h, tok, "guardrails", `{"startYear":2020,"currentAge":58,"annualIncome":80000,"annualExpenses":40000,`+
		`"currentSavings":600000,"targetRetirementAge":62,"withdrawalStrategy":"guyton-klinger","scenarios":[{"name":"x","annualExpenses":1}],"goals":{"fiByAge":60}}`)["id"].(string)
	r := checkIn(t, h, tok, id, `{"currentSavings":1000000}`)
	if r.status != 200 {
		t.Fatalf("check-in = %d %s", r.status, r.raw)
	}
	d := r.data()
	if d["planId"] != id || d["year"] != 2026.0 || d["age"] != 64.0 || d["retired"] != true || d["drawdownAge"] != 64.0 || d["withdrawalStrategy"] != "guyton-klinger" {
		t.Fatalf("check-in = %s; want age 64 (58 + 6 years), retired in 2026", r.raw)
	}
	if d["currentSavings"] != 1e6 || d["spending"] != 40000.0 || d["portfolio"] != 1e6 || d["withdrawalRate"] != 0.04 || d["currency"] != "USD" {
		t.Errorf("spending = %s; want 40000 of 1000000 (0.04) USD", r.raw)
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
	if p := h.do("GET", "/api/v1/plans/"+id, "", bearer(tok)...).data(); p["input"].(map[string]any)["currentAge"] != 58.0 {
		t.Errorf("a check-in changed the saved plan: %v", p)
	}

	// Still saving: the first drawdown year's withdrawal, in today's
	// money; with monteCarlo in the input, its success rate too. Without
	// startYear the plan's start is the year it was saved.
	id2 := savePlan(t, h, tok, "saver", `{"currentAge":40,"annualIncome":90000,"annualExpenses":36000,"targetRetirementAge":50,"monteCarlo":{"simulations":500}}`)["id"].(string)
	h.advance(2 * 365 * 24 * 3600e9)
	tok = h.token("alice", "free", "")
	r = checkIn(t, h, tok, id2, `{"balances":{"brokerage":150000,"cash":50000}}`)
	d = r.data()
	if r.status != 200 || d["age"] != 42.0 || d["retired"] != false || d["drawdownAge"] != 50.0 || d["drawdownYear"] != 2036.0 || d["spending"] != 36000.0 || d["currentSavings"] != 200000.0 || d["guardrails"] != nil {
		t.Fatalf("check-in of a saver = %d %s", r.status, r.raw)
	}
	if mc := d["successRates"].(map[string]any)["monteCarlo"]; mc == nil {
		t.Errorf("no Monte Carlo rate for a plan that asks for one: %s", r.raw)
	}
}

func TestPlanCheckInRefusals(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
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
		expectError(t, r, 400, c.code)
		if d, _ := r.body["details"].([]any); len(d) == 0 || d[0].(map[string]any)["path"] != c.path {
			t.Errorf("%s: details %v, want path %s", c.body, r.body["details"], c.path)
		}
	}
	// A plan whose life expectancy has passed cannot be run from today.
	old := savePlan(t, h, tok, "old", `{"startYear":1990,"currentAge":60,"annualIncome":1,"annualExpenses":1,"lifeExpectancy":90}`)["id"].(string)
	r := checkIn(t, h, tok, old, `{"currentSavings":1000}`)
	expectError(t, r, 409, "CONFLICT")
	if !strings.Contains(r.body["error"].(string), "lifeExpectancy") {
		t.Errorf("the refusal does not name the field: %s", r.raw)
	}
}

// Export lists the plans; erasure removes them.
func TestPlansExportAndErase(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
	id := savePlan(t, h, tok, "exported", planInput)["id"].(string)
	r := h.do("GET", "/api/v1/user/export", "", bearer(tok)...)
	list, _ := r.data()["plans"].([]any)
	if r.status != 200 || len(list) != 1 || list[0].(map[string]any)["id"] != id || list[0].(map[string]any)["input"].(map[string]any)["currentAge"] != 40.0 {
		t.Fatalf("export = %d %s", r.status, r.raw)
	}
	if r = h.do("DELETE", "/api/v1/user", "", bearer(tok)...); r.status != 204 {
		t.Fatalf("erase = %d %s", r.status, r.raw)
	}
	expectError(t, h.do("GET", "/api/v1/plans/"+id, "", bearer(tok)...), 404, "NOT_FOUND")
	if r = h.do("GET", "/api/v1/user/export", "", bearer(tok)...); len(r.data()["plans"].([]any)) != 0 {
		t.Errorf("plans after erasure: %s", r.raw)
	}
}

// A household calculation costs its measured work on every door: a saved
// plan's run is charged what the calculator charges for its input, many
// units for a simulation whose paths x years one-pot would cost one.
func TestPlanRunIsChargedAsTheCalculator(t *testing.T) {
	h := newHarness(t, withRates("60/1m", "5000/1m", "6000/1m"))
	tok := h.token("alice", "free", "")
	input := `{"currentAge":45,"annualIncome":90000,"annualExpenses":70000,"lifeExpectancy":95,"partner":{"age":43,"annualIncome":60000},` +
		`"accounts":[{"id":"k1","type":"us-401k","balance":250000},{"id":"t","type":"taxable","balance":150000},{"id":"c","type":"cash","balance":30000}],` +
		`"tax":{"country":"US"},"output":"summary","monteCarlo":{"simulations":200}}`
	id := savePlan(t, h, tok, "household", input)["id"].(string)
	remaining := func(r *resp) int {
		t.Helper()
		n, err := strconv.Atoi(r.header["Ratelimit-Remaining"])
		if r.status != 200 || err != nil {
			t.Fatalf("%d %s, RateLimit-Remaining %q", r.status, r.raw, r.header["Ratelimit-Remaining"])
		}
		return n
	}
	before := remaining(h.do("GET", "/api/v1/plans/"+id, "", bearer(tok)...))
	afterCalc := remaining(h.do("POST", "/api/v1/calculator", input, bearer(tok)...))
	afterRun := remaining(h.do("POST", "/api/v1/plans/"+id+"/run", "", bearer(tok)...))
	calc, run := before-afterCalc, afterCalc-afterRun
	if calc != run || calc < 5 {
		t.Fatalf("the calculator charged %d units and the plan's run %d; want the same, at least 5 (200 x 52 household path-years, taxed)", calc, run)
	}
}

// A check-in whose withdrawal rate leaves the guardrail band raises
// guardrail.crossed, once a year however often the plan is checked in;
// one inside the band raises nothing.
func TestCheckInRaisesGuardrailCrossed(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
	id := savePlan(t, h, tok, "guardrails", `{"startYear":2020,"currentAge":58,"annualIncome":80000,"annualExpenses":40000,`+
		`"currentSavings":600000,"targetRetirementAge":62,"withdrawalStrategy":"guyton-klinger"}`)["id"].(string)
	events := func() []map[string]any { return eventsOf(t, h, tok, "guardrail.crossed") }
	if r := checkIn(t, h, tok, id, `{"currentSavings":1000000}`); r.status != 200 || len(events()) != 0 {
		t.Fatalf("inside the band: %d %s, events %v", r.status, r.raw, events())
	}
	for range 2 {
		r := checkIn(t, h, tok, id, `{"currentSavings":700000}`)
		if r.status != 200 || r.data()["withdrawalRate"].(float64) <= 0.048 {
			t.Fatalf("check-in: %d %s", r.status, r.raw)
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
func eventsOf(t *testing.T, h *harness, tok, typ string) []map[string]any {
	t.Helper()
	r := h.do("GET", "/api/v1/user/events?limit=100", "", bearer(tok)...)
	if r.status != 200 {
		t.Fatalf("events: %d %s", r.status, r.raw)
	}
	list, _ := r.body["data"].([]any)
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
	onBothStores(t, func(t *testing.T, h *harness) {
		tok := h.token("alice", "free", "")
		// Started this year, so the expected portfolio for 2026 is the
		// saved 500,000; the FI number is 40,000 / 0.04.
		id := savePlan(t, h, tok, "path", `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,`+
			`"currentSavings":500000,"targetRetirementAge":60}`)["id"].(string)
		for _, body := range []string{`{"currentSavings":540000}`, `{"currentSavings":455000}`} {
			if r := checkIn(t, h, tok, id, body); r.status != 200 {
				t.Fatalf("check-in %s: %d %s", body, r.status, r.raw)
			}
		}
		if evs := eventsOf(t, h, tok, "plan.offtrack"); len(evs) != 0 {
			t.Fatalf("within the band: %v", evs)
		}
		for range 2 {
			if r := checkIn(t, h, tok, id, `{"currentSavings":400000}`); r.status != 200 {
				t.Fatalf("check-in below: %d %s", r.status, r.raw)
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
			if r := checkIn(t, h, tok, id, `{"currentSavings":1200000}`); r.status != 200 {
				t.Fatalf("check-in above: %d %s", r.status, r.raw)
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
		h.advance(365 * 24 * time.Hour)
		tok = h.token("alice", "free", "")
		if r := checkIn(t, h, tok, id, `{"currentSavings":3000000}`); r.status != 200 {
			t.Fatalf("next year: %d %s", r.status, r.raw)
		}
		if n := len(eventsOf(t, h, tok, "fi.reached")); n != 1 {
			t.Errorf("fi.reached raised %d times", n)
		}
		if n := len(eventsOf(t, h, tok, "plan.offtrack")); n != 3 {
			t.Errorf("plan.offtrack after a year above: %d events, want 3", n)
		}
	})
}

// A plan's checkinDate is kept, refused when it is no date of the year,
// and removed by a merge patch's null.
func TestPlanCheckinDate(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
	r := h.do("POST", "/api/v1/plans", `{"name":"x","checkinDate":"02-30","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, bearer(tok)...)
	if r.status != 400 || r.code() != "VALIDATION_ERROR" || !strings.Contains(string(r.raw), `"path":"checkinDate"`) {
		t.Fatalf("02-30: %d %s", r.status, r.raw)
	}
	r = h.do("POST", "/api/v1/plans", `{"name":"x","checkinDate":"03-31","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, bearer(tok)...)
	if r.status != 201 || r.data()["checkinDate"] != "03-31" {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id := r.data()["id"].(string)
	r = h.do("PATCH", "/api/v1/plans/"+id, `{"checkinDate":null}`, bearer(tok)...)
	if _, has := r.data()["checkinDate"]; r.status != 200 || has {
		t.Fatalf("patch null: %d %s", r.status, r.raw)
	}
}

// A plan started years ago is measured against its projection for this
// year, not its saved savings: still holding the savings it started with
// six years of saving later is off track below.
func TestCheckInOfftrackAgainstTheProjection(t *testing.T) {
	h := newHarness(t)
	tok := h.token("alice", "free", "")
	id := savePlan(t, h, tok, "old", `{"startYear":2020,"currentAge":34,"annualIncome":90000,"annualExpenses":40000,`+
		`"currentSavings":100000,"targetRetirementAge":60}`)["id"].(string)
	if r := checkIn(t, h, tok, id, `{"currentSavings":100000}`); r.status != 200 {
		t.Fatalf("check-in: %d %s", r.status, r.raw)
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
	onBothStores(t, func(t *testing.T, h *harness) {
		tok := h.token("alice", "free", "")
		id := savePlan(t, h, tok, "path", `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,`+
			`"currentSavings":500000,"targetRetirementAge":60}`)["id"].(string)
		add := func(body string) string {
			t.Helper()
			r := h.do("POST", "/api/v1/assets", body, bearer(tok)...)
			if r.status != 201 {
				t.Fatalf("asset %s: %d %s", body, r.status, r.raw)
			}
			return r.data()["id"].(string)
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
		if r := checkIn(t, h, tok, id, `{"currentSavings":400000}`); r.status != 200 || len(eventsOf(t, h, tok, "plan.offtrack")) != 1 {
			t.Fatalf("a check-in of the same total raised again: %d %v", r.status, eventsOf(t, h, tok, "plan.offtrack"))
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
		r := h.do("PATCH", "/api/v1/plans/"+id, `{"input":{"currentSavings":1000000}}`, bearer(tok)...)
		if r.status != 200 {
			t.Fatalf("patch: %d %s", r.status, r.raw)
		}
		h.advance(365 * 24 * time.Hour)
		tok = h.token("alice", "free", "")
		if r := h.do("DELETE", "/api/v1/assets/"+first, "", bearer(tok)...); r.status != 204 {
			t.Fatalf("delete: %d %s", r.status, r.raw)
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

// When the embedded data changes, the job computes again every plan whose
// watch names another data version: a plan whose answer moved by more than
// a hundredth raises one data.updated with its old and new figures, one
// whose answer did not raises nothing, and a rerun raises nothing more.
// The old version is injected into the stored watches: the test's data
// cannot change, but what the job compares with can. Both stores alike.
func TestDataUpdatedRechecksOlderPlans(t *testing.T) {
	onBothStores(t, func(t *testing.T, h *harness) {
		tok := h.token("alice", "free", "")
		body := `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":500000,"targetRetirementAge":60}`
		moved := savePlan(t, h, tok, "moved", body)["id"].(string)
		same := savePlan(t, h, tok, "same", body)["id"].(string)
		current := savePlan(t, h, tok, "current", body)["id"].(string)
		db := h.s.db
		var ws []store.PlanWatch
		if err := db.EachWatch(func(user string, w store.PlanWatch) error {
			if user == "alice" {
				ws = append(ws, w)
			}
			return nil
		}); err != nil || len(ws) != 3 {
			t.Fatalf("watches: %d, %v", len(ws), err)
		}
		for _, w := range ws {
			if w.Data == "" || w.Answer.FINumber != 1e6 {
				t.Fatalf("a saved plan's watch: %+v", w)
			}
			switch w.Plan {
			case moved: // the old data's answer was 5% lower
				w.Data, w.Answer.FINumber = "data-old", w.Answer.FINumber*0.95
			case same:
				w.Data = "data-old"
			case current:
				continue
			}
			if err := db.SetPlanWatch("alice", w); err != nil {
				t.Fatal(err)
			}
		}
		for run := range 2 {
			n, err := h.s.plans.Recheck(h.clock())
			if want := 1 - run; err != nil || n != want {
				t.Fatalf("run %d: %d events, %v; want %d", run, n, err, want)
			}
			evs := eventsOf(t, h, tok, "data.updated")
			if len(evs) != 1 || evs[0]["planId"] != moved {
				t.Fatalf("run %d: %v", run, evs)
			}
			d, _ := evs[0]["data"].(map[string]any)
			fi, _ := d["fiNumber"].(map[string]any)
			v, _ := d["dataVersion"].(map[string]any)
			if fi["old"] != 950000.0 || fi["new"] != 1e6 || fi["share"] != 0.0526 || v["old"] != "data-old" || v["new"] == "data-old" || d["threshold"] != 0.01 {
				t.Errorf("data.updated: %v", d)
			}
		}
		// A plan that lost its watch (as fiplan migrate leaves it) gets one
		// from the job, with no event.
		if err := db.UpdatePlan("alice", same, func(old []byte) ([]byte, error) { return old, nil }); err != nil {
			t.Fatal(err)
		}
		if n, err := h.s.plans.Recheck(h.clock()); err != nil || n != 0 {
			t.Fatalf("the job for an unwatched plan: %d events, %v", n, err)
		}
		n := 0
		if err := db.EachWatch(func(user string, w store.PlanWatch) error {
			if user == "alice" && (w.Data == "data-old" || w.Answer.FINumber != 1e6) {
				t.Errorf("after the job: %+v", w)
			}
			n++
			return nil
		}); err != nil || n != 3 {
			t.Fatalf("watches after the job: %d, %v", n, err)
		}
	})
}

// onBothStores runs fn against a server on bbolt and one on PostgreSQL
// (skipped without FI_TEST_POSTGRES).
func onBothStores(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, newHarness(t)) })
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv("FI_TEST_POSTGRES") == "" {
			t.Skip("FI_TEST_POSTGRES is not set")
		}
		fn(t, newHarness(t, withDB(pgStore(t))))
	})
}
