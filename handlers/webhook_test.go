package handlers

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"fiplan/handlers/errcode"

	"github.com/valyala/fasthttp"
)

func TestWebGetsEveryPathOutsideAPI(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Web = func(rc *fasthttp.RequestCtx) { rc.SetBodyString("web " + string(rc.Path())) }
	})
	for _, p := range []string{"/", "/app/portfolio", "/static/app.js", "/api", "/apiv1/status"} {
		var rc fasthttp.RequestCtx
		rc.Request.SetRequestURI(p)
		h.S.Serve(&rc)
		if got := string(rc.Response.Body()); got != "web "+p {
			t.Errorf("%s: %d %q, want the web handler", p, rc.Response.StatusCode(), got)
		}
	}
	if r := h.Do("GET", "/api/v1/status", ""); r.Status != 200 || !strings.Contains(string(r.Raw), `"success":true`) {
		t.Errorf("/api/v1/status: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("GET", "/api/nowhere", ""); r.Status != 404 || r.Code() != errcode.EndpointNotFound {
		t.Errorf("/api/nowhere: %d %s", r.Status, r.Raw)
	}
}

// A connection that sends nothing within the read timeout (a browser's
// preconnected socket) is answered 408 and closed, never 400.
func TestIdleConnectionTimesOutWith408(t *testing.T) {
	h := newHarness(t)
	srv := h.S.HTTP()
	srv.ReadTimeout = 100 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln) //nolint:errcheck // ends with the listener
	defer ln.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(conn)
	got := string(b)
	if !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, "Connection: close") || !strings.Contains(got, `"code":"REQUEST_TIMEOUT"`) {
		t.Fatalf("idle connection got %q", got)
	}
}
