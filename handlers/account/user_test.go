package account_test

import (
	"math"
	"strings"
	"testing"

	"fiplan/data/fx"
	"fiplan/handlers/account"
	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
)

func TestUserDocumentsDefaultsAndLifecycle(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := testserver.Bearer(h.Token("alice", "free", ""))

	// Never written: the schema's defaults, not a 404. A currency and a
	// locale the user never chose are null, not USD and en-US.
	r := cf.check(h.Do("GET", "/api/v1/user/settings", "", tok...), "GET", "/api/v1/user/settings")
	d := r.Data()
	if v, ok := d["locale"]; !ok || v != nil {
		t.Fatalf("an unchosen locale: %s", r.Raw)
	}
	if v, ok := d["baseCurrency"]; r.Status != 200 || !ok || v != nil || d["expectedReturn"] != 0.07 ||
		d["inflationRate"] != 0.03 || d["withdrawalRate"] != 0.04 || d["units"] != "metric" {
		t.Fatalf("settings defaults: %s", r.Raw)
	}
	r = cf.check(h.Do("GET", "/api/v1/user/notifications", "", tok...), "GET", "/api/v1/user/notifications")
	if m := r.Data()["milestones"].(map[string]any); m["email"] != true || m["push"] != true ||
		r.Data()["productNews"].(map[string]any)["email"] != false || r.Data()["weeklySummary"].(map[string]any)["push"] != false {
		t.Fatalf("notification defaults: %s", r.Raw)
	}
	r = cf.check(h.Do("GET", "/api/v1/user/profile", "", tok...), "GET", "/api/v1/user/profile")
	if v, ok := r.Data()["currency"]; !ok || v != nil || r.Data()["displayName"] != nil {
		t.Fatalf("profile defaults: %s", r.Raw)
	}

	// PATCH merges; null puts a field back to its default or clears it.
	r = cf.check(h.Do("PATCH", "/api/v1/user/settings", `{"baseCurrency":"EUR","withdrawalRate":0.035}`, tok...), "PATCH", "/api/v1/user/settings")
	if r.Data()["baseCurrency"] != "EUR" || r.Data()["withdrawalRate"] != 0.035 || r.Data()["locale"] != nil {
		t.Fatalf("settings patch: %s", r.Raw)
	}
	// A patch of another field stores no locale the user never chose.
	r = h.Do("PATCH", "/api/v1/user/settings", `{"units":"metric"}`, tok...)
	if v, ok := r.Data()["locale"]; !ok || v != nil {
		t.Fatalf("a locale stored unchosen: %s", r.Raw)
	}
	// Only a nullable field takes null; a field with a default is reset with PUT.
	expectField(t, h.Do("PATCH", "/api/v1/user/settings", `{"withdrawalRate":null}`, tok...), "VALIDATION_ERROR", "withdrawalRate")
	r = h.Do("PATCH", "/api/v1/user/notifications", `{"productNews":{"email":true}}`, tok...)
	if n := r.Data()["productNews"].(map[string]any); n["email"] != true || n["push"] != false || r.Data()["milestones"].(map[string]any)["push"] != true {
		t.Fatalf("nested patch: %s", r.Raw)
	}
	r = h.Do("PATCH", "/api/v1/user/profile", `{"displayName":"Alice","currentAge":35,"annualExpenses":40000,"country":"PT"}`, tok...)
	if r.Status != 200 || r.Data()["displayName"] != "Alice" {
		t.Fatalf("profile patch: %s", r.Raw)
	}
	r = h.Do("PATCH", "/api/v1/user/profile", `{"displayName":null}`, tok...)
	if v, ok := r.Data()["displayName"]; !ok || v != nil || r.Data()["currentAge"] != 35.0 {
		t.Fatalf("null clears: %s", r.Raw)
	}

	// PUT replaces: what is left out takes its default.
	r = cf.check(h.Do("PUT", "/api/v1/user/settings", `{"units":"imperial"}`, tok...), "PUT", "/api/v1/user/settings")
	if r.Data()["units"] != "imperial" || r.Data()["baseCurrency"] != nil {
		t.Fatalf("settings put: %s", r.Raw)
	}
	if r = h.Do("GET", "/api/v1/user/settings", "", tok...); r.Data()["units"] != "imperial" {
		t.Fatalf("settings after put: %s", r.Raw)
	}

	// Another user sees only their own defaults.
	if r = h.Do("GET", "/api/v1/user/profile", "", testserver.Bearer(h.Token("bob", "free", ""))...); r.Data()["displayName"] != nil || r.Data()["currentAge"] != nil {
		t.Fatalf("bob sees alice's profile: %s", r.Raw)
	}
}

func TestUserDocumentValidation(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	for _, c := range []struct{ method, path, body, field string }{
		{"PUT", "profile", `{"email":"not-an-email"}`, "email"},
		{"PUT", "profile", `{"email":"a@b"}`, "email"},
		{"PUT", "profile", `{"currentAge":12}`, "currentAge"},
		{"PUT", "profile", `{"currentAge":30.5}`, "currentAge"},
		{"PUT", "profile", `{"birthYear":2030}`, "birthYear"},                 // in the future (harness clock: 2026)
		{"PUT", "profile", `{"birthYear":1980,"currentAge":30}`, "birthYear"}, // inconsistent
		{"PUT", "profile", `{"currentAge":50,"targetRetirementAge":45}`, "targetRetirementAge"},
		{"PUT", "profile", `{"country":"pt"}`, "country"},
		{"PUT", "profile", `{"currency":"ABC"}`, "currency"},
		{"PUT", "profile", `{"riskTolerance":"yolo"}`, "riskTolerance"},
		{"PUT", "profile", `{"annualExpenses":-1}`, "annualExpenses"},
		{"PUT", "profile", `{"nickname":"x"}`, "nickname"},
		{"PATCH", "profile", `{"currency":""}`, "currency"},
		{"PUT", "settings", `{"locale":"english"}`, "locale"},
		{"PUT", "settings", `{"withdrawalRate":0}`, "withdrawalRate"},
		{"PUT", "settings", `{"expectedReturn":2}`, "expectedReturn"},
		{"PUT", "settings", `{"units":"furlongs"}`, "units"},
		{"PATCH", "settings", `{"baseCurrency":"usd"}`, "baseCurrency"},
		{"PUT", "notifications", `{"milestones":{"sms":true}}`, "milestones.sms"},
		{"PATCH", "notifications", `{"milestones":{"email":"yes"}}`, "milestones.email"},
		{"PATCH", "notifications", `{"milestones":{"email":null}}`, "milestones.email"},
	} {
		expectField(t, h.Do(c.method, "/api/v1/user/"+c.path, c.body, tok...), "VALIDATION_ERROR", c.field)
	}
	// A PATCH whose result fails a cross-field check is refused whole.
	h.Do("PUT", "/api/v1/user/profile", `{"currentAge":40}`, tok...)
	expectField(t, h.Do("PATCH", "/api/v1/user/profile", `{"targetRetirementAge":30}`, tok...), "VALIDATION_ERROR", "targetRetirementAge")
	if r := h.Do("GET", "/api/v1/user/profile", "", tok...); r.Data()["targetRetirementAge"] != nil {
		t.Fatalf("refused patch was written: %s", r.Raw)
	}
	testserver.ExpectError(t, h.Do("PATCH", "/api/v1/user/profile", `{"currentAge":`, tok...), 400, "INVALID_JSON")
	testserver.ExpectError(t, h.Do("PUT", "/api/v1/user/profile", ``, tok...), 400, "INVALID_JSON")
	for _, ok := range []string{"en", "pt-PT", "zh-Hant-TW", "es-419"} {
		if msg := account.CheckLocale(ok); msg != "" {
			t.Errorf("locale %q refused", ok)
		}
	}
}

func TestExportAndErase(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := h.Token("alice", "pro", "")
	h.Do("POST", "/api/v1/assets", vwce, testserver.Bearer(tok)...)
	h.Do("PATCH", "/api/v1/user/profile", `{"displayName":"Alice"}`, testserver.Bearer(tok)...)
	h.Do("PATCH", "/api/v1/user/notifications", `{"weeklySummary":{"email":true}}`, testserver.Bearer(tok)...)
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, testserver.Bearer(tok)...).Data()["key"].(string)
	h.Do("PUT", "/api/v1/features/beta", `{"enabled":true}`, testserver.Bearer(h.Token("root", "free", "admin"))...)
	h.Do("GET", "/api/v1/features/beta", "", testserver.Bearer(tok)...)

	r := cf.check(h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(key)...), "GET", "/api/v1/user/export")
	d := r.Data()
	if r.Status != 200 || d["user"] != "alice" || d["account"].(map[string]any)["tier"] != "pro" ||
		d["profile"].(map[string]any)["displayName"] != "Alice" || d["settings"] != nil ||
		d["notifications"].(map[string]any)["weeklySummary"].(map[string]any)["email"] != true ||
		len(d["assets"].([]any)) != 1 || len(d["apiKeys"].([]any)) != 1 || len(d["featureFlags"].([]any)) != 1 {
		t.Fatalf("export: %s", r.Raw)
	}
	if strings.Contains(string(r.Raw), key) || strings.Contains(string(r.Raw), `"hash"`) {
		t.Fatal("export leaks the key or its hash")
	}

	if r = h.Do("DELETE", "/api/v1/user", "", testserver.Bearer(tok)...); r.Status != 204 {
		t.Fatalf("erase: %s", r.Raw)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(key)...), 401, errcode.Unauthorized)
	h.S.Features().Flush() // nothing about alice may come back from memory
	r = cf.check(h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(tok)...), "GET", "/api/v1/user/export")
	d = r.Data()
	if d["profile"] != nil || d["notifications"] != nil || len(d["assets"].([]any)) != 0 || len(d["apiKeys"].([]any)) != 0 || len(d["featureFlags"].([]any)) != 0 {
		t.Fatalf("export after erase: %s", r.Raw)
	}
	if r = h.Do("GET", "/api/v1/user/profile", "", testserver.Bearer(tok)...); r.Data()["displayName"] != nil {
		t.Fatalf("profile after erase: %s", r.Raw)
	}
}

func TestAssetSummary(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	r := cf.check(h.Do("GET", "/api/v1/assets/summary", "", tok...), "GET", "/api/v1/assets/summary")
	if d := r.Data(); d["totalValue"] != 0.0 || d["assets"] != 0.0 || d["expenseRatio"] != nil || d["unrealisedGain"] != nil {
		t.Fatalf("empty summary: %s", r.Raw)
	}
	h.Do("PATCH", "/api/v1/user/settings", `{"baseCurrency":"EUR"}`, tok...)
	h.Do("POST", "/api/v1/assets", `{"name":"World ETF","category":"equity","value":10000,"currency":"EUR","costBasis":8000,"expenseRatio":0.002,"region":"global","accountType":"taxable"}`, tok...)
	h.Do("POST", "/api/v1/assets", `{"name":"US Treasury","category":"bond","value":5000,"currency":"USD","expenseRatio":0.0005}`, tok...)
	h.Do("POST", "/api/v1/assets", `{"name":"Cash","category":"cash","value":3000,"currency":"GBP","costBasis":3000,"accountType":"taxable"}`, tok...)

	t0, _ := fx.Embedded()
	usd, _ := t0.Convert(5000, "USD", "EUR")
	gbp, _ := t0.Convert(3000, "GBP", "EUR")
	total := 10000 + usd + gbp
	r = cf.check(h.Do("GET", "/api/v1/assets/summary", "", tok...), "GET", "/api/v1/assets/summary")
	d := r.Data()
	near := func(what string, got any, want float64) {
		t.Helper()
		if g, _ := got.(float64); math.Abs(g-want) > 0.011 {
			t.Errorf("%s = %v, want %.4f", what, got, want)
		}
	}
	if d["currency"] != "EUR" || d["assets"] != 3.0 {
		t.Fatalf("summary: %s", r.Raw)
	}
	near("totalValue", d["totalValue"], total)
	near("expenseRatio", d["expenseRatio"].(float64)*1e4, (10000*0.002+usd*0.0005)/(10000+usd)*1e4)
	near("expenseRatioCoverage", d["expenseRatioCoverage"].(float64)*100, (10000+usd)/total*100)
	near("costBasis", d["costBasis"], 8000+gbp)
	near("unrealisedGain", d["unrealisedGain"], 2000)
	byCat := d["byCategory"].([]any)
	if byCat[0].(map[string]any)["key"] != "equity" || len(byCat) != 3 {
		t.Fatalf("byCategory (largest first): %v", byCat)
	}
	sum := 0.0
	for _, x := range byCat {
		sum += x.(map[string]any)["share"].(float64)
	}
	near("sum of shares", sum, 1)
	if rg := d["byRegion"].([]any); len(rg) != 2 || rg[1].(map[string]any)["key"] != "unspecified" && rg[0].(map[string]any)["key"] != "unspecified" {
		t.Fatalf("byRegion: %v", rg)
	}
	fxInfo := d["exchangeRates"].(map[string]any)
	if fxInfo["asOf"] != t0.AsOf() || len(fxInfo["rates"].([]any)) != 3 {
		t.Fatalf("exchangeRates: %v", fxInfo)
	}
}

func TestCategorize(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	r := cf.check(h.Do("POST", "/api/v1/assets/categorize", `{"items":[{"name":"iShares Core Global Aggregate Bond"},{"name":"x","ticker":"VWCE.DE"},{"name":"Physical Gold"},{"name":"BTC"},{"name":"Acme","isin":"XS0000000009"},{"name":"Stamps"}]}`, tok...),
		"POST", "/api/v1/assets/categorize")
	items := r.Data()["items"].([]any)
	want := []struct{ cat, basis string }{{"bond", "keyword"}, {"equity", "ticker"}, {"commodity", "keyword"}, {"crypto", "keyword"}, {"bond", "isin"}, {"other", "none"}}
	if len(items) != len(want) {
		t.Fatalf("items: %s", r.Raw)
	}
	for i, w := range want {
		it := items[i].(map[string]any)
		if it["category"] != w.cat || it["basis"] != w.basis || it["reason"] == "" {
			t.Errorf("item %d: %v, want %s by %s", i, it, w.cat, w.basis)
		}
	}
	expectField(t, h.Do("POST", "/api/v1/assets/categorize", `{"items":[{"name":"x","isin":"us0378331005"}]}`, tok...), "VALIDATION_ERROR", "items[0].isin")
	expectField(t, h.Do("POST", "/api/v1/assets/categorize", `{"items":[]}`, tok...), "VALIDATION_ERROR", "items")
	expectField(t, h.Do("POST", "/api/v1/assets/categorize", `{"items":[{"isin":"US0378331005"}]}`, tok...), "MISSING_FIELD", "items[0].name")
	expectField(t, h.Do("POST", "/api/v1/assets/categorize", `{}`, tok...), "MISSING_FIELD", "items")
	many := `{"items":[` + strings.TrimSuffix(strings.Repeat(`{"name":"x"},`, 101), ",") + `]}`
	expectField(t, h.Do("POST", "/api/v1/assets/categorize", many, tok...), "VALIDATION_ERROR", "items")
}

func TestFIScore(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := h.Token("alice", "free", "")

	// Nothing stored: every part is missing and scores 0.
	r := cf.check(h.Do("GET", "/api/v1/fi-score", "", testserver.Bearer(tok)...), "GET", "/api/v1/fi-score")
	if d := r.Data(); d["score"] != 0.0 || d["fiNumber"] != nil || d["portfolioHealth"] != nil || len(d["missing"].([]any)) < 3 {
		t.Fatalf("empty: %s", r.Raw)
	}

	h.Do("PUT", "/api/v1/user/profile", `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"riskTolerance":"medium"}`, testserver.Bearer(tok)...)
	h.Do("POST", "/api/v1/assets", `{"name":"World","category":"equity","value":300000,"expenseRatio":0.002,"region":"global"}`, testserver.Bearer(tok)...)
	h.Do("POST", "/api/v1/assets", `{"name":"Bonds","category":"bond","value":150000,"expenseRatio":0.001,"region":"global"}`, testserver.Bearer(tok)...)
	h.Do("POST", "/api/v1/assets", `{"name":"Cash","category":"cash","value":50000}`, testserver.Bearer(tok)...)
	// Works with an API key.
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, testserver.Bearer(tok)...).Data()["key"].(string)
	r = cf.check(h.Do("GET", "/api/v1/fi-score", "", testserver.Bearer(key)...), "GET", "/api/v1/fi-score")
	d := r.Data()
	// FI number 40,000 / 4% = 1,000,000; net worth 500,000: progress 0.5 -> 200 points.
	if d["fiNumber"] != 1e6 || d["netWorth"] != 5e5 || d["progress"] != 0.5 || d["currency"] != "USD" {
		t.Fatalf("progress: %s", r.Raw)
	}
	comps := d["components"].([]any)
	total := 0.0
	for _, c := range comps {
		total += c.(map[string]any)["score"].(float64)
	}
	if comps[0].(map[string]any)["score"] != 200.0 || total != d["score"] || d["score"].(float64) > 1000 {
		t.Fatalf("components: %s", r.Raw)
	}
	ph := d["portfolioHealth"].(map[string]any)
	if comps[1].(map[string]any)["score"] != math.Round(ph["score"].(float64)*0.4) {
		t.Fatalf("portfolioHealth points: %s", r.Raw)
	}
	years := d["yearsToFI"].(float64)
	if years <= 0 || years > 20 || comps[2].(map[string]any)["score"] != math.Round(200*(1-years/40)) || d["fiAge"] != 40+years {
		t.Fatalf("timeToFI: %s", r.Raw)
	}
	if len(d["missing"].([]any)) != 0 {
		t.Fatalf("nothing should be missing: %s", r.Raw)
	}

	// More assets never lower the progress part; reaching FI gives 400 + 200.
	h.Do("POST", "/api/v1/assets", `{"name":"World 2","category":"equity","value":600000,"expenseRatio":0.002,"region":"global"}`, testserver.Bearer(tok)...)
	d = h.Do("GET", "/api/v1/fi-score", "", testserver.Bearer(tok)...).Data()
	comps = d["components"].([]any)
	if comps[0].(map[string]any)["score"] != 400.0 || comps[2].(map[string]any)["score"] != 200.0 || d["yearsToFI"] != 0.0 {
		t.Fatalf("at FI: %v", d)
	}
}

// A stored number is bounded like the calculator's: a withdrawal rate the
// calculator would refuse cannot be saved, so no score divides by it.
func TestSettingsRefuseATinyWithdrawalRate(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	for _, body := range []string{`{"withdrawalRate":1e-320}`, `{"withdrawalRate":0.00009}`, `{"withdrawalRate":0}`} {
		r := h.Do("PATCH", "/api/v1/user/settings", body, tok...)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if d := r.Body["details"].([]any)[0].(map[string]any); d["path"] != "withdrawalRate" {
			t.Errorf("%s: details %v", body, d)
		}
	}
	if r := h.Do("PATCH", "/api/v1/user/settings", `{"withdrawalRate":0.0001}`, tok...); r.Status != 200 {
		t.Fatalf("the calculator's lower bound: %d %s", r.Status, r.Raw)
	}
	h.Do("PATCH", "/api/v1/user/profile", `{"currentAge":40,"annualExpenses":40000}`, tok...)
	if r := h.Do("GET", "/api/v1/fi-score", "", tok...); r.Status != 200 {
		t.Fatalf("fi-score: %d %s", r.Status, r.Raw)
	}
}

// A user who chose a currency only in the profile sees the asset summary
// and new assets in it; no setting stores USD unchosen.
func TestBaseCurrencyFollowsTheProfile(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("carol", "free", ""))
	if r := h.Do("GET", "/api/v1/assets/summary", "", tok...); r.Data()["currency"] != "USD" {
		t.Fatalf("nothing chosen: %s", r.Raw)
	}
	if r := h.Do("PATCH", "/api/v1/user/profile", `{"currency":"GBP"}`, tok...); r.Status != 200 || r.Data()["currency"] != "GBP" {
		t.Fatalf("profile: %s", r.Raw)
	}
	if r := h.Do("GET", "/api/v1/assets/summary", "", tok...); r.Data()["currency"] != "GBP" {
		t.Fatalf("summary after the profile's currency: %s", r.Raw)
	}
	if r := h.Do("POST", "/api/v1/assets", `{"name":"Premium Bonds","value":5000}`, tok...); r.Status != 201 || r.Data()["currency"] != "GBP" {
		t.Fatalf("a new asset: %s", r.Raw)
	}
	if r := h.Do("GET", "/api/v1/user/settings", "", tok...); r.Data()["baseCurrency"] != nil {
		t.Fatalf("settings: %s", r.Raw)
	}
}
