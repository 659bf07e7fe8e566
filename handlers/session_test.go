package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/handlers/auth"
)

// pgStore opens a store in a fresh schema of FI_TEST_POSTGRES, dropped
// when the test ends; without FI_TEST_POSTGRES the test is skipped.
func pgStore(t *testing.T) store.Store {
	t.Helper()
	base := os.Getenv("FI_TEST_POSTGRES")
	if base == "" {
		t.Skip("PostgreSQL tests skipped: set FI_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them")
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "fiplan_handlers_" + hex.EncodeToString(b[:])
	exec := func(sql string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Fatalf("cannot connect to FI_TEST_POSTGRES: %v", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(`CREATE SCHEMA ` + name)
	t.Cleanup(func() { exec(`DROP SCHEMA ` + name + ` CASCADE`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	db, err := postgres.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestKeyTierFollowsDowngradeOnEveryNode: two servers on one PostgreSQL
// store. The tier a key acts with is the one of the user's most recently
// issued session token, whichever node saw it, at once; an older token
// still in use does not bring the old tier back.
func TestKeyTierFollowsDowngradeOnEveryNode(t *testing.T) {
	db := pgStore(t)
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	sign := func(h *harness, tier string) string {
		h.advance(time.Second) // one issue time per token
		return h.token("dave", tier, "")
	}
	ok := func(h *harness, tok string) {
		t.Helper()
		if r := h.do("GET", "/api/v1/user/profile", "", bearer(tok)...); r.status != 200 {
			t.Fatalf("profile: %d %s", r.status, r.raw)
		}
	}
	keyLimit := func(h *harness, key string) string {
		t.Helper()
		r := h.do("GET", "/api/v1/user/profile", "", bearer(key)...)
		if r.status != 200 {
			t.Fatalf("profile with key: %d %s", r.status, r.raw)
		}
		return r.header["Ratelimit-Limit"]
	}
	optimize := func(h *harness, key string) string {
		t.Helper()
		return h.do("POST", "/api/v1/tax/optimize", `{}`, bearer(key)...).code()
	}

	ok(a, sign(a, "free"))
	b.advance(time.Second)
	pro := sign(b, "pro")
	ok(b, pro)
	key, _ := b.do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, bearer(pro)...).data()["key"].(string)
	if key == "" {
		t.Fatal("no key")
	}
	if got := keyLimit(a, key); got != "6000" || optimize(a, key) == "SUBSCRIPTION_REQUIRED" {
		t.Fatalf("key of a pro user on the other node: limit %s", got)
	}

	// The downgrade: node a sees a newer token with tier free. Node a
	// saw free before, which it must not take for the stored tier.
	a.advance(3 * time.Second)
	ok(a, sign(a, "free"))
	for _, h := range []*harness{a, b} {
		if got := keyLimit(h, key); got != "600" || optimize(h, key) != "SUBSCRIPTION_REQUIRED" {
			t.Fatalf("after the downgrade, the key acts as pro (limit %s)", got)
		}
	}
	// The older pro token, still valid, shown to a node that has not seen it.
	ok(a, pro)
	if got := keyLimit(b, key); got != "600" || optimize(b, key) != "SUBSCRIPTION_REQUIRED" {
		t.Fatalf("an older pro token brought the pro tier back (limit %s)", got)
	}
	// An upgrade is as immediate.
	b.advance(10 * time.Second)
	ok(b, sign(b, "pro"))
	if got := keyLimit(a, key); got != "6000" {
		t.Fatalf("after the upgrade, the key's limit is %s", got)
	}
}

// TestRevokedSessionRefused: a session token whose session the store
// holds as revoked is refused at once, whatever the token cache holds;
// other sessions of the user are not.
func TestRevokedSessionRefused(t *testing.T) {
	h := newHarness(t)
	tok, other := h.token("erin", "free", ""), ""
	h.advance(time.Second)
	other = h.token("erin", "free", "")
	for _, tk := range []string{tok, other} {
		if r := h.do("GET", "/api/v1/user/profile", "", bearer(tk)...); r.status != 200 {
			t.Fatalf("before revocation: %d %s", r.status, r.raw)
		}
	}
	p, err := h.s.verifier.Verify([]byte(tok))
	if err != nil {
		t.Fatal(err)
	}
	if p.Session != auth.TokenID(tok) {
		t.Fatalf("a token without sid is named %q", p.Session)
	}
	if _, err := h.db.Revoke(p.Session, time.Unix(p.Expires, 0), h.clock()); err != nil {
		t.Fatal(err)
	}
	r := h.do("GET", "/api/v1/user/profile", "", bearer(tok)...)
	expectError(t, r, 401, "UNAUTHORIZED")
	r = h.do("GET", "/api/v1/user/profile", "", "Cookie", SessionCookie+"="+tok)
	expectError(t, r, 401, "UNAUTHORIZED")
	if _, err := h.s.Credential([]byte(tok)); err == nil {
		t.Fatal("Credential (MCP) accepts a revoked session")
	}
	if r := h.do("GET", "/api/v1/user/profile", "", bearer(other)...); r.status != 200 {
		t.Fatalf("another session of the user: %d %s", r.status, r.raw)
	}

	// A token carrying a sid is named by it: revoking the sid ends every
	// token of that sign-in.
	sign := func() string {
		h.advance(time.Second)
		s, err := auth.Sign(testSecret, auth.Claims{Sub: "erin", Sid: "sign-in-1"}, h.clock())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s1, s2 := sign(), sign()
	if r := h.do("GET", "/api/v1/user/profile", "", bearer(s2)...); r.status != 200 {
		t.Fatalf("before revocation: %d %s", r.status, r.raw)
	}
	if _, err := h.db.Revoke(auth.SessionID("sign-in-1"), h.clock().Add(time.Hour), h.clock()); err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{s1, s2} {
		expectError(t, h.do("GET", "/api/v1/user/profile", "", bearer(tk)...), 401, "UNAUTHORIZED")
	}
}
