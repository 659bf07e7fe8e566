package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// TestLogoutOnEveryNode: two local-mode processes on one PostgreSQL
// database. A sign-in on one works on the other; after a sign-out on
// one, the session cookie, the same token as a bearer token and the
// refresh cookie are refused there at once and by the other within a second.
func TestLogoutOnEveryNode(t *testing.T) {
	if os.Getenv("FI_TEST_POSTGRES") == "" {
		t.Skip("PostgreSQL tests skipped: set FI_TEST_POSTGRES to run them")
	}
	env := []string{"FI_DB=" + pgSchema(t)}
	a, b := startNode(t, env), startNode(t, env)
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(node *server, method, path, body string, cookies map[string]string, headers ...string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+node.addr+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", "http://"+node.addr)
		for k, v := range cookies {
			req.AddCookie(&http.Cookie{Name: k, Value: v})
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	res := do(a, "POST", "/auth/login", url.Values{"name": {"grace"}, "tier": {"pro"}}.Encode(), nil,
		"Content-Type", "application/x-www-form-urlencoded")
	cookies := map[string]string{}
	for _, c := range res.Cookies() {
		cookies[c.Name] = c.Value
	}
	sess, ref := cookies["fiplan_session"], cookies["fiplan_refresh"]
	if res.StatusCode != 303 || sess == "" || ref == "" {
		t.Fatalf("sign-in: status %d, cookies %v", res.StatusCode, res.Cookies())
	}
	if r := do(b, "GET", "/api/v1/user/profile", "", map[string]string{"fiplan_session": sess}); r.StatusCode != 200 {
		t.Fatalf("the other node: status %d", r.StatusCode)
	}
	r := do(a, "POST", "/auth/logout", "", cookies)
	if r.StatusCode != 303 {
		t.Fatalf("logout: status %d", r.StatusCode)
	}
	if loc := r.Header.Get("Location"); loc != "/" {
		t.Errorf("logout: Location %q, want the relative /", loc)
	}
	if r := do(a, "GET", "/api/v1/user/profile", "", map[string]string{"fiplan_session": sess}); r.StatusCode != 401 {
		t.Errorf("the session cookie after logout, on the node that signed out: status %d", r.StatusCode)
	}
	// The other node reads the mark from the store within about a second.
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		r := do(b, "GET", "/api/v1/user/profile", "", map[string]string{"fiplan_session": sess})
		if r.StatusCode == 401 {
			break
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("the session cookie two seconds after logout: status %d", r.StatusCode)
		}
	}
	if r := do(b, "GET", "/api/v1/user/profile", "", nil, "Authorization", "Bearer "+sess); r.StatusCode != 401 {
		t.Errorf("the session token as a bearer token after logout: status %d", r.StatusCode)
	}
	if r := do(b, "POST", "/auth/refresh", "", map[string]string{"fiplan_refresh": ref}); r.StatusCode != 401 {
		t.Errorf("the refresh cookie after logout: status %d", r.StatusCode)
	}
}
