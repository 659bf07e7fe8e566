package handlers

import (
	"testing"
)

// An If-Match list that holds the current tag among others passes, on
// every kind of tagged write (a document, an asset, a plan).
func TestIfMatchListWithCurrentTag(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	if r.Status != 201 {
		t.Fatalf("create plan: %d %s", r.Status, r.Raw)
	}
	id := r.Data()["id"].(string)
	if r.Header["Etag"] == "" {
		t.Fatalf("a new plan's 201 has no ETag: %v", r.Header)
	}
	g := h.Do("GET", "/api/v1/plans/"+id, "", tok...)
	if g.Header["Etag"] != r.Header["Etag"] {
		t.Fatalf("the 201's ETag %q is not the plan's %q", r.Header["Etag"], g.Header["Etag"])
	}
	a := h.Do("POST", "/api/v1/assets", `{"name":"World","value":1000}`, tok...)
	aid := a.Data()["id"].(string)
	d := h.Do("GET", "/api/v1/user/profile", "", tok...)
	for _, c := range []struct{ path, body, tag string }{
		{"/api/v1/plans/" + id, `{"name":"Q"}`, g.Header["Etag"]},
		{"/api/v1/assets/" + aid, `{"name":"W"}`, h.Do("GET", "/api/v1/assets/"+aid, "", tok...).Header["Etag"]},
		{"/api/v1/user/profile", `{"displayName":"A"}`, d.Header["Etag"]},
	} {
		for _, list := range []string{`"stale", ` + c.tag, c.tag + `,"stale"`, `W/"x",` + c.tag} {
			cur := h.Do("GET", c.path, "", tok...).Header["Etag"]
			list = replaceTag(list, c.tag, cur)
			if r := h.Do("PATCH", c.path, c.body, append(tok, "If-Match", list)...); r.Status != 200 {
				t.Fatalf("PATCH %s with If-Match %s: %d %s", c.path, list, r.Status, r.Raw)
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
	tok := bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	id := r.Data()["id"].(string)
	for _, body := range []string{
		`{"input":{"currentAge":41,"currentAge":42}}`,
		`{"name":"a","name":"b"}`,
		`{"input":{"partner":{"age":40,"age":41}}}`,
	} {
		r := h.Do("PATCH", "/api/v1/plans/"+id, body, tok...)
		if r.Status != 400 {
			t.Fatalf("PATCH %s: %d %s", body, r.Status, r.Raw)
		}
	}
}

// POST /plans/{id}/run takes no body: one is refused, not ignored.
func TestPlanRunBody(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/plans", `{"name":"P","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, tok...)
	id := r.Data()["id"].(string)
	if r := h.Do("POST", "/api/v1/plans/"+id+"/run", "", tok...); r.Status != 200 {
		t.Fatalf("run without a body: %d %s", r.Status, r.Raw)
	}
	r = h.Do("POST", "/api/v1/plans/"+id+"/run", `{"currentAge":50}`, tok...)
	if r.Status != 400 {
		t.Fatalf("run with a body: %d %s", r.Status, r.Raw)
	}
}

// An access line names the client, the user, the route template and the
// answer's size; a probe that succeeds writes none, one that fails does.
func TestAccessLineFields(t *testing.T) {
	var l logLines
	h := newHarness(t, withLog(&l, AccessAll))
	tok := bearer(h.Token("alice", "free", ""))
	a := h.Do("POST", "/api/v1/assets", `{"name":"World","value":1000}`, tok...)
	id := a.Data()["id"].(string)
	l.requests(t)
	r := h.Do("GET", "/api/v1/assets/"+id, "", tok...)
	h.Do("GET", "/livez", "")
	h.Do("GET", "/readyz", "")
	recs := l.requests(t)
	if len(recs) != 1 {
		t.Fatalf("%d access lines, want 1 (probes that succeed are not logged): %v", len(recs), recs)
	}
	rec := recs[0]
	if rec["client"] != h.IP || rec["user"] != "alice" || rec["route"] != "/api/v1/assets/{id}" || rec["bytes"] != float64(len(r.Raw)) {
		t.Fatalf("access line %v", rec)
	}
	h.S.Drain()
	h.Do("GET", "/readyz", "")
	if recs := l.requests(t); len(recs) != 1 || recs[0]["status"] != 503.0 {
		t.Fatalf("a failing probe's lines: %v", recs)
	}
}

// POST /auth/logout with a bearer token ends that session (204), with no
// Origin asked for; a token that does not verify answers 401.
func TestLogoutBearer(t *testing.T) {
	h := newHarness(t, withWeb(t))
	tok := h.Token("alice", "free", "")
	if r := h.Do("GET", "/api/v1/user/profile", "", bearer(tok)...); r.Status != 200 {
		t.Fatalf("before: %d %s", r.Status, r.Raw)
	}
	res := h.Send("POST", "/auth/logout", "", bearer(tok)...)
	if res.Status != 204 {
		t.Fatalf("bearer logout: %d %s", res.Status, res.Raw)
	}
	expectError(t, h.Do("GET", "/api/v1/user/profile", "", bearer(tok)...), 401, "UNAUTHORIZED")
	res = h.Send("POST", "/auth/logout", "", bearer("not-a-token")...)
	if res.Status != 401 {
		t.Fatalf("logout with a bad token: %d %s", res.Status, res.Raw)
	}
}
