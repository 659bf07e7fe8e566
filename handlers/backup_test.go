package handlers

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
)

// fetchRaw sends one request and returns the status, the content type
// and the body as bytes, for the one route whose body is not JSON.
func (h *harness) fetchRaw(method, path string, headers ...string) (int, string, []byte) {
	h.T.Helper()
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(res)
	req.Header.SetMethod(method)
	req.SetRequestURI("http://fiplan.test" + path)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := &fasthttp.Client{Dial: func(string) (net.Conn, error) { return h.LN.Dial() }, MaxResponseBodySize: 64 << 20}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.T.Fatalf("%s %s: %v", method, path, err)
	}
	body := append([]byte(nil), res.Body()...)
	conformAs(h.T, h.S, method, path, res.StatusCode(), string(res.Header.ContentType()), body)
	return res.StatusCode(), string(res.Header.ContentType()), body
}

func TestAdminBackup(t *testing.T) {
	h := newHarness(t)
	alice := bearer(h.Token("alice", "pro", ""))
	if r := h.Do("POST", "/api/v1/assets", `{"name":"World","isin":"IE00BK5BQT80","value":1000}`, alice...); r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	status, ctype, body := h.fetchRaw("GET", "/api/v1/admin/backup", bearer(h.Token("ops", "free", "admin"))...)
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
