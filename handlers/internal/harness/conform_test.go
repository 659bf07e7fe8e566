package harness_test

import (
	"testing"

	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
)

// The check of every response against the document fails a response that
// drifts from it, and passes the real ones.
func TestConformanceCatchesDrift(t *testing.T) {
	h := testserver.New(t)
	// A helper test can never itself fail the test it runs in, so each
	// drift is checked on a throwaway T.
	drift := func(method, path string, status int, ctype, body string) bool {
		t.Helper()
		ft := &testing.T{}
		done := make(chan bool)
		go func() {
			defer func() { done <- ft.Failed() }()
			defer func() { recover() }() //nolint:errcheck // Fatal ends the goroutine
			harness.ConformAs(ft, h.S, method, path, status, ctype, []byte(body))
		}()
		return <-done
	}
	if drift("GET", "/api/v1/status", 200, "application/json", string(h.Do("GET", "/api/v1/status", "").Raw)) {
		t.Fatal("a real status response fails the check")
	}
	if drift("POST", "/api/v1/calculator", 200, "text/csv; charset=utf-8", "scenario,year\r\n") {
		t.Fatal("a documented CSV answer fails the check")
	}
	for _, c := range []struct {
		name, method, path string
		status             int
		ctype, body        string
	}{
		{"an undocumented field", "GET", "/api/v1/status", 200, "", `{"success":true,"data":{"status":"ok","version":"x","startedAt":"2026-01-01T00:00:00Z","uptimeSeconds":1,"datasets":[],"storage":{"kind":"bbolt","state":"ok","sizeBytes":1},"extra":1}}`},
		{"a missing field", "GET", "/api/v1/status", 200, "", `{"success":true,"data":{"status":"ok"}}`},
		{"an undocumented status", "GET", "/api/v1/status", 418, "", `{"success":false,"error":"x","code":"CONFLICT"}`},
		{"a code with the wrong status", "GET", "/api/v1/geo/cities", 400, "", `{"success":false,"error":"x","code":"NOT_FOUND"}`},
		{"a body on 204", "DELETE", "/api/v1/user/api-keys/x", 204, "", `{"success":true}`},
		{"an undocumented media type", "GET", "/api/v1/status", 200, "text/csv; charset=utf-8", "status\r\nok\r\n"},
		{"a documented media type on an error status", "POST", "/api/v1/calculator", 400, "text/csv", "x\r\n"},
		{"an empty CSV body", "POST", "/api/v1/calculator", 200, "text/csv", ""},
	} {
		if !drift(c.method, c.path, c.status, c.ctype, c.body) {
			t.Errorf("%s passes the check", c.name)
		}
	}
}
