package account_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
)

// conformer checks responses against the schema the OpenAPI document
// gives for their route and status.
type conformer struct {
	t   *testing.T
	doc *testserver.Doc
}

func newConformer(t *testing.T, h *testserver.Harness) *conformer {
	return &conformer{t, testserver.LoadOpenAPI(t, h)}
}

func (c *conformer) check(r *testserver.Resp, method, path string) *testserver.Resp {
	c.t.Helper()
	s := c.doc.Schema(c.t, "paths", path, strings.ToLower(method), "responses", strconv.Itoa(r.Status), "content", "application/json", "schema")
	var v any
	if err := json.Unmarshal(r.Raw, &v); err != nil {
		c.t.Fatal(err)
	}
	if err := s.Validate(v); err != nil {
		c.t.Errorf("%s %s %d does not match its schema: %v\n%s", method, path, r.Status, err, r.Raw)
	}
	return r
}

// expectField checks a 400 whose details name path.
func expectField(t *testing.T, r *testserver.Resp, code, path string) {
	t.Helper()
	testserver.ExpectError(t, r, 400, code)
	if code == "MISSING_FIELD" {
		if !strings.Contains(r.Body["error"].(string), path) {
			t.Fatalf("error does not name %q: %s", path, r.Raw)
		}
		return
	}
	ds, _ := r.Body["details"].([]any)
	for _, d := range ds {
		if d.(map[string]any)["path"] == path {
			return
		}
	}
	t.Fatalf("no detail for %q: %s", path, r.Raw)
}

const vwce = `{"name":"Vanguard FTSE All-World UCITS ETF","isin":"IE00BK5BQT80","ticker":"VWCE","quantity":100,"value":12000,"currency":"EUR","costBasis":10000,"expenseRatio":0.0022,"region":"global","accountType":"taxable","notes":"core"}`

func TestAssetLifecycle(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := testserver.Bearer(h.Token("alice", "free", ""))

	r := cf.check(h.Do("POST", "/api/v1/assets", vwce, tok...), "POST", "/api/v1/assets")
	if r.Status != 201 {
		t.Fatalf("create: %s", r.Raw)
	}
	a := r.Data()
	id := a["id"].(string)
	if !strings.HasPrefix(id, "ast_") || len(id) < 20 || a["category"] != "equity" || a["createdAt"] != a["updatedAt"] || a["isin"] != "IE00BK5BQT80" {
		t.Fatalf("created: %s", r.Raw)
	}
	path := "/api/v1/assets/" + id
	if r = cf.check(h.Do("GET", path, "", tok...), "GET", "/api/v1/assets/{id}"); r.Status != 200 || r.Data()["name"] != a["name"] {
		t.Fatalf("get: %s", r.Raw)
	}

	// A category and a currency left out are filled in: the categoriser
	// and the settings' base currency.
	if r = h.Do("PATCH", "/api/v1/user/settings", `{"baseCurrency":"GBP"}`, tok...); r.Status != 200 {
		t.Fatalf("settings: %s", r.Raw)
	}
	r = h.Do("POST", "/api/v1/assets", `{"name":"UK Gilt 2030","value":5000}`, tok...)
	if r.Status != 201 || r.Data()["category"] != "bond" || r.Data()["currency"] != "GBP" || r.Data()["isin"] != nil {
		t.Fatalf("defaults: %s", r.Raw)
	}
	gilt := r.Data()["id"].(string)

	// PATCH: set a field, clear an optional one with null, leave the rest.
	h.Advance(5e9)
	r = cf.check(h.Do("PATCH", path, `{"value":13000,"notes":null,"isin":null}`, tok...), "PATCH", "/api/v1/assets/{id}")
	p := r.Data()
	if r.Status != 200 || p["value"] != 13000.0 || p["notes"] != nil || p["isin"] != nil || p["ticker"] != "VWCE" ||
		p["costBasis"] != 10000.0 || p["createdAt"] != a["createdAt"] || p["updatedAt"] == a["updatedAt"] {
		t.Fatalf("patch: %s", r.Raw)
	}
	// The cleared ISIN is free for another asset.
	if r = h.Do("POST", "/api/v1/assets", `{"name":"other","value":1,"isin":"IE00BK5BQT80"}`, tok...); r.Status != 201 {
		t.Fatalf("ISIN freed by PATCH null: %s", r.Raw)
	}

	// PUT replaces: fields left out are cleared.
	r = cf.check(h.Do("PUT", path, `{"name":"World","value":1,"category":"equity"}`, tok...), "PUT", "/api/v1/assets/{id}")
	if r.Status != 200 || r.Data()["ticker"] != nil || r.Data()["quantity"] != nil || r.Data()["id"] != id || r.Data()["createdAt"] != a["createdAt"] {
		t.Fatalf("put: %s", r.Raw)
	}

	r = cf.check(h.Do("GET", "/api/v1/assets", "", tok...), "GET", "/api/v1/assets")
	if items := r.Body["data"].([]any); len(items) != 3 || items[0].(map[string]any)["id"] != id || items[1].(map[string]any)["id"] != gilt {
		t.Fatalf("list (creation order): %s", r.Raw)
	}

	if r = h.Do("DELETE", path, "", tok...); r.Status != 204 || len(r.Raw) != 0 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, cf.check(h.Do("GET", path, "", tok...), "GET", "/api/v1/assets/{id}"), 404, errcode.NotFound)
	testserver.ExpectError(t, h.Do("DELETE", path, "", tok...), 404, errcode.NotFound)
}

// Another user's asset id is 404 on every method, and lists never mix.
func TestAssetOwnership(t *testing.T) {
	h := testserver.New(t)
	alice := testserver.Bearer(h.Token("alice", "free", ""))
	bob := testserver.Bearer(h.Token("bob", "pro", ""))
	r := h.Do("POST", "/api/v1/assets", vwce, alice...)
	path := "/api/v1/assets/" + r.Data()["id"].(string)
	for _, m := range []struct{ method, body string }{{"GET", ""}, {"PUT", `{"name":"x","value":1}`}, {"PATCH", `{"value":2}`}, {"DELETE", ""}} {
		testserver.ExpectError(t, h.Do(m.method, path, m.body, bob...), 404, errcode.NotFound)
	}
	if r = h.Do("GET", "/api/v1/assets", "", bob...); len(r.Body["data"].([]any)) != 0 || r.Body["meta"].(map[string]any)["total"] != 0.0 {
		t.Fatalf("bob's list: %s", r.Raw)
	}
	if r = h.Do("GET", path, "", alice...); r.Status != 200 || r.Data()["value"] != 12000.0 {
		t.Fatalf("alice's asset after bob's attempts: %s", r.Raw)
	}
	// Bob may hold the same ISIN.
	if r = h.Do("POST", "/api/v1/assets", vwce, bob...); r.Status != 201 {
		t.Fatalf("bob, same ISIN: %s", r.Raw)
	}
	// Without credentials every account route is 401.
	for _, rt := range []struct{ method, path string }{
		{"GET", "/api/v1/assets"}, {"POST", "/api/v1/assets"}, {"GET", path}, {"PUT", path}, {"PATCH", path}, {"DELETE", path},
		{"GET", "/api/v1/assets/summary"}, {"POST", "/api/v1/assets/categorize"}, {"GET", "/api/v1/fi-score"},
		{"GET", "/api/v1/user/profile"}, {"PUT", "/api/v1/user/profile"}, {"PATCH", "/api/v1/user/profile"},
		{"GET", "/api/v1/user/settings"}, {"PUT", "/api/v1/user/settings"}, {"PATCH", "/api/v1/user/settings"},
		{"GET", "/api/v1/user/notifications"}, {"PUT", "/api/v1/user/notifications"}, {"PATCH", "/api/v1/user/notifications"},
		{"GET", "/api/v1/user/export"}, {"DELETE", "/api/v1/user"},
	} {
		testserver.ExpectError(t, h.Do(rt.method, rt.path, "{}"), 401, errcode.Unauthorized)
	}
}

func TestAssetDuplicateISIN(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	if r := h.Do("POST", "/api/v1/assets", vwce, tok...); r.Status != 201 {
		t.Fatal(string(r.Raw))
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/assets", vwce, tok...), 409, errcode.Conflict)
	r := h.Do("POST", "/api/v1/assets", `{"name":"Apple","value":1,"isin":"US0378331005"}`, tok...)
	apple := "/api/v1/assets/" + r.Data()["id"].(string)
	// Moving an asset onto a held ISIN conflicts too, with PATCH or PUT.
	testserver.ExpectError(t, h.Do("PATCH", apple, `{"isin":"IE00BK5BQT80"}`, tok...), 409, errcode.Conflict)
	testserver.ExpectError(t, h.Do("PUT", apple, `{"name":"x","value":1,"isin":"IE00BK5BQT80"}`, tok...), 409, errcode.Conflict)
	if r = h.Do("GET", apple, "", tok...); r.Data()["isin"] != "US0378331005" {
		t.Fatalf("a refused PATCH changed the asset: %s", r.Raw)
	}

	// Concurrent creates of one ISIN: exactly one wins.
	for round := range 3 {
		isin := []string{"DE0005140008", "NL0000009165", "FR0000120271"}[round]
		const n = 12
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = h.Do("POST", "/api/v1/assets", fmt.Sprintf(`{"name":"race %d","value":1,"isin":%q}`, i, isin), tok...).Status
			}()
		}
		wg.Wait()
		won := 0
		for _, c := range codes {
			switch c {
			case 201:
				won++
			case 409:
			default:
				t.Fatalf("status %d in a race", c)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d creates won: %v", round, won, codes)
		}
	}
}

func TestAssetValidation(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	post := func(body string) *testserver.Resp { return h.Do("POST", "/api/v1/assets", body, tok...) }
	for _, c := range []struct{ body, code, path string }{
		{`{"name":"x","value":1,"isin":"US0378331006"}`, "VALIDATION_ERROR", "isin"}, // wrong check digit
		{`{"name":"x","value":1,"isin":"US037833100"}`, "VALIDATION_ERROR", "isin"},  // 11 characters
		{`{"name":"x","value":1,"isin":"us0378331005"}`, "VALIDATION_ERROR", "isin"}, // lower case
		{`{"name":"x","value":1,"isin":"US03783310055"}`, "VALIDATION_ERROR", "isin"},
		{`{"value":1}`, "MISSING_FIELD", "name"},
		{`{"name":"x"}`, "MISSING_FIELD", "value"},
		{`{"name":"x","value":-1}`, "VALIDATION_ERROR", "value"},
		{`{"name":"x","value":"1"}`, "VALIDATION_ERROR", "value"},
		{`{"name":"x","value":1,"currency":"XXX"}`, "VALIDATION_ERROR", "currency"},
		{`{"name":"x","value":1,"currency":"eur"}`, "VALIDATION_ERROR", "currency"},
		{`{"name":"x","value":1,"category":"stocks"}`, "VALIDATION_ERROR", "category"},
		{`{"name":"x","value":1,"accountType":"isa"}`, "VALIDATION_ERROR", "accountType"},
		{`{"name":"x","value":1,"expenseRatio":0.5}`, "VALIDATION_ERROR", "expenseRatio"},
		{`{"name":"x","value":1,"region":"mars"}`, "VALIDATION_ERROR", "region"},
		{`{"name":"x","value":1,"id":"ast_mine"}`, "VALIDATION_ERROR", "id"},
		{`{"name":"","value":1}`, "VALIDATION_ERROR", "name"},
	} {
		expectField(t, post(c.body), c.code, c.path)
	}
	testserver.ExpectError(t, post(`{"name":"x","value":1`), 400, "INVALID_JSON")
	testserver.ExpectError(t, post(``), 400, "INVALID_JSON")
	for _, q := range []struct{ query, path string }{{"category=stocks", "category"}, {"limit=0", "limit"}, {"limit=201", "limit"}, {"offset=-1", "offset"}, {"limit=x", "limit"}} {
		expectField(t, h.Do("GET", "/api/v1/assets?"+q.query, "", tok...), "VALIDATION_ERROR", q.path)
	}
}

func TestAssetPatchSemantics(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	path := "/api/v1/assets/" + h.Do("POST", "/api/v1/assets", vwce, tok...).Data()["id"].(string)
	for _, c := range []struct{ body, code, path string }{
		{`{"name":null}`, "VALIDATION_ERROR", "name"},   // required: cannot be cleared
		{`{"value":null}`, "VALIDATION_ERROR", "value"}, // required
		{`{"currency":null}`, "VALIDATION_ERROR", "currency"},
		{`{"isin":"US0378331006"}`, "VALIDATION_ERROR", "isin"},
		{`{"colour":"red"}`, "VALIDATION_ERROR", "colour"},
		{`{"value":-5}`, "VALIDATION_ERROR", "value"},
		{`{"id":"ast_other"}`, "VALIDATION_ERROR", "id"},
		{`{"createdAt":"2020-01-01T00:00:00Z"}`, "VALIDATION_ERROR", "createdAt"},
	} {
		expectField(t, h.Do("PATCH", path, c.body, tok...), c.code, c.path)
	}
	testserver.ExpectError(t, h.Do("PATCH", path, `[1]`, tok...), 400, "VALIDATION_ERROR")
	testserver.ExpectError(t, h.Do("PATCH", path, `{"value":1`, tok...), 400, "INVALID_JSON")
	testserver.ExpectError(t, h.Do("PATCH", path, `{"value":1,"value":2}`, tok...), 400, "VALIDATION_ERROR")
	// Nothing above changed the asset; an empty patch changes nothing but updatedAt.
	r := h.Do("PATCH", path, `{}`, tok...)
	if r.Status != 200 || r.Data()["value"] != 12000.0 || r.Data()["isin"] != "IE00BK5BQT80" || r.Data()["notes"] != "core" {
		t.Fatalf("after refused patches: %s", r.Raw)
	}
	// Every optional field can be cleared with null.
	r = h.Do("PATCH", path, `{"isin":null,"ticker":null,"quantity":null,"costBasis":null,"expenseRatio":null,"region":null,"accountType":null,"notes":null}`, tok...)
	for _, k := range []string{"isin", "ticker", "quantity", "costBasis", "expenseRatio", "region", "accountType", "notes"} {
		if v, ok := r.Data()[k]; !ok || v != nil {
			t.Fatalf("%s not cleared: %s", k, r.Raw)
		}
	}
}

func TestAssetListPaging(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	var ids []string
	for i := range 7 {
		cat := []string{"equity", "bond"}[i%2]
		r := h.Do("POST", "/api/v1/assets", fmt.Sprintf(`{"name":"a%d","value":%d,"category":%q}`, i, i+1, cat), tok...)
		ids = append(ids, r.Data()["id"].(string))
	}
	var seen []string
	for off := 0; off < 7; off += 3 {
		r := h.Do("GET", fmt.Sprintf("/api/v1/assets?limit=3&offset=%d", off), "", tok...)
		m := r.Body["meta"].(map[string]any)
		if m["total"] != 7.0 || m["limit"] != 3.0 || m["offset"] != float64(off) {
			t.Fatalf("meta: %s", r.Raw)
		}
		for _, it := range r.Body["data"].([]any) {
			seen = append(seen, it.(map[string]any)["id"].(string))
		}
	}
	if strings.Join(seen, ",") != strings.Join(ids, ",") {
		t.Fatalf("pages %v, want %v", seen, ids)
	}
	r := h.Do("GET", "/api/v1/assets?category=bond&limit=2&offset=1", "", tok...)
	items := r.Body["data"].([]any)
	if r.Body["meta"].(map[string]any)["total"] != 3.0 || len(items) != 2 || items[0].(map[string]any)["id"] != ids[3] || items[1].(map[string]any)["id"] != ids[5] {
		t.Fatalf("bond page: %s", r.Raw)
	}
	if r = h.Do("GET", "/api/v1/assets?offset=50", "", tok...); len(r.Body["data"].([]any)) != 0 || r.Body["meta"].(map[string]any)["total"] != 7.0 {
		t.Fatalf("past the end: %s", r.Raw)
	}
}

func TestAccountDataSurvivesRestart(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("alice", "free", "")
	id := h.Do("POST", "/api/v1/assets", vwce, testserver.Bearer(tok)...).Data()["id"].(string)
	h.Do("PATCH", "/api/v1/user/profile", `{"displayName":"Alice","annualExpenses":40000}`, testserver.Bearer(tok)...)
	path := h.DBPath
	h.LN.Close()
	h.S.Close()
	h.DB.Close()

	h2 := testserver.Start(t, path)
	tok = h2.Token("alice", "free", "")
	if r := h2.Do("GET", "/api/v1/assets/"+id, "", testserver.Bearer(tok)...); r.Status != 200 || r.Data()["isin"] != "IE00BK5BQT80" {
		t.Fatalf("asset after restart: %s", r.Raw)
	}
	if r := h2.Do("GET", "/api/v1/user/profile", "", testserver.Bearer(tok)...); r.Data()["displayName"] != "Alice" {
		t.Fatalf("profile after restart: %s", r.Raw)
	}
	testserver.ExpectError(t, h2.Do("POST", "/api/v1/assets", vwce, testserver.Bearer(tok)...), 409, errcode.Conflict)
}

// A storage failure is DATABASE_ERROR on every account route, never a panic.
func TestAccountRoutesOnBrokenStorage(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	id := h.Do("POST", "/api/v1/assets", vwce, tok...).Data()["id"].(string)
	h.DB.Close()
	for _, rt := range []struct{ method, path, body string }{
		{"GET", "/api/v1/assets", ""}, {"POST", "/api/v1/assets", `{"name":"x","value":1,"currency":"USD"}`},
		{"GET", "/api/v1/assets/" + id, ""}, {"PUT", "/api/v1/assets/" + id, `{"name":"x","value":1,"currency":"USD"}`},
		{"PATCH", "/api/v1/assets/" + id, `{"value":1}`}, {"DELETE", "/api/v1/assets/" + id, ""},
		{"GET", "/api/v1/assets/summary", ""}, {"GET", "/api/v1/fi-score", ""},
		{"GET", "/api/v1/user/profile", ""}, {"PUT", "/api/v1/user/profile", `{}`}, {"PATCH", "/api/v1/user/settings", `{}`},
		{"GET", "/api/v1/user/export", ""}, {"DELETE", "/api/v1/user", ""},
	} {
		testserver.ExpectError(t, h.Do(rt.method, rt.path, rt.body, tok...), 500, errcode.Database)
	}
}

// An asset as GET answered it can be PUT back: the server-owned fields are
// accepted when they match the stored asset, and refused when they do not.
func TestPutAnAssetAsGetAnsweredIt(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/assets", `{"name":"World ETF","isin":"IE00BK5BQT80","value":1000,"currency":"EUR"}`, tok...)
	if r.Status != 201 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	id := r.Data()["id"].(string)
	got := h.Do("GET", "/api/v1/assets/"+id, "", tok...)
	doc := got.Data()
	doc["value"] = 1500.0
	body, _ := json.Marshal(doc)
	h.Advance(time.Minute)
	put := h.Do("PUT", "/api/v1/assets/"+id, string(body), tok...)
	if put.Status != 200 || put.Data()["value"] != 1500.0 || put.Data()["createdAt"] != doc["createdAt"] || put.Data()["updatedAt"] == doc["updatedAt"] {
		t.Fatalf("PUT of the GET body: %d %s", put.Status, put.Raw)
	}
	for field, value := range map[string]any{"id": "ast_other", "createdAt": "2020-01-01T00:00:00Z"} {
		bad := map[string]any{}
		for k, v := range doc {
			bad[k] = v
		}
		bad[field] = value
		b, _ := json.Marshal(bad)
		r := h.Do("PUT", "/api/v1/assets/"+id, string(b), tok...)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if d := r.Body["details"].([]any)[0].(map[string]any); d["path"] != field {
			t.Errorf("%s: details %v", field, d)
		}
	}
}
