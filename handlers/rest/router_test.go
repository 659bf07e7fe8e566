package rest

import (
	"strings"
	"testing"
)

func testRouter(t *testing.T) *Router {
	t.Helper()
	var rt Router
	for _, r := range []*Route{
		Get("/api/v1/status", Public, nil, nil),
		Get("/api/v1/assets/summary", User, nil, nil),
		Get("/api/v1/assets/{id}", User, nil, nil),
		Delete("/api/v1/assets/{id}", User, nil, nil),
		Get("/api/v1/user/api-keys", User, nil, nil),
		Delete("/api/v1/user/api-keys/{id}", Session, nil, nil),
	} {
		if err := rt.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	return &rt
}

func TestRouterFindsRoutesAndParameters(t *testing.T) {
	rt := testRouter(t)
	var p Params
	for _, c := range []struct {
		path, method, want, id string
	}{
		{"/api/v1/status", "GET", "/api/v1/status", ""},
		{"/api/v1/status/", "GET", "/api/v1/status", ""},
		{"/api/v1/assets/summary", "GET", "/api/v1/assets/summary", ""}, // static before parameter
		{"/api/v1/assets/ast_1", "DELETE", "/api/v1/assets/{id}", "ast_1"},
		{"/api/v1/user/api-keys/key_abc", "DELETE", "/api/v1/user/api-keys/{id}", "key_abc"},
	} {
		n := rt.Lookup([]byte(c.path), &p)
		if n == nil || n.Route([]byte(c.method)) == nil || n.Route([]byte(c.method)).Path != c.want {
			t.Errorf("%s %s: not routed to %s", c.method, c.path, c.want)
			continue
		}
		if string(p.get("id")) != c.id {
			t.Errorf("%s: id %q, want %q", c.path, p.get("id"), c.id)
		}
	}
	for _, path := range []string{"", "api/v1/status", "/api/v1", "/api/v1/nope", "/api/v1//status", "/api/v1/status//", "/api/v1/assets/a/b"} {
		if rt.Lookup([]byte(path), &p) != nil {
			t.Errorf("%q is routed", path)
		}
	}
	n := rt.Lookup([]byte("/api/v1/assets/x"), &p)
	if n.Allow() != "GET, HEAD, DELETE, OPTIONS" || n.Route([]byte("PUT")) != nil || n.Route([]byte("BREW")) != nil {
		t.Errorf("allow %q", n.Allow())
	}
}

func TestRouterRefusesAmbiguousRoutes(t *testing.T) {
	for _, c := range []struct {
		r    *Route
		want string
	}{
		{Get("/api/v1/status", Public, nil, nil), "already routed"},
		{Get("/api/v1/assets/{key}/x", User, nil, nil), "conflicting parameter names"},
		{&Route{Method: "BREW", Path: "/api/v1/pot", Doc: &Doc{}}, "unsupported method"},
		{Get("/a/{b}/{c}/{d}/{e}/{f}", User, nil, nil), "too many parameters"},
	} {
		err := testRouter(t).Add(c.r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: err %v, want %q", c.r.Method, c.r.Path, err, c.want)
		}
	}
}

func TestRouterAllocatesNothing(t *testing.T) {
	rt := testRouter(t)
	var p Params
	paths := [][]byte{[]byte("/api/v1/status"), []byte("/api/v1/user/api-keys/key_abc"), []byte("/api/v1/nope")}
	if n := testing.AllocsPerRun(1000, func() {
		for _, path := range paths {
			rt.Lookup(path, &p)
		}
	}); n != 0 {
		t.Fatalf("routing allocates %v times", n)
	}
}
