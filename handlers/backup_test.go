package handlers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
)

func TestAdminBackup(t *testing.T) {
	h := newHarness(t)
	alice := bearer(h.Token("alice", "pro", ""))
	if r := h.Do("POST", "/api/v1/assets", `{"name":"World","isin":"IE00BK5BQT80","value":1000}`, alice...); r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	r := h.Send("GET", "/api/v1/admin/backup", "", bearer(h.Token("ops", "free", "admin"))...)
	conformAs(t, h.S, "GET", "/api/v1/admin/backup", r.Status, r.ContentType(), r.Raw)
	status, ctype, body := r.Status, r.ContentType(), r.Raw
	if status != 200 || ctype != BackupMedia || len(body) < 8192 {
		t.Fatalf("backup: %d %s, %d bytes", status, ctype, len(body))
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.Check(path); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, total, err := db.AppendAssets(nil, "alice", store.AnyCategory, 0, 10)
	if err != nil || total != 1 || !strings.Contains(string(list), "IE00BK5BQT80") {
		t.Fatalf("the backup holds %d assets: %s %v", total, list, err)
	}

	// Only an admin session: a user, an API key and no credentials are refused.
	expectError(t, h.Do("GET", "/api/v1/admin/backup", "", alice...), 403, errcode.Forbidden)
	expectError(t, h.Do("GET", "/api/v1/admin/backup", ""), 401, errcode.Unauthorized)
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, alice...).Data()["key"].(string)
	expectError(t, h.Do("GET", "/api/v1/admin/backup", "", bearer(key)...), 403, errcode.Forbidden)
}
