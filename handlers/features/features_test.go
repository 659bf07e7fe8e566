package features_test

import (
	"fmt"
	"strings"
	"testing"

	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
)

func TestFeatureFlagWritesNeedAdmin(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	admin := testserver.Bearer(h.Token("root", "pro", "admin"))
	user := testserver.Bearer(h.Token("alice", "pro", ""))
	def := `{"enabled":true}`
	testserver.ExpectError(t, h.Do("PUT", "/api/v1/features/new-ui", def, user...), 403, errcode.Forbidden)
	testserver.ExpectError(t, h.Do("PUT", "/api/v1/features/new-ui", def), 401, errcode.Unauthorized)
	if r := h.Do("PUT", "/api/v1/features/new-ui", def, admin...); r.Status != 201 || r.Data()["rolloutPercent"] != 100.0 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	r := h.Do("PUT", "/api/v1/features/new-ui", `{"enabled":false,"description":"off"}`, admin...)
	if r.Status != 200 || r.Data()["enabled"] != false || r.Data()["createdAt"] == nil {
		t.Fatalf("replace: %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/features/new-ui/stats", "", user...), 403, errcode.Forbidden)
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/features/new-ui", "", user...), 403, errcode.Forbidden)
	// An API key acts without the admin role.
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, admin...).Data()["key"].(string)
	testserver.ExpectError(t, h.Do("PUT", "/api/v1/features/new-ui", def, testserver.Bearer(key)...), 403, errcode.Forbidden)
	if r := h.Do("DELETE", "/api/v1/features/new-ui", "", admin...); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/features/new-ui", "", admin...), 404, errcode.NotFound)
	// Evaluation needs authentication.
	testserver.ExpectError(t, h.Do("GET", "/api/v1/features", ""), 401, errcode.Unauthorized)
}

func TestFeatureFlagValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	admin := testserver.Bearer(h.Token("root", "pro", "admin"))
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
		r := h.Do("PUT", "/api/v1/features/"+c.key, c.body, admin...)
		testserver.ExpectError(t, r, 400, c.code)
		if d := fmt.Sprint(r.Body["details"]); !strings.Contains(d, "path:"+c.path+"]") {
			t.Errorf("%s %s: no detail at %s: %s", c.key, c.body, c.path, r.Raw)
		}
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/features/NOPE", "", admin...), 400, "VALIDATION_ERROR")
}

func TestUnknownFlagEvaluatesOff(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := h.Do("GET", "/api/v1/features/never-defined", "", testserver.Bearer(h.Token("alice", "free", ""))...)
	d := r.Data()
	if r.Status != 200 || d["enabled"] != false || d["variant"] != nil || d["exists"] != false || d["key"] != "never-defined" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
}

func TestFlagsAreStickyMonotoneAndSurviveRestart(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	admin := testserver.Bearer(h.Token("root", "pro", "admin"))
	put := func(pct int) {
		t.Helper()
		body := fmt.Sprintf(`{"enabled":true,"rolloutPercent":%d,"variants":[{"name":"control","weight":1},{"name":"treatment","weight":1}]}`, pct)
		if r := h.Do("PUT", "/api/v1/features/new-ui", body, admin...); r.Status >= 300 {
			t.Fatalf("put: %s", r.Raw)
		}
	}
	eval := func(hh *testserver.Harness, user string) (bool, any) {
		r := hh.Do("GET", "/api/v1/features/new-ui", "", testserver.Bearer(hh.Token(user, "free", ""))...)
		return r.Data()["enabled"].(bool), r.Data()["variant"]
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
	r := h.Do("GET", "/api/v1/features/new-ui/stats", "", admin...)
	st := r.Data()
	total := st["enabledUsers"].(float64) + st["disabledUsers"].(float64)
	if r.Status != 200 || total != n || st["enabledUsers"] != float64(in50) {
		t.Fatalf("stats: %s (want %d users, %d enabled)", r.Raw, n, in50)
	}

	// After a restart the flag and every answer are the same.
	path := h.DBPath
	h.LN.Close()
	h.S.Close()
	h.DB.Close()
	h2 := testserver.Start(t, path, testserver.WithRates("off", "off", "off"))
	for u, a := range first {
		if on, v := eval(h2, u); a.on && (!on || v != a.variant) {
			t.Fatalf("%s changed across a restart", u)
		}
	}
	r = h2.Do("GET", "/api/v1/features", "", testserver.Bearer(h2.Token("user-1", "free", ""))...)
	if r.Status != 200 || r.Body["meta"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("list after restart: %s", r.Raw)
	}
}

func TestTiersAndUserLists(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	admin := testserver.Bearer(h.Token("root", "pro", "admin"))
	h.Do("PUT", "/api/v1/features/pro-only", `{"enabled":true,"tiers":["pro"],"includeUsers":["friend"],"excludeUsers":["foe"]}`, admin...)
	on := func(user, tier string) bool {
		return h.Do("GET", "/api/v1/features/pro-only", "", testserver.Bearer(h.Token(user, tier, ""))...).Data()["enabled"].(bool)
	}
	if !on("p1", "pro") || on("f1", "free") || !on("friend", "free") || on("foe", "pro") {
		t.Fatal("tiers or user lists not honoured")
	}
}

func TestMonteCarloKillSwitch(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"monteCarlo":{"simulations":100}}`
	if r := h.Do("POST", "/api/v1/calculator", body); r.Status != 200 {
		t.Fatalf("undefined flag must leave it on: %s", r.Raw)
	}
	admin := testserver.Bearer(h.Token("root", "pro", "admin"))
	h.Do("PUT", "/api/v1/features/calculator-monte-carlo", `{"enabled":false}`, admin...)
	testserver.ExpectError(t, h.Do("POST", "/api/v1/calculator", body), 503, errcode.Unavailable)
	if r := h.Do("POST", "/api/v1/calculator", `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000}`); r.Status != 200 {
		t.Fatal("the switch must only affect Monte Carlo")
	}
	// Let pro users keep it.
	h.Do("PUT", "/api/v1/features/calculator-monte-carlo", `{"enabled":true,"tiers":["pro"]}`, admin...)
	testserver.ExpectError(t, h.Do("POST", "/api/v1/calculator", body), 503, errcode.Unavailable)
	if r := h.Do("POST", "/api/v1/calculator", body, testserver.Bearer(h.Token("p", "pro", ""))...); r.Status != 200 {
		t.Fatalf("pro caller: %s", r.Raw)
	}
}
