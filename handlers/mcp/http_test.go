package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/mcp"
)

// toolCase is one good and one bad call of a tool; the bad one must
// answer an error result with code.
type toolCase struct {
	name      string
	good, bad string
	code      string
}

func toolCases(assetID string) []toolCase {
	return []toolCase{
		{"fi_calculate", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"scenarios":[{"name":"frugal","annualExpenses":35000}]}`, `{}`, "MISSING_FIELD"},
		{"fi_calculate", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":100},"historical":{"sequences":true},"output":"full"}`, `{"currentAge":35,"annualIncome":1,"annualExpenses":1,"output":"yearly"}`, "VALIDATION_ERROR"},
		{"portfolio_health", `{"holdings":[{"name":"World","value":200000,"assetClass":"equity","expenseRatio":0.002,"region":"global"},{"name":"Cash","value":15000,"assetClass":"cash"}],"age":40,"annualExpenses":36000}`, `{"holdings":"all of them"}`, "VALIDATION_ERROR"},
		{"search_cities", `{"region":"europe-south","maxMonthlyCost":2500,"sort":"cost","limit":5}`, `{"population":3}`, "VALIDATION_ERROR"},
		{"compare_cities", `{"ids":"zurich-ch,lisbon-pt","style":"lean"}`, `{"ids":"lisbon-pt"}`, "VALIDATION_ERROR"},
		{"recommend_cities", `{"portfolioUSD":900000,"withdrawalRate":0.035,"householdSize":2,"preferences":{"minSafety":60}}`, `{"householdSize":2}`, "MISSING_FIELD"},
		{"tax_calculate", `{"country":"GB","income":{"employment":50000,"dividends":3000}}`, `{"country":"XX","income":{"employment":1}}`, "VALIDATION_ERROR"},
		{"tax_programs", `{"country":"PT"}`, `{"status":"sometimes"}`, "VALIDATION_ERROR"},
		{"tax_optimize", `{"country":"US","income":{"pension":30000,"dividends":20000},"monthlyBudgetUSD":4000}`, `{"income":{"pension":1}}`, "MISSING_FIELD"},
		{"my_fi_score", `{}`, `{"verbose":true}`, "VALIDATION_ERROR"},
		{"list_my_assets", `{"limit":10,"detail":"full"}`, `{"category":"tulips"}`, "VALIDATION_ERROR"},
		{"tax_countries", `{"country":"US","detail":"full"}`, `{"country":"../user"}`, "VALIDATION_ERROR"},
		{"get_my_profile", `{}`, `{"verbose":true}`, "VALIDATION_ERROR"},
		{"update_my_profile", `{"currentAge":41,"annualExpenses":null}`, `{"currentAge":7}`, "VALIDATION_ERROR"},
		{"get_my_settings", `{}`, `{"verbose":true}`, "VALIDATION_ERROR"},
		{"update_my_settings", `{"withdrawalRate":0.035}`, `{"withdrawalRate":3}`, "VALIDATION_ERROR"},
		{"add_asset", `{"name":"Bond fund","value":8000,"currency":"EUR","category":"bond"}`, `{"name":"Bond fund","value":-1}`, "VALIDATION_ERROR"},
		{"update_asset", `{"id":"` + assetID + `","value":12500,"notes":null}`, `{"id":"ast_aaaaaaaaaaaaaaaaaaaaaaaaaa","value":1}`, "NOT_FOUND"},
		{"delete_asset", `{"id":"` + assetID + `"}`, `{"id":"` + assetID + `"}`, "NOT_FOUND"},
	}
}

var wantTools = []string{"add_asset", "checkin_my_plan", "compare_cities", "delete_asset", "fi_calculate", "get_my_plan", "get_my_profile",
	"get_my_settings", "list_my_assets", "list_my_events", "list_my_plans", "my_fi_score", "optimize_plan", "portfolio_health", "recommend_cities", "run_my_plan", "save_my_plan",
	"search_cities", "tax_calculate", "tax_countries", "tax_optimize", "tax_programs", "update_asset", "update_my_profile", "update_my_settings"}

// TestMCPToolsOverHTTP calls every tool with a good and a bad input over
// streamable HTTP, answering POSTs as JSON and as event streams.
func TestMCPToolsOverHTTP(t *testing.T) {
	for _, stream := range []bool{false, true} {
		name := "json"
		if stream {
			name = "sse"
		}
		t.Run(name, func(t *testing.T) {
			h := testserver.New(t, testserver.WithMCP(stream))
			cs := keySession(t, h, "ada", "pro")
			init := cs.InitializeResult()
			if init.ServerInfo.Name != "fiplan" || init.ProtocolVersion < mcp.MinProtocol || init.Capabilities.Tools == nil {
				t.Fatalf("initialize answered %+v", init)
			}
			if cs.ID() == "" {
				t.Fatal("no session id")
			}
			exerciseTools(t, h, cs)
		})
	}
}

func exerciseTools(t *testing.T, h *testserver.Harness, cs *sdk.ClientSession) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if tl.Annotations == nil || tl.Annotations.DestructiveHint == nil {
			t.Errorf("%s has no annotations", tl.Name)
		}
		in, _ := tl.InputSchema.(map[string]any)
		if in["type"] != "object" {
			t.Errorf("%s: input schema %v", tl.Name, tl.InputSchema)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Fatalf("tools %v, want %v", names, wantTools)
	}
	schemas := harness.OutputSchemas(t, list.Tools)
	ro := map[string]bool{}
	for _, tl := range list.Tools {
		ro[tl.Name] = tl.Annotations.ReadOnlyHint
	}
	if !ro["fi_calculate"] || ro["delete_asset"] || ro["add_asset"] {
		t.Errorf("readOnlyHint: %v", ro)
	}

	created := harness.Call(t, cs, "add_asset", `{"name":"World index","isin":"IE00BK5BQT80","value":12000,"currency":"EUR"}`)
	if created.IsError {
		t.Fatalf("add_asset: %s", harness.Text(created))
	}
	var asset struct{ ID string }
	_ = json.Unmarshal(harness.Structured(t, created), &asset)
	for _, tc := range toolCases(asset.ID) {
		good := harness.Call(t, cs, tc.name, tc.good)
		if good.IsError {
			t.Fatalf("%s(%s): %s", tc.name, tc.good, harness.Text(good))
		}
		harness.Validate(t, schemas[tc.name], tc.name, harness.Structured(t, good))
		if len(good.Content) == 0 || harness.Text(good) == "" {
			t.Errorf("%s: no text summary", tc.name)
		}
		bad := harness.Call(t, cs, tc.name, tc.bad)
		if !bad.IsError || !strings.HasPrefix(harness.Text(bad), tc.code+":") {
			t.Fatalf("%s(%s): want an error result %s, got %s", tc.name, tc.bad, tc.code, harness.Text(bad))
		}
		if bad.StructuredContent != nil {
			t.Errorf("%s: an error result carries structured content", tc.name)
		}
	}
}

func TestMCPCalculatorMilestonesAndProjections(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	args := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000`
	short := harness.Structured(t, harness.Call(t, cs, "fi_calculate", args+`}`))
	full := harness.Structured(t, harness.Call(t, cs, "fi_calculate", args+`,"output":"full"}`))
	var s, f struct {
		FIAge       int
		Projections []map[string]any
		Milestones  []struct {
			Age   int
			Label string
		}
	}
	_ = json.Unmarshal(short, &s)
	_ = json.Unmarshal(full, &f)
	if s.Projections != nil || len(s.Milestones) < 3 {
		t.Fatalf("default answer: %d projections, %d milestones", len(s.Projections), len(s.Milestones))
	}
	if len(f.Projections) != 95-35 || f.Milestones != nil {
		t.Fatalf("with output full: %d projections, %d milestones", len(f.Projections), len(f.Milestones))
	}
	var fi bool
	for _, m := range s.Milestones {
		if strings.Contains(m.Label, "fi") && m.Age == s.FIAge {
			fi = true
		}
	}
	if !fi || s.Milestones[0].Label != "start" && !strings.HasPrefix(s.Milestones[0].Label, "start") {
		t.Fatalf("milestones %+v lack the start or the FI year (age %d)", s.Milestones, s.FIAge)
	}
	// The same call through the API answers the same summary figures.
	r := h.Do("POST", "/api/v1/calculator", args+`}`)
	if r.Data()["fiNumber"] == nil || r.Data()["fiAge"].(float64) != float64(s.FIAge) {
		t.Fatalf("REST and MCP disagree: %v vs %d", r.Data()["fiAge"], s.FIAge)
	}
	bad := harness.Call(t, cs, "fi_calculate", args+`,"output":"yes"}`)
	if !bad.IsError || !strings.Contains(harness.Text(bad), "- output: must be one of: summary, full") {
		t.Fatalf("an unknown output: %s", harness.Text(bad))
	}
}

func TestMCPFreeUserCannotOptimize(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs, err := h.MCPSession("Bearer " + h.Token("bo", "free", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := harness.Call(t, cs, "tax_optimize", `{"country":"US","income":{"pension":30000}}`)
	if !res.IsError || !strings.HasPrefix(harness.Text(res), "SUBSCRIPTION_REQUIRED:") || !strings.Contains(harness.Text(res), `"code":"SUBSCRIPTION_REQUIRED"`) {
		t.Fatalf("free user's tax_optimize: %s", harness.Text(res))
	}
	// The tier rule is the route's: the free user's other calls work.
	if res := harness.Call(t, cs, "tax_calculate", `{"country":"PT","income":{"pension":30000}}`); res.IsError {
		t.Fatalf("tax_calculate: %s", harness.Text(res))
	}
}

// TestMCPEveryMessageCountsOnce: every JSON-RPC message on /mcp takes one
// unit of the caller's limit, a tool call too, but only once (its route
// does not charge the unit again); past the limit /mcp answers 429 in the
// API's envelope with its headers.
func TestMCPEveryMessageCountsOnce(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("60/1m", "8/1m", "6000/1m"))
	key, _ := h.APIKey("cy", "free") // the key itself costs one request
	cy := h.HTTPClient("Bearer " + key)
	remaining := func(res *http.Response) int {
		t.Helper()
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		n, err := strconv.Atoi(res.Header.Get("RateLimit-Remaining"))
		if err != nil || res.Header.Get("RateLimit-Limit") != "8" {
			t.Fatalf("%d without RateLimit headers: %v %s", res.StatusCode, res.Header, body)
		}
		return n
	}
	res := harness.RawMCP(t, cy, "POST", "", harness.Initialize)
	sid := res.Header.Get("Mcp-Session-Id")
	if n := remaining(res); n != 6 || sid == "" {
		t.Fatalf("after the key and initialize: %d left, session %q", n, sid)
	}
	steps := []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"my_fi_score","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"fiplan://dataset/fx"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	}
	for i, msg := range steps {
		res := harness.RawMCP(t, cy, "POST", sid, msg)
		if res.StatusCode >= 300 {
			t.Fatalf("%s: %d", msg, res.StatusCode)
		}
		if n := remaining(res); n != 5-i {
			t.Fatalf("%s left %d, want %d: one unit per message", msg, n, 5-i)
		}
	}
	// The tool call's route was not charged again: the API sees what /mcp left.
	r := h.Do("GET", "/api/v1/fi-score", "", testserver.Bearer(key)...)
	if r.Status != 200 || r.Header["Ratelimit-Remaining"] != "1" {
		t.Fatalf("the API after the messages: %d %v", r.Status, r.Header)
	}
	harness.RawMCP(t, cy, "POST", sid, `{"jsonrpc":"2.0","id":5,"method":"ping"}`).Body.Close()
	res = harness.RawMCP(t, cy, "POST", sid, `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"fiplan://dataset/fx"}}`)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var env struct {
		Success    *bool  `json:"success"`
		Code       string `json:"code"`
		RetryAfter int    `json:"retryAfter"`
	}
	if err := json.Unmarshal(body, &env); err != nil || res.StatusCode != 429 || env.Code != "RATE_LIMITED" || env.Success == nil || *env.Success || env.RetryAfter < 1 {
		t.Fatalf("over the limit: %d %s", res.StatusCode, body)
	}
	if res.Header.Get("Retry-After") == "" || res.Header.Get("RateLimit-Remaining") != "0" || res.Header.Get("X-Request-Id") == "" {
		t.Fatalf("429 headers: %v", res.Header)
	}
	// A tool call over the limit is refused before it runs.
	res = harness.RawMCP(t, cy, "POST", sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add_asset","arguments":{"name":"x","value":1}}}`)
	res.Body.Close()
	if res.StatusCode != 429 {
		t.Fatalf("a tool call over the limit: %d", res.StatusCode)
	}
	if r := h.Do("GET", "/api/v1/assets", "", testserver.Bearer(h.Token("cy", "free", ""))...); r.Status != 429 {
		t.Fatalf("the API over the limit: %d", r.Status)
	}
	h.Advance(time.Minute)
	if r := h.Do("GET", "/api/v1/assets", "", testserver.Bearer(h.Token("cy", "free", ""))...); r.Status != 200 || len(r.Body["data"].([]any)) != 0 {
		t.Fatalf("the refused tool call added an asset: %d %s", r.Status, r.Raw)
	}
}

// TestMCPRateLimitIsTheUsers: the SDK's client spends the user's limit
// message by message and meets 429 past it.
func TestMCPRateLimitIsTheUsers(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("60/1m", "5/1m", "6000/1m"))
	key, _ := h.APIKey("cy", "free") // the key itself costs one request
	// The client's connection sends three messages: server/discover,
	// initialize and initialized.
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res := harness.Call(t, cs, "my_fi_score", `{}`); res.IsError {
		t.Fatalf("the last unit: %s", harness.Text(res))
	}
	_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "my_fi_score", Arguments: json.RawMessage(`{}`)})
	if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Fatalf("over the limit: %v", err)
	}
}

// TestMCPBadCredentialsMeetTheAnonymousLimit: a request to /mcp without a
// valid credential costs one unit of the client address's anonymous
// allowance, as a failed authentication on the API does, and past it is
// 429.
func TestMCPBadCredentialsMeetTheAnonymousLimit(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("5/1m", "600/1m", "6000/1m"))
	bad := []string{"Bearer svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Bearer svc_notakey", "Bearer not.a.jwt", "Basic YTpi", ""}
	for i, authz := range bad {
		res := harness.RawMCP(t, h.HTTPClient(authz), "POST", "", harness.Initialize)
		res.Body.Close()
		if res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer resource_metadata=") {
			t.Fatalf("attempt %d (%q): %d %v", i, authz, res.StatusCode, res.Header)
		}
	}
	for _, authz := range bad {
		res := harness.RawMCP(t, h.HTTPClient(authz), "POST", "", harness.Initialize)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 429 || !strings.Contains(string(body), `"code":"RATE_LIMITED"`) || res.Header.Get("Retry-After") == "" {
			t.Fatalf("past the anonymous allowance (%q): %d %s", authz, res.StatusCode, body)
		}
	}
	// The same client's failed attempts on the API meet the same limit.
	testserver.ExpectError(t, h.Do("GET", "/api/v1/assets", "", testserver.Bearer("not.a.jwt")...), 429, "RATE_LIMITED")
	// Another address has its own allowance; a valid credential its user's.
	h.IP = "192.0.2.9"
	if res := harness.RawMCP(t, h.HTTPClient("Bearer svc_notakey"), "POST", "", harness.Initialize); res.StatusCode != 401 {
		t.Fatalf("another address: %d", res.StatusCode)
	}
	h.IP = "192.0.2.1"
	if res := harness.RawMCP(t, h.HTTPClient("Bearer "+h.Token("ada", "free", "")), "POST", "", harness.Initialize); res.StatusCode != 200 {
		t.Fatalf("a valid session from the limited address: %d", res.StatusCode)
	}
}

// TestMCPSessionsPerUserAreCapped: a user holds at most MaxSessions
// sessions; opening one more closes the oldest, whose next request is 404,
// and leaves other users' sessions alone.
func TestMCPSessionsPerUserAreCapped(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"), func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase, MaxSessions: 2}
	})
	open := func(c *http.Client) string {
		t.Helper()
		res := harness.RawMCP(t, c, "POST", "", harness.Initialize)
		res.Body.Close()
		sid := res.Header.Get("Mcp-Session-Id")
		if res.StatusCode != 200 || sid == "" {
			t.Fatalf("initialize: %d", res.StatusCode)
		}
		return sid
	}
	status := func(c *http.Client, sid string) int {
		t.Helper()
		res := harness.RawMCP(t, c, "POST", sid, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
		res.Body.Close()
		return res.StatusCode
	}
	ada := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	key, _ := h.APIKey("ada", "free") // a key acts for the same user
	adaKey := h.HTTPClient("Bearer " + key)
	bo := h.HTTPClient("Bearer " + h.Token("bo", "free", ""))
	boSID := open(bo)
	first, second := open(ada), open(adaKey)
	if status(ada, first) != 200 || status(adaKey, second) != 200 {
		t.Fatal("the first two sessions do not work")
	}
	third := open(ada)
	deadline := time.Now().Add(10 * time.Second)
	for status(ada, first) != 404 {
		if time.Now().After(deadline) {
			t.Fatal("the oldest session is still open past the cap")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if status(adaKey, second) != 200 || status(ada, third) != 200 || status(bo, boSID) != 200 {
		t.Fatal("the cap closed a session it should have kept")
	}
	if n := h.S.MCP().OpenSessions("ada"); n != 2 {
		t.Fatalf("ada holds %d sessions", n)
	}
	// A session that ends frees its place.
	if res := harness.RawMCP(t, ada, "DELETE", third, ""); res.StatusCode != 204 {
		t.Fatalf("DELETE: %d", res.StatusCode)
	}
	for h.S.MCP().OpenSessions("ada") != 1 {
		if time.Now().After(deadline) {
			t.Fatal("a deleted session still counts")
		}
		time.Sleep(20 * time.Millisecond)
	}
	open(ada)
	if status(adaKey, second) != 200 {
		t.Fatal("a session within the cap was closed")
	}
}

// TestMCPStreamsEnd: an event stream (GET, or a POST answered as a
// stream) ends after the stream lifetime, however idle, instead of
// holding its connection and goroutines until the session times out.
func TestMCPStreamsEnd(t *testing.T) {
	if mcp.DefaultStreamLifetime >= testserver.New(t).S.HTTP().WriteTimeout {
		t.Fatalf("the stream lifetime %v is not under the write timeout", mcp.DefaultStreamLifetime)
	}
	h := testserver.New(t, testserver.WithRates("off", "off", "off"), func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase, Stream: true, StreamLifetime: 200 * time.Millisecond}
	})
	ada := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	ada.Timeout = 5 * time.Second // past it, the stream never ended
	res := harness.RawMCP(t, ada, "POST", "", harness.Initialize)
	sid := res.Header.Get("Mcp-Session-Id")
	if _, err := io.ReadAll(res.Body); err != nil || res.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d %v", res.StatusCode, err)
	}
	res.Body.Close()
	req, _ := http.NewRequest("GET", harness.MCPBase+mcp.Path, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", mcp.MinProtocol)
	res, err := ada.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if _, err := io.ReadAll(res.Body); err != nil {
		t.Fatalf("the idle stream did not end: %v", err)
	}
	res.Body.Close()
	// The session outlives its stream: a new one opens.
	res, err = ada.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("reopening the stream: %v", err)
	}
	if _, err := io.ReadAll(res.Body); err != nil {
		t.Fatalf("the second stream did not end: %v", err)
	}
	res.Body.Close()
}

func TestMCPUnauthorized(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	for _, authz := range []string{"", "Bearer svc_notakey", "Bearer not.a.jwt", "Basic YTpi"} {
		res := harness.RawMCP(t, h.HTTPClient(authz), "POST", "", harness.Initialize)
		res.Body.Close()
		want := `Bearer resource_metadata="` + harness.MCPBase + `/.well-known/oauth-protected-resource"`
		if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") != want {
			t.Fatalf("%q: %d, WWW-Authenticate %q", authz, res.StatusCode, res.Header.Get("WWW-Authenticate"))
		}
	}
	// An expired session is refused like a bad one.
	tok := h.Token("ada", "free", "")
	h.Advance(2 * time.Hour)
	if res := harness.RawMCP(t, h.HTTPClient("Bearer "+tok), "POST", "", harness.Initialize); res.StatusCode != 401 {
		t.Fatalf("expired token: %d", res.StatusCode)
	}
	res, err := h.HTTPClient("").Get(harness.MCPBase + mcp.MetadataPath)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := json.NewDecoder(res.Body).Decode(&meta); err != nil || res.StatusCode != 200 {
		t.Fatalf("metadata: %d %v", res.StatusCode, err)
	}
	if meta.Resource != harness.MCPBase+"/mcp" || !slices.Equal(meta.AuthorizationServers, []string{"https://id.example.com"}) {
		t.Fatalf("metadata %+v", meta)
	}
	if res := harness.RawMCP(t, h.HTTPClient(""), "POST", "", "{}"); res.StatusCode != 401 {
		t.Fatalf("POST /mcp without credentials: %d", res.StatusCode)
	}
	post, err := h.HTTPClient("").Post(harness.MCPBase+mcp.MetadataPath, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != 405 || post.Header.Get("Allow") == "" {
		t.Fatalf("POST metadata: %d", post.StatusCode)
	}
}

func TestMCPRevokedKeyFailsAtOnce(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	key, id := h.APIKey("ada", "free")
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res := harness.Call(t, cs, "my_fi_score", `{}`); res.IsError {
		t.Fatal(harness.Text(res))
	}
	r := h.Do("DELETE", "/api/v1/user/api-keys/"+id, "", testserver.Bearer(h.Token("ada", "free", ""))...)
	if r.Status != 204 {
		t.Fatalf("revoke: %d %s", r.Status, r.Raw)
	}
	_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "my_fi_score", Arguments: json.RawMessage(`{}`)})
	if err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
		t.Fatalf("a call with the revoked key: %v", err)
	}
}

func TestMCPSessions(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	ada := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	res := harness.RawMCP(t, ada, "POST", "", harness.Initialize)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || sid == "" || !strings.Contains(string(body), `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize: %d session %q %s", res.StatusCode, sid, body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("initialize answered %s", ct)
	}
	res = harness.RawMCP(t, ada, "POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	res.Body.Close()
	if res.StatusCode != 202 {
		t.Fatalf("initialized notification: %d", res.StatusCode)
	}
	res = harness.RawMCP(t, ada, "POST", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"fi_calculate"`) {
		t.Fatalf("tools/list in the session: %d %s", res.StatusCode, body)
	}
	// Another user cannot use the session; an unknown id is not found.
	bo := h.HTTPClient("Bearer " + h.Token("bo", "free", ""))
	if res := harness.RawMCP(t, bo, "POST", sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != 403 {
		t.Fatalf("another user's session: %d", res.StatusCode)
	}
	if res := harness.RawMCP(t, ada, "POST", "no-such-session", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != 404 {
		t.Fatalf("unknown session: %d", res.StatusCode)
	}
	// GET opens the session's event stream.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", harness.MCPBase+mcp.Path, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	res, err := ada.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	cancel()
	res.Body.Close()
	// DELETE ends it.
	if res := harness.RawMCP(t, ada, "DELETE", sid, ""); res.StatusCode != 204 {
		t.Fatalf("DELETE: %d", res.StatusCode)
	}
	if res := harness.RawMCP(t, ada, "POST", sid, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); res.StatusCode != 404 {
		t.Fatalf("a deleted session: %d", res.StatusCode)
	}
}

func TestMCPResourcesAndPrompts(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs, err := h.MCPSession("Bearer " + h.Token("ada", "free", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	rl, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"fiplan://method/health-score":   "Diversification",
		"fiplan://method/calculator":     "Yearly timeline",
		"fiplan://dataset/cities":        `"pricesKept": [`,
		"fiplan://dataset/fx":            `"asOf"`,
		"fiplan://dataset/tax-programs":  `"asOf"`,
		"fiplan://dataset/tax-countries": `"asOf"`,
		"fiplan://dataset/history":       "As of:",
		"fiplan://dataset/home-history":  `"licence": "CC BY 4.0"`,
	}
	if len(rl.Resources) != len(want) {
		t.Fatalf("%d resources, want %d", len(rl.Resources), len(want))
	}
	for _, r := range rl.Resources {
		got, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Contents) != 1 || !strings.Contains(got.Contents[0].Text, want[r.URI]) {
			t.Fatalf("%s does not hold %q", r.URI, want[r.URI])
		}
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "fiplan://dataset/nothing"}); err == nil {
		t.Fatal("an unknown resource was read")
	}
	pl, err := cs.ListPrompts(context.Background(), nil)
	if err != nil || len(pl.Prompts) != 2 {
		t.Fatalf("prompts: %v %v", pl, err)
	}
	p, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: "plan_financial_independence", Arguments: map[string]string{"age": "41"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Messages[0].Content.(*sdk.TextContent).Text; !strings.Contains(got, "My age: 41.") || !strings.Contains(got, "fi_calculate") {
		t.Fatalf("prompt text %q", got)
	}
}

// TestMCPInMemory serves the same tools over an in-memory transport, as
// stdio does, acting for the configured local user.
func TestMCPInMemory(t *testing.T) {
	var tok string
	h := testserver.New(t, func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase, Credential: func() (string, error) { return "Bearer " + tok, nil }}
	})
	tok = h.Token("local", "pro", "")
	local := h.S.MCP()
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go local.Run(ctx, st) //nolint:errcheck // ends with ctx
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stdio-test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exerciseTools(t, h, cs)
	// The calls acted for the local user: the asset is theirs.
	r := h.Do("GET", "/api/v1/assets", "", testserver.Bearer(tok)...)
	if r.Status != 200 || len(r.Body["data"].([]any)) != 1 {
		t.Fatalf("the local user's assets: %s", r.Raw)
	}
}

// TestMCPIdsCannotWalkToAnotherRoute: an asset id that is not an asset id
// (a dot segment, a slash, an escape) is refused as the tool's validation
// error before it becomes part of a path, so it never reaches the
// erasure, the profile or the flags.
func TestMCPIdsCannotWalkToAnotherRoute(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	tok := h.Token("ada", "free", "")
	if r := h.Do("PATCH", "/api/v1/user/profile", `{"displayName":"Ada","annualExpenses":40000}`, testserver.Bearer(tok)...); r.Status != 200 {
		t.Fatalf("profile: %d %s", r.Status, r.Raw)
	}
	admin := h.Token("root", "pro", "admin")
	if r := h.Do("PUT", "/api/v1/features/new-ui", `{"enabled":true}`, testserver.Bearer(admin)...); r.Status != 201 {
		t.Fatalf("flag: %d %s", r.Status, r.Raw)
	}
	refused := func(cs *sdk.ClientSession, name, args string) {
		t.Helper()
		res := harness.Call(t, cs, name, args)
		if !res.IsError || !strings.HasPrefix(harness.Text(res), "VALIDATION_ERROR:") || !strings.Contains(harness.Text(res), "\n- id: must be an asset id") {
			t.Fatalf("%s(%s) was not refused as a bad id: %s", name, args, harness.Text(res))
		}
	}
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, id := range []string{"../user", "../user/profile", "..%2fuser", "..%2Fuser%2Fprofile", "a/b", "", "..", "ast_aaaaaaaaaaaaaaaaaaaaaaaaaa/../../user"} {
		args, _ := json.Marshal(map[string]any{"id": id, "displayName": "Mallory"})
		if id == "" {
			// The schema's pattern and the chain agree: an empty id is no id.
			res := harness.Call(t, cs, "delete_asset", `{"id":""}`)
			if !res.IsError || !strings.HasPrefix(harness.Text(res), "VALIDATION_ERROR:") || !strings.Contains(harness.Text(res), "- id:") {
				t.Fatalf("an empty id: %s", harness.Text(res))
			}
			continue
		}
		refused(cs, "delete_asset", `{"id":`+strconv.Quote(id)+`}`)
		refused(cs, "update_asset", string(args))
	}
	r := h.Do("GET", "/api/v1/user/profile", "", testserver.Bearer(tok)...)
	if r.Status != 200 || r.Data()["displayName"] != "Ada" {
		t.Fatalf("the profile after the calls: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(tok)...); r.Status != 200 || !strings.Contains(string(r.Raw), `"Ada"`) {
		t.Fatalf("the user after the calls: %d %s", r.Status, r.Raw)
	}

	// An admin's asset tools reach no flag.
	as, err := h.MCPSession("Bearer " + admin)
	if err != nil {
		t.Fatal(err)
	}
	defer as.Close()
	for _, id := range []string{"../features/new-ui", "..%2ffeatures%2fnew-ui", "../../api/v1/features/new-ui"} {
		refused(as, "delete_asset", `{"id":`+strconv.Quote(id)+`}`)
		refused(as, "update_asset", `{"id":`+strconv.Quote(id)+`,"enabled":false}`)
	}
	if r := h.Do("GET", "/api/v1/features", "", testserver.Bearer(admin)...); r.Status != 200 || !strings.Contains(string(r.Raw), `"new-ui"`) {
		t.Fatalf("the flag after the calls: %d %s", r.Status, r.Raw)
	}
	// A well-formed id of nobody's asset is the API's 404, as before.
	if res := harness.Call(t, cs, "delete_asset", `{"id":"ast_aaaaaaaaaaaaaaaaaaaaaaaaaa"}`); !res.IsError || !strings.HasPrefix(harness.Text(res), "NOT_FOUND:") {
		t.Fatalf("an unknown asset: %s", harness.Text(res))
	}
}

// A session opened on one node is served by another node sharing the
// store: its POSTs there run statelessly with the request's own
// credentials; a GET stream there answers 405; another user's requests
// answer 403 and an anonymous one 401 on every node; a DELETE on either
// node ends it, after which every node answers 404; a made-up id is 404
// everywhere.
func TestMCPSessionOnAnotherNode(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "shared.DB"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		mcpOnAnotherNode(t, db)
	})
	t.Run("postgres", func(t *testing.T) { mcpOnAnotherNode(t, testserver.PGStore(t)) })
}

// mcpEnded waits for c's node to answer 404 to sid, as it must once its
// copy of the marks has the session's end.
func mcpEnded(t *testing.T, c *http.Client, sid, what string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res := harness.RawMCP(t, c, "POST", sid, harness.ToolsList)
		res.Body.Close()
		if res.StatusCode == 404 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: %d", what, res.StatusCode)
		}
	}
}

func mcpOnAnotherNode(t *testing.T, db store.Store) {
	a, b := testserver.New(t, testserver.WithDB(db), testserver.WithMCP(false)), testserver.New(t, testserver.WithDB(db), testserver.WithMCP(false))
	tok := "Bearer " + a.Token("ada", "free", "")
	onA, onB := a.HTTPClient(tok), b.HTTPClient(tok)
	sid := harness.MCPOpen(t, onA)
	res := harness.RawMCP(t, onB, "POST", sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_cities","arguments":{"q":"lisbon"}}}`)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "lisbon-pt") || strings.Contains(string(body), `"isError":true`) {
		t.Fatalf("a tool call on B in A's session: %d %s", res.StatusCode, body)
	}
	req, _ := http.NewRequest("GET", harness.MCPBase+mcp.Path, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	if res, err := onB.Do(req); err != nil || res.StatusCode != 405 {
		t.Fatalf("a stream on B of A's session: %v %v", res.StatusCode, err)
	}
	// A forged signature, or a forged owner: 404 on both nodes.
	dot := strings.LastIndexByte(sid, '.')
	owner := strings.LastIndexByte(sid[:dot], '.')
	for _, forged := range []string{sid[:dot] + ".AAAAAAAAAAAAAAAAAAAAAA", sid[:owner] + ".AAAAAAAAAAAAAAAA" + sid[dot:]} {
		for _, c := range []*http.Client{onA, onB} {
			harness.MCPRefused(t, harness.RawMCP(t, c, "POST", forged, harness.ToolsList), 404, "NOT_FOUND", "a forged session id")
		}
	}
	// Another user: 403 on both nodes, for every method, and the session
	// lives on; without credentials, 401.
	for _, h := range []*testserver.Harness{a, b} {
		bo := h.HTTPClient("Bearer " + h.Token("bo", "free", ""))
		for _, m := range []string{"POST", "DELETE"} {
			harness.MCPRefused(t, harness.RawMCP(t, bo, m, sid, harness.ToolsList), 403, "FORBIDDEN", "another user's "+m)
		}
		res := harness.RawMCP(t, h.HTTPClient(""), "POST", sid, harness.ToolsList)
		if res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("anonymous use of a session: Cache-Control %q", res.Header.Get("Cache-Control"))
		}
		harness.MCPRefused(t, res, 401, "UNAUTHORIZED", "anonymous use of a session")
	}
	for _, c := range []*http.Client{onA, onB} {
		if res := harness.RawMCP(t, c, "POST", sid, harness.ToolsList); res.StatusCode != 200 {
			t.Fatalf("after another user's attempts: %d", res.StatusCode)
		}
	}
	// Ended on A: 404 on B too.
	if res := harness.RawMCP(t, onA, "DELETE", sid, ""); res.StatusCode != 204 {
		t.Fatalf("DELETE on A: %d", res.StatusCode)
	}
	harness.MCPRefused(t, harness.RawMCP(t, onA, "POST", sid, harness.ToolsList), 404, "NOT_FOUND", "an ended session on A")
	mcpEnded(t, onB, sid, "an ended session on B")
	// Ended on B, the node that does not hold it: 404 on A too, which
	// closes it.
	sid = harness.MCPOpen(t, onA)
	if a.S.MCP().OpenSessions("ada") == 0 {
		t.Fatal("A holds no session of ada's")
	}
	if res := harness.RawMCP(t, onB, "DELETE", sid, ""); res.StatusCode != 204 {
		t.Fatalf("DELETE on B: %d", res.StatusCode)
	}
	harness.MCPRefused(t, harness.RawMCP(t, onB, "POST", sid, harness.ToolsList), 404, "NOT_FOUND", "an ended session on B")
	mcpEnded(t, onA, sid, "a session ended on B, on A")
}

// fi_calculate reads the calculator's typed figures even when the API has
// the same body's answer cached: the cache holds bytes alone.
func TestMCPCalculatorPastTheCache(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	key, _ := h.APIKey("ada", "free")
	body := `{"annualExpenses":45000,"annualIncome":90000,"currentAge":35}`
	for range 3 {
		if r := h.Do("POST", "/api/v1/calculator", body, "Authorization", "Bearer "+key); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		h.S.Calculator().WaitCache()
	}
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := harness.Call(t, cs, "fi_calculate", body)
	if res.IsError || !strings.HasPrefix(harness.Text(res), "FI number 1,125,000") {
		t.Fatalf("fi_calculate after the same body was cached: %s", harness.Text(res))
	}
}

// A batch of more messages than the caller's whole allowance is refused as
// no wait admits: 429 COST_OVER_ALLOWANCE without retryAfter, nothing
// charged.
func TestMCPBatchOverTheWholeAllowance(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("60/1m", "3/1m", "6000/1m"))
	ada := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	batch := `[` + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"},`, 4), ",") + `]`
	res := harness.RawMCP(t, ada, "POST", "", batch)
	if res.Header.Get("Retry-After") != "" || res.Header.Get("RateLimit-Remaining") != "3" {
		t.Fatalf("a batch of 4 of 3: %v", res.Header)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 429 || !strings.Contains(string(body), `"code":"COST_OVER_ALLOWANCE"`) || strings.Contains(string(body), "retryAfter") {
		t.Fatalf("a batch of 4 of 3: %d %s", res.StatusCode, body)
	}
	res = harness.RawMCP(t, ada, "POST", "", harness.Initialize)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("RateLimit-Remaining") != "2" {
		t.Fatalf("initialize after the refusal: %d %v", res.StatusCode, res.Header)
	}
}
