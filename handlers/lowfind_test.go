package handlers

import (
	"testing"
)

// An If-Match list that holds the current tag among others passes, on
// every kind of tagged write (a document, an asset, a plan).
func TestIfMatchListWithCurrentTag(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	r := h.do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	if r.status != 201 {
		t.Fatalf("create plan: %d %s", r.status, r.raw)
	}
	id := r.data()["id"].(string)
	if r.header["Etag"] == "" {
		t.Fatalf("a new plan's 201 has no ETag: %v", r.header)
	}
	g := h.do("GET", "/api/v1/plans/"+id, "", tok...)
	if g.header["Etag"] != r.header["Etag"] {
		t.Fatalf("the 201's ETag %q is not the plan's %q", r.header["Etag"], g.header["Etag"])
	}
	a := h.do("POST", "/api/v1/assets", `{"name":"World","value":1000}`, tok...)
	aid := a.data()["id"].(string)
	d := h.do("GET", "/api/v1/user/profile", "", tok...)
	for _, c := range []struct{ path, body, tag string }{
		{"/api/v1/plans/" + id, `{"name":"Q"}`, g.header["Etag"]},
		{"/api/v1/assets/" + aid, `{"name":"W"}`, h.do("GET", "/api/v1/assets/"+aid, "", tok...).header["Etag"]},
		{"/api/v1/user/profile", `{"displayName":"A"}`, d.header["Etag"]},
	} {
		for _, list := range []string{`"stale", ` + c.tag, c.tag + `,"stale"`, `W/"x",` + c.tag} {
			cur := h.do("GET", c.path, "", tok...).header["Etag"]
			list = replaceTag(list, c.tag, cur)
			if r := h.do("PATCH", c.path, c.body, append(tok, "If-Match", list)...); r.status != 200 {
				t.Fatalf("PATCH %s with If-Match %s: %d %s", c.path, list, r.status, r.raw)
			}
		}
	}
}

func replaceTag(list, old, cur string) string {
	out := ""
	for i := 0; i < len(list); {
		if len(list)-i >= len(old) && list[i:i+len(old)] == old {
			out += cur
			i += len(old)
			continue
		}
		out += list[i : i+1]
		i++
	}
	return out
}

// A plan PATCH with a key twice, at any depth, is refused naming it.
func TestPlanPatchDuplicateKeys(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	r := h.do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	id := r.data()["id"].(string)
	for _, body := range []string{
		`{"input":{"currentAge":41,"currentAge":42}}`,
		`{"name":"a","name":"b"}`,
		`{"input":{"partner":{"age":40,"age":41}}}`,
	} {
		r := h.do("PATCH", "/api/v1/plans/"+id, body, tok...)
		if r.status != 400 {
			t.Fatalf("PATCH %s: %d %s", body, r.status, r.raw)
		}
	}
}

// POST /plans/{id}/run takes no body: one is refused, not ignored.
func TestPlanRunBody(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.token("alice", "free", ""))
	r := h.do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	id := r.data()["id"].(string)
	if r := h.do("POST", "/api/v1/plans/"+id+"/run", "", tok...); r.status != 200 {
		t.Fatalf("run without a body: %d %s", r.status, r.raw)
	}
	r = h.do("POST", "/api/v1/plans/"+id+"/run", `{"currentAge":50}`, tok...)
	if r.status != 400 {
		t.Fatalf("run with a body: %d %s", r.status, r.raw)
	}
}

// An access line names the client, the user, the route template and the
// answer's size; a probe that succeeds writes none, one that fails does.
func TestAccessLineFields(t *testing.T) {
	var l logLines
	h := newHarness(t, withLog(&l, AccessAll))
	tok := bearer(h.token("alice", "free", ""))
	a := h.do("POST", "/api/v1/assets", `{"name":"World","value":1000}`, tok...)
	id := a.data()["id"].(string)
	l.requests(t)
	r := h.do("GET", "/api/v1/assets/"+id, "", tok...)
	h.do("GET", "/livez", "")
	h.do("GET", "/readyz", "")
	recs := l.requests(t)
	if len(recs) != 1 {
		t.Fatalf("%d access lines, want 1 (probes that succeed are not logged): %v", len(recs), recs)
	}
	rec := recs[0]
	if rec["client"] != h.ip || rec["user"] != "alice" || rec["route"] != "/api/v1/assets/{id}" || rec["bytes"] != float64(len(r.raw)) {
		t.Fatalf("access line %v", rec)
	}
	h.s.Drain()
	h.do("GET", "/readyz", "")
	if recs := l.requests(t); len(recs) != 1 || recs[0]["status"] != 503.0 {
		t.Fatalf("a failing probe's lines: %v", recs)
	}
}

// POST /auth/logout with a bearer token ends that session (204), with no
// Origin asked for; a token that does not verify answers 401.
func TestLogoutBearer(t *testing.T) {
	h := newHarness(t, withWeb(t))
	tok := h.token("alice", "free", "")
	if r := h.do("GET", "/api/v1/user/profile", "", bearer(tok)...); r.status != 200 {
		t.Fatalf("before: %d %s", r.status, r.raw)
	}
	res := h.raw("POST", "/auth/logout", "", bearer(tok)...)
	if res.StatusCode() != 204 {
		t.Fatalf("bearer logout: %d %s", res.StatusCode(), res.Body())
	}
	expectError(t, h.do("GET", "/api/v1/user/profile", "", bearer(tok)...), 401, "UNAUTHORIZED")
	res = h.raw("POST", "/auth/logout", "", bearer("not-a-token")...)
	if res.StatusCode() != 401 {
		t.Fatalf("logout with a bad token: %d %s", res.StatusCode(), res.Body())
	}
}
