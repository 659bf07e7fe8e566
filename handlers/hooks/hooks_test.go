package hooks_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/errcode"
	"fiplan/handlers/hooks"
	"fiplan/handlers/internal/testserver"
)

func local(c *handlers.Config) { c.Webhooks.Local = true }

func register(t *testing.T, h *testserver.Harness, tok, url string) (id, secret string) {
	t.Helper()
	r := h.Do("POST", "/api/v1/user/webhooks", fmt.Sprintf(`{"url":%q,"events":["checkin.due","guardrail.crossed"]}`, url), testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("register %s: %d %s", url, r.Status, r.Raw)
	}
	id, _ = r.Data()["id"].(string)
	secret, _ = r.Data()["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q is not whsec_...", secret)
	}
	return id, secret
}

func TestWebhookRoutes(t *testing.T) {
	h := testserver.New(t)
	ann, bob := h.Token("ann", "free", ""), h.Token("bob", "free", "")
	id, secret := register(t, h, ann, "https://hooks.example.com/fiplan")
	r := h.Do("GET", "/api/v1/user/webhooks", "", testserver.Bearer(ann)...)
	if r.Status != 200 || strings.Contains(string(r.Raw), secret) || strings.Contains(string(r.Raw), "secret") || !strings.Contains(string(r.Raw), id) {
		t.Fatalf("list shows the secret or misses the endpoint: %s", r.Raw)
	}
	r = h.Do("POST", "/api/v1/user/webhooks/"+id+"/rotate", "", testserver.Bearer(ann)...)
	if fresh, _ := r.Data()["secret"].(string); r.Status != 200 || fresh == secret || !strings.HasPrefix(fresh, "whsec_") {
		t.Fatalf("rotate: %d %s", r.Status, r.Raw)
	}
	for _, path := range []string{"/rotate", "/test"} {
		testserver.ExpectError(t, h.Do("POST", "/api/v1/user/webhooks/"+id+path, "", testserver.Bearer(bob)...), 404, errcode.NotFound)
	}
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/user/webhooks/"+id, "", testserver.Bearer(bob)...), 404, errcode.NotFound)
	if r := h.Do("DELETE", "/api/v1/user/webhooks/"+id, "", testserver.Bearer(ann)...); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/user/webhooks/"+id, "", testserver.Bearer(ann)...), 404, errcode.NotFound)
}

func TestWebhookURLsRefused(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("ann", "free", "")
	for _, url := range []string{
		"http://hooks.example.com/x",  // not https
		"http://127.0.0.1:9/x",        // loopback outside local mode
		"https://localhost/x",         // likewise by name
		"https://[::1]/x",             // IPv6 loopback
		"https://10.0.0.1/x",          // private
		"https://169.254.169.254/x",   // cloud metadata
		"https://100.64.0.1/x",        // carrier-grade NAT
		"https://[fd00::1]/x",         // unique local
		"https://[::ffff:10.0.0.1]/x", // private, IPv4-mapped
		"https://user:pw@example.com/x",
		"ftp://example.com/x",
	} {
		r := h.Do("POST", "/api/v1/user/webhooks", fmt.Sprintf(`{"url":%q,"events":["checkin.due"]}`, url), testserver.Bearer(tok)...)
		testserver.ExpectError(t, r, 400, errcode.Validation)
		if !strings.Contains(string(r.Raw), `"path":"url"`) {
			t.Errorf("%s: the refusal names no url field: %s", url, r.Raw)
		}
	}
	r := h.Do("POST", "/api/v1/user/webhooks", `{"url":"https://example.com/x","events":["nope"]}`, testserver.Bearer(tok)...)
	testserver.ExpectError(t, r, 400, errcode.Validation)
	testserver.ExpectError(t, h.Do("POST", "/api/v1/user/webhooks", `{"events":["checkin.due"]}`, testserver.Bearer(tok)...), 400, errcode.Missing)
}

func TestAtMostTenEndpoints(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("ann", "free", "")
	for i := range hooks.MaxHooks {
		register(t, h, tok, fmt.Sprintf("https://hooks.example.com/%d", i))
	}
	r := h.Do("POST", "/api/v1/user/webhooks", `{"url":"https://hooks.example.com/x","events":["checkin.due"]}`, testserver.Bearer(tok)...)
	testserver.ExpectError(t, r, 409, errcode.Conflict)
	if r := h.Do("GET", "/api/v1/user/webhooks", "", testserver.Bearer(tok)...); r.Body["meta"].(map[string]any)["total"] != float64(hooks.MaxHooks) {
		t.Errorf("list: %s", r.Raw)
	}
}

// receiver is a webhook endpoint on loopback that records what it is sent
// and answers status.
type receiver struct {
	mu     sync.Mutex
	status int
	got    []*http.Request
	bodies [][]byte
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	rv.got, rv.bodies = append(rv.got, r), append(rv.bodies, body)
	status := rv.status
	rv.mu.Unlock()
	w.WriteHeader(status)
}

func worker(h *testserver.Harness) *hooks.Worker {
	return &hooks.Worker{DB: h.DB, Client: hooks.NewClient(true), Now: h.Clock}
}

func deliveries(t *testing.T, h *testserver.Harness, user string) []any {
	t.Helper()
	r := h.Do("GET", "/api/v1/user/deliveries", "", testserver.Bearer(h.Token(user, "free", ""))...)
	if r.Status != 200 {
		t.Fatalf("deliveries: %d %s", r.Status, r.Raw)
	}
	list, _ := r.Body["data"].([]any)
	return list
}

// A test event reaches a loopback endpoint in local mode, signed so that
// the secret given at registration verifies it; a failing endpoint is
// retried on the backoff schedule and then marked failed.
func TestDeliveryIsSignedAndRetried(t *testing.T) {
	h := testserver.New(t, local)
	tok := h.Token("ann", "free", "")
	rv := &receiver{status: 204}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	id, secret := register(t, h, tok, srv.URL+"/hook")
	r := h.Do("POST", "/api/v1/user/webhooks/"+id+"/test", "", testserver.Bearer(tok)...)
	if r.Status != 202 || r.Data()["type"] != "test" {
		t.Fatalf("test event: %d %s", r.Status, r.Raw)
	}
	w := worker(h)
	if n, err := w.Deliver(context.Background()); n != 1 || err != nil {
		t.Fatalf("deliver: %d %v", n, err)
	}
	if len(rv.got) != 1 {
		t.Fatalf("the endpoint got %d requests", len(rv.got))
	}
	req, body := rv.got[0], rv.bodies[0]
	if req.Header.Get("webhook-id") != r.Data()["id"] {
		t.Errorf("webhook-id %q, want the event's id %v", req.Header.Get("webhook-id"), r.Data()["id"])
	}
	ts, err := strconv.ParseInt(req.Header.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		t.Fatalf("webhook-timestamp %q: %v", req.Header.Get("webhook-timestamp"), err)
	}
	want, err := hooks.Sign(secret, req.Header.Get("webhook-id"), time.Unix(ts, 0), body)
	if err != nil || req.Header.Get("webhook-signature") != want.Signature || ts != h.Clock().Unix() {
		t.Fatalf("signature %q at %d, want %q (%v)", req.Header.Get("webhook-signature"), ts, want.Signature, err)
	}
	if d := deliveries(t, h, "ann")[0].(map[string]any); d["status"] != "delivered" || d["attempts"] != 1.0 || d["lastStatus"] != 204.0 {
		t.Fatalf("delivery: %v", d)
	}

	rv.status = 500
	h.Do("POST", "/api/v1/user/webhooks/"+id+"/test", "", testserver.Bearer(tok)...)
	for i := 0; i <= len(hooks.Backoff); i++ {
		if n, err := w.Deliver(context.Background()); n != 1 || err != nil {
			t.Fatalf("attempt %d: %d %v", i+1, n, err)
		}
		d := deliveries(t, h, "ann")[0].(map[string]any)
		if i < len(hooks.Backoff) {
			if d["status"] != "pending" || d["lastStatus"] != 500.0 || d["nextAt"] != h.Clock().Add(hooks.Backoff[i]).Format(time.RFC3339) {
				t.Fatalf("after attempt %d: %v", i+1, d)
			}
			if n, _ := w.Deliver(context.Background()); n != 0 {
				t.Fatalf("retried before its time after attempt %d", i+1)
			}
			h.Advance(hooks.Backoff[i])
		} else if d["status"] != "failed" || d["attempts"] != float64(len(hooks.Backoff)+1) {
			t.Fatalf("after the last retry: %v", d)
		}
	}
	if len(rv.got) != 2+len(hooks.Backoff) {
		t.Errorf("the endpoint got %d requests, want %d", len(rv.got), 2+len(hooks.Backoff))
	}
}

// The export lists the endpoints without secrets, the events and the
// deliveries; erasure removes them.
func TestExportAndErase(t *testing.T) {
	h := testserver.New(t)
	tok := h.Token("ann", "free", "")
	id, secret := register(t, h, tok, "https://hooks.example.com/x")
	h.Do("POST", "/api/v1/user/webhooks/"+id+"/test", "", testserver.Bearer(tok)...)
	r := h.Do("GET", "/api/v1/user/export", "", testserver.Bearer(tok)...)
	raw := string(r.Raw)
	if strings.Contains(raw, secret) || !strings.Contains(raw, `"webhooks":[{"id":"`+id) || !strings.Contains(raw, `"eventType":"test"`) || !strings.Contains(raw, `"type":"test"`) {
		t.Fatalf("export: %s", raw)
	}
	if r := h.Do("DELETE", "/api/v1/user", "", testserver.Bearer(tok)...); r.Status != 204 {
		t.Fatal(r.Status)
	}
	hs, _ := h.DB.Hooks("ann")
	dls, _, _ := h.DB.Deliveries("ann", 0, 10)
	if len(hs)+len(dls) != 0 {
		t.Fatalf("after erasure: %v %v", hs, dls)
	}
}

// The scheduled job raises a plan's yearly check-in once, however often
// it runs.
func TestRaiseDueOnce(t *testing.T) {
	h := testserver.New(t)
	doc := `{"id":"pln_aaaaaaaaaaaaaaaaaaaaaaaaaa","name":"Lean","createdAt":"2025-11-01T09:00:00Z","input":{}}`
	if err := h.DB.CreatePlan("ann", "pln_aaaaaaaaaaaaaaaaaaaaaaaaaa", []byte(doc), 100, nil, nil); err != nil {
		t.Fatal(err)
	}
	w := worker(h)
	for i, want := range []int{1, 0} {
		if n, err := w.RaiseDue(h.Clock()); n != want || err != nil {
			t.Fatalf("run %d: %d %v, want %d", i+1, n, err, want)
		}
	}
	evs, _, _ := h.DB.Events("ann", 0, 10)
	if len(evs) != 1 || evs[0].Type != store.CheckinDue || !strings.Contains(string(evs[0].Data), `"checkinDate":"2026-11-01"`) {
		t.Fatalf("events: %+v", evs)
	}
}

func TestDueDate(t *testing.T) {
	created := time.Date(2024, 2, 29, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		mmdd string
		now  string
		want string // "" when not due
	}{
		{"", "2025-02-28", "2025-02-28"}, // a 29 February anniversary falls on the 28th
		{"", "2024-03-01", ""},           // not in the plan's first year
		{"", "2025-02-27", ""},           // not yet
		{"", "2025-04-15", ""},           // more than 30 days ago
		{"06-15", "2025-06-20", "2025-06-15"},
		{"12-31", "2026-01-10", "2025-12-31"},
	} {
		now, _ := time.Parse(time.DateOnly, c.now)
		due, ok := hooks.DueDate(c.mmdd, created, now)
		got := ""
		if ok {
			got = due.Format(time.DateOnly)
		}
		if got != c.want {
			t.Errorf("DueDate(%q, %s) = %q, want %q", c.mmdd, c.now, got, c.want)
		}
	}
}

// A user's deliveries past the per-user rate wait, without an attempt
// counted, until the allowance refills; another user's are not held up.
func TestDeliveriesRateLimitedPerUser(t *testing.T) {
	h := testserver.New(t, local)
	rv := &receiver{status: 204}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	ann, bob := h.Token("ann", "free", ""), h.Token("bob", "free", "")
	annHook, _ := register(t, h, ann, srv.URL)
	bobHook, _ := register(t, h, bob, srv.URL)
	for range 3 {
		h.Do("POST", "/api/v1/user/webhooks/"+annHook+"/test", "", testserver.Bearer(ann)...)
	}
	h.Do("POST", "/api/v1/user/webhooks/"+bobHook+"/test", "", testserver.Bearer(bob)...)
	w := &hooks.Worker{DB: h.DB, Client: hooks.NewClient(true), Now: h.Clock, PerUser: 2}
	if n, err := w.Deliver(context.Background()); n != 4 || err != nil {
		t.Fatalf("deliver: %d %v", n, err)
	}
	if len(rv.got) != 3 {
		t.Fatalf("%d sent, want 3 (ann's two and bob's one)", len(rv.got))
	}
	var waiting map[string]any
	for _, d := range deliveries(t, h, "ann") {
		if d := d.(map[string]any); d["status"] == "pending" {
			waiting = d
		}
	}
	if waiting == nil || waiting["attempts"] != 0.0 || waiting["nextAt"] != h.Clock().Add(30*time.Second).Format(time.RFC3339) {
		t.Fatalf("the third of ann's: %v, want pending, no attempt, after 30 s (2 a minute)", waiting)
	}
	h.Advance(30 * time.Second)
	if n, _ := w.Deliver(context.Background()); n != 1 || len(rv.got) != 4 {
		t.Fatalf("after the wait: %d claimed, %d sent", n, len(rv.got))
	}
}

// A server with its worker on delivers a test event by itself.
func TestServerWorkerDelivers(t *testing.T) {
	h := testserver.New(t, func(c *handlers.Config) { c.Webhooks = handlers.Webhooks{Local: true, Deliver: true} })
	tok := h.Token("ann", "free", "")
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- r.Header.Get("webhook-id"):
		default:
		}
		w.WriteHeader(204)
	}))
	defer srv.Close()
	id, _ := register(t, h, tok, srv.URL)
	ev := h.Do("POST", "/api/v1/user/webhooks/"+id+"/test", "", testserver.Bearer(tok)...).Data()["id"]
	select {
	case wid := <-got:
		if wid != ev {
			t.Fatalf("webhook-id %q, want %v", wid, ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker sent nothing within 30 s")
	}
}
