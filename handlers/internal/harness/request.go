package harness

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"
)

// ClientAddr is the remote address of a request from ip.
func ClientAddr(ip string) *net.TCPAddr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000} }

// Request prepares rc for one request through a server's Serve, from
// 192.0.2.1, without a listener: for benchmarks and fuzzers.
func Request(rc *fasthttp.RequestCtx, method, path, authz, body string) {
	rc.Init(&fasthttp.Request{}, ClientAddr("192.0.2.1"), nil)
	rc.Request.Header.SetMethod(method)
	rc.Request.SetRequestURI(path)
	if authz != "" {
		rc.Request.Header.Set("Authorization", authz)
	}
	rc.Request.SetBodyString(body)
}

// RunRequest serves one request through the whole chain b.N times with
// one reused RequestCtx, checking the status before and after.
func RunRequest(b *testing.B, s Server, method, path, authz, body string, want int) {
	b.Helper()
	var rc fasthttp.RequestCtx
	Request(&rc, method, path, authz, body)
	Serve(b, s, &rc)
	if rc.Response.StatusCode() != want {
		b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	b.SetBytes(int64(len(rc.Response.Body())))
	b.ReportAllocs()
	for b.Loop() {
		rc.Response.Reset()
		s.Serve(&rc)
	}
	if rc.Response.StatusCode() != want {
		b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
	}
}
