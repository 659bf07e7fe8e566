package handlers

import (
	"fmt"
	"strings"
	"testing"

	"fiplan/handlers/errcode"
)

func TestFeatureFlagWritesNeedAdmin(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	admin := bearer(h.token("root", "pro", "admin"))
	user := bearer(h.token("alice", "pro", ""))
	def := `{"enabled":true}`
	expectError(t, h.do("PUT", "/api/v1/features/new-ui", def, user...), 403, errcode.Forbidden)
	expectError(t, h.do("PUT", "/api/v1/features/new-ui", def), 401, errcode.Unauthorized)
	if r := h.do("PUT", "/api/v1/features/new-ui", def, admin...); r.status != 201 || r.data()["rolloutPercent"] != 100.0 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	r := h.do("PUT", "/api/v1/features/new-ui", `{"enabled":false,"description":"off"}`, admin...)
	if r.status != 200 || r.data()["enabled"] != false || r.data()["createdAt"] == nil {
		t.Fatalf("replace: %d %s", r.status, r.raw)
	}
	expectError(t, h.do("GET", "/api/v1/features/new-ui/stats", "", user...), 403, errcode.Forbidden)
	expectError(t, h.do("DELETE", "/api/v1/features/new-ui", "", user...), 403, errcode.Forbidden)
	// An API key acts without the admin role.
	key := h.do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, admin...).data()["key"].(string)
	expectError(t, h.do("PUT", "/api/v1/features/new-ui", def, bearer(key)...), 403, errcode.Forbidden)
	if r := h.do("DELETE", "/api/v1/features/new-ui", "", admin...); r.status != 204 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	expectError(t, h.do("DELETE", "/api/v1/features/new-ui", "", admin...), 404, errcode.NotFound)
	// Evaluation needs authentication.
	expectError(t, h.do("GET", "/api/v1/features", ""), 401, errcode.Unauthorized)
}

func TestFeatureFlagValidation(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	admin := bearer(h.token("root", "pro", "admin"))
	cases := []struct{ key, body, code, path string }{
		{"Bad-Key", `{"enabled":true}`, "VALIDATION_ERROR", "key"},
		{"1abc", `{"enabled":true}`, "VALIDATION_ERROR", "key"},
		{"trailing-", `{"enabled":true}`, "VALIDATION_ERROR", "key"},
		{strings.Repeat("a", 65), `{"enabled":true}`, "VALIDATION_ERROR", "key"},
		{"ok", `{}`, "MISSING_FIELD", "enabled"},
		{"ok", `{"enabled":true,"rolloutPercent":101}`, "VALIDATION_ERROR", "rolloutPercent"},
		{"ok", `{"enabled":true,"tiers":["gold"]}`, "VALIDATION_ERROR", "tiers[0]"},
		{"ok", `{"enabled":true,"variants":[{"name":"a","weight":0}]}`, "VALIDATION_ERROR", "variants[0].weight"},
		{"ok", `{"enabled":true,"variants":[{"name":"a","weight":1},{"name":"a","weight":1}]}`, "VALIDATION_ERROR", "variants[1].name"},
		{"ok", `{"enabled":true,"includeUsers":[""]}`, "VALIDATION_ERROR", "includeUsers[0]"},
		{"ok", `{"enabled":"yes"}`, "VALIDATION_ERROR", "enabled"},
	}
	for _, c := range cases {
		r := h.do("PUT", "/api/v1/features/"+c.key, c.body, admin...)
		expectError(t, r, 400, c.code)
		if d := fmt.Sprint(r.body["details"]); !strings.Contains(d, "path:"+c.path+"]") {
			t.Errorf("%s %s: no detail at %s: %s", c.key, c.body, c.path, r.raw)
		}
	}
	expectError(t, h.do("GET", "/api/v1/features/NOPE", "", admin...), 400, "VALIDATION_ERROR")
}

func TestUnknownFlagEvaluatesOff(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := h.do("GET", "/api/v1/features/never-defined", "", bearer(h.token("alice", "free", ""))...)
	d := r.data()
	if r.status != 200 || d["enabled"] != false || d["variant"] != nil || d["exists"] != false || d["key"] != "never-defined" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
}

func TestFlagsAreStickyMonotoneAndSurviveRestart(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	admin := bearer(h.token("root", "pro", "admin"))
	put := func(pct int) {
		t.Helper()
		body := fmt.Sprintf(`{"enabled":true,"rolloutPercent":%d,"variants":[{"name":"control","weight":1},{"name":"treatment","weight":1}]}`, pct)
		if r := h.do("PUT", "/api/v1/features/new-ui", body, admin...); r.status >= 300 {
			t.Fatalf("put: %s", r.raw)
		}
	}
	eval := func(hh *harness, user string) (bool, any) {
		r := hh.do("GET", "/api/v1/features/new-ui", "", bearer(hh.token(user, "free", ""))...)
		return r.data()["enabled"].(bool), r.data()["variant"]
	}
	put(20)
	const n = 300
	type answer struct {
		on      bool
		variant any
	}
	first := map[string]answer{}
	in20 := 0
	for i := range n {
		u := fmt.Sprint("user-", i)
		on, v := eval(h, u)
		first[u] = answer{on, v}
		if on {
			in20++
			if v != "control" && v != "treatment" {
				t.Fatalf("enrolled %s has variant %v", u, v)
			}
		} else if v != nil {
			t.Fatalf("%s is out but has variant %v", u, v)
		}
		if on2, v2 := eval(h, u); on2 != on || v2 != v {
			t.Fatalf("%s: answer changed between requests", u)
		}
	}
	if in20 < n*10/100 || in20 > n*30/100 {
		t.Fatalf("20%% rollout enrolled %d of %d", in20, n)
	}
	put(50)
	in50 := 0
	for u, a := range first {
		on, v := eval(h, u)
		if a.on && (!on || v != a.variant) {
			t.Fatalf("raising the rollout changed %s", u)
		}
		if on {
			in50++
		}
	}
	if in50 <= in20 {
		t.Fatalf("50%% enrolled %d, 20%% enrolled %d", in50, in20)
	}
	// Stats count distinct users by variant.
	r := h.do("GET", "/api/v1/features/new-ui/stats", "", admin...)
	st := r.data()
	total := st["enabledUsers"].(float64) + st["disabledUsers"].(float64)
	if r.status != 200 || total != n || st["enabledUsers"] != float64(in50) {
		t.Fatalf("stats: %s (want %d users, %d enabled)", r.raw, n, in50)
	}

	// After a restart the flag and every answer are the same.
	path := h.dbPath
	h.ln.Close()
	h.s.Close()
	h.db.Close()
	h2 := startHarness(t, path, withRates("off", "off", "off"))
	for u, a := range first {
		if on, v := eval(h2, u); a.on && (!on || v != a.variant) {
			t.Fatalf("%s changed across a restart", u)
		}
	}
	r = h2.do("GET", "/api/v1/features", "", bearer(h2.token("user-1", "free", ""))...)
	if r.status != 200 || r.body["meta"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("list after restart: %s", r.raw)
	}
}

func TestTiersAndUserLists(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	admin := bearer(h.token("root", "pro", "admin"))
	h.do("PUT", "/api/v1/features/pro-only", `{"enabled":true,"tiers":["pro"],"includeUsers":["friend"],"excludeUsers":["foe"]}`, admin...)
	on := func(user, tier string) bool {
		return h.do("GET", "/api/v1/features/pro-only", "", bearer(h.token(user, tier, ""))...).data()["enabled"].(bool)
	}
	if !on("p1", "pro") || on("f1", "free") || !on("friend", "free") || on("foe", "pro") {
		t.Fatal("tiers or user lists not honoured")
	}
}

func TestMonteCarloKillSwitch(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	body := `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":100}}`
	if r := h.do("POST", "/api/v1/calculator", body); r.status != 200 {
		t.Fatalf("undefined flag must leave it on: %s", r.raw)
	}
	admin := bearer(h.token("root", "pro", "admin"))
	h.do("PUT", "/api/v1/features/calculator-monte-carlo", `{"enabled":false}`, admin...)
	expectError(t, h.do("POST", "/api/v1/calculator", body), 503, errcode.Unavailable)
	if r := h.do("POST", "/api/v1/calculator", `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000}`); r.status != 200 {
		t.Fatal("the switch must only affect Monte Carlo")
	}
	// Let pro users keep it.
	h.do("PUT", "/api/v1/features/calculator-monte-carlo", `{"enabled":true,"tiers":["pro"]}`, admin...)
	expectError(t, h.do("POST", "/api/v1/calculator", body), 503, errcode.Unavailable)
	if r := h.do("POST", "/api/v1/calculator", body, bearer(h.token("p", "pro", ""))...); r.status != 200 {
		t.Fatalf("pro caller: %s", r.raw)
	}
}
