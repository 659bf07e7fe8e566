package main

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Text a client stores never holds U+0000, whatever the store: PostgreSQL's
// text refuses it, and both backends answer the same 400 naming the field,
// and store nothing.
func TestNULInStoredTextRefused(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			var db string
			if backend == "bbolt" {
				db = filepath.Join(t.TempDir(), "fiplan.db")
			} else {
				db = pgSchema(t)
			}
			s := start(t, append([]string{"FI_DB=" + db, "FI_JWT_SECRET=" + clusterSecret}, unlimited...)...)
			defer s.stop(t, syscall.SIGTERM)
			tok := bearer(sign(t, fmt.Sprintf("nul-%d", time.Now().UnixNano()), "pro", ""))
			for _, c := range []struct{ method, path, body, field string }{
				{"POST", "/api/v1/user/api-keys", `{"name":"a\u0000b"}`, "name"},
				{"POST", "/api/v1/assets", `{"name":"x\u0000","value":1}`, "name"},
				{"PUT", "/api/v1/user/profile", `{"displayName":"\u0000"}`, "displayName"},
				{"PATCH", "/api/v1/user/profile", `{"city":"Lis\u0000bon"}`, "city"},
			} {
				r := must(t, s.addr, c.method, c.path, c.body, tok...)
				details, _ := r.body["details"].([]any)
				if r.status != 400 || r.code() != "VALIDATION_ERROR" || len(details) != 1 || details[0].(map[string]any)["path"] != c.field {
					t.Fatalf("%s %s: %d %v", c.method, c.path, r.status, r.body)
				}
			}
			if r := must(t, s.addr, "GET", "/api/v1/user/api-keys", "", tok...); r.status != 200 || len(r.body["data"].([]any)) != 0 {
				t.Fatalf("keys after the refusal: %d %v", r.status, r.body)
			}
			if r := must(t, s.addr, "GET", "/api/v1/assets", "", tok...); r.status != 200 || len(r.body["data"].([]any)) != 0 {
				t.Fatalf("assets after the refusal: %d %v", r.status, r.body)
			}
		})
	}
}
