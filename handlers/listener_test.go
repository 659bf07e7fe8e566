package handlers

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

// flaky fails its first accepts with err, then accepts from the real
// listener.
type flaky struct {
	net.Listener
	fails int
	err   error
}

func (f *flaky) Accept() (net.Conn, error) {
	if f.fails > 0 {
		f.fails--
		return nil, f.err
	}
	return f.Listener.Accept()
}

// Running out of file descriptors, or a connection aborted before it was
// accepted, passes: Accept backs off and tries again instead of ending the
// server. Any other error ends Accept.
func TestAcceptSurvivesTransientErrors(t *testing.T) {
	h := newHarness(t)
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ECONNABORTED,
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l := h.S.Listen(&flaky{Listener: ln, fails: 4, err: e})
		go func() {
			if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
				defer c.Close()
				time.Sleep(time.Second)
			}
		}()
		c, err := l.Accept()
		if err != nil {
			t.Fatalf("%v: Accept gave up: %v", e, err)
		}
		c.Close()
		l.Close()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	permanent := errors.New("the listener is broken")
	if _, err := h.S.Listen(&flaky{Listener: ln, fails: 1, err: permanent}).Accept(); !errors.Is(err, permanent) {
		t.Fatalf("a permanent error: %v", err)
	}
}

// serveLimited serves h's server on a loopback listener held to lim.
func serveLimited(t *testing.T, lim ConnLimits, opts ...option) string {
	t.Helper()
	h := newHarness(t, append(opts, func(c *Config) { c.Conns = lim })...)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := h.S.HTTP()
	go srv.Serve(h.S.Listen(ln)) //nolint:errcheck // ends when the listener closes
	t.Cleanup(func() { _ = srv.Shutdown() })
	return ln.Addr().String()
}

func dialN(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		t.Cleanup(func() { c.Close() })
	}
	return conns
}

func get(t *testing.T, c net.Conn) *fasthttp.Response {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a late answer fails the read
	fmt.Fprint(c, "GET /api/v1/status HTTP/1.1\r\nHost: x\r\n\r\n")
	res := &fasthttp.Response{}
	if err := res.Read(bufio.NewReader(c)); err != nil {
		t.Fatal(err)
	}
	return res
}

// One address holds at most PerIP connections; the next is answered 429
// in the envelope and closed, and a closed connection frees its place.
func TestConnectionsPerAddress(t *testing.T) {
	addr := serveLimited(t, ConnLimits{PerIP: 3})
	held := dialN(t, addr, 3)
	for _, c := range held {
		if res := get(t, c); res.StatusCode() != 200 {
			t.Fatalf("within the limit: %d", res.StatusCode())
		}
	}
	over := dialN(t, addr, 1)[0]
	over.SetDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a late answer fails the read
	var res fasthttp.Response
	if err := res.Read(bufio.NewReader(over)); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode() != 429 || resCode(&res) != errcode.RateLimited || string(res.Header.Peek("Retry-After")) != "1" {
		t.Fatalf("over the limit: %d %s", res.StatusCode(), res.Body())
	}
	held[0].Close()
	time.Sleep(50 * time.Millisecond) // the server sees the close
	if res := get(t, dialN(t, addr, 1)[0]); res.StatusCode() != 200 {
		t.Fatalf("after a close: %d", res.StatusCode())
	}
}

// A trusted proxy carries many clients: it is exempt from the limit.
func TestTrustedProxyHoldsManyConnections(t *testing.T) {
	addr := serveLimited(t, ConnLimits{PerIP: 2}, func(c *Config) {
		c.TrustedProxies = mustPrefixes("127.0.0.0/8")
	})
	for _, c := range dialN(t, addr, 5) {
		if res := get(t, c); res.StatusCode() != 200 {
			t.Fatalf("behind a proxy: %d", res.StatusCode())
		}
	}
}

// Past Max, a new connection waits unanswered until one closes; then it is
// served.
func TestConnectionsInAll(t *testing.T) {
	addr := serveLimited(t, ConnLimits{Max: 2, PerIP: -1})
	held := dialN(t, addr, 2)
	for _, c := range held {
		if res := get(t, c); res.StatusCode() != 200 {
			t.Fatalf("within the limit: %d", res.StatusCode())
		}
	}
	waiting := dialN(t, addr, 1)[0]
	fmt.Fprint(waiting, "GET /api/v1/status HTTP/1.1\r\nHost: x\r\n\r\n")
	waiting.SetReadDeadline(time.Now().Add(300 * time.Millisecond)) //nolint:errcheck // the read must time out
	if _, err := waiting.Read(make([]byte, 1)); err == nil {
		t.Fatal("a connection past the limit was served")
	}
	held[0].Close()
	waiting.SetReadDeadline(time.Now().Add(5 * time.Second)) //nolint:errcheck // a late answer fails the read
	var res fasthttp.Response
	if err := res.Read(bufio.NewReader(waiting)); err != nil || res.StatusCode() != 200 {
		t.Fatalf("after a close: %v %d", err, res.StatusCode())
	}
}

func TestDefaultMaxConns(t *testing.T) {
	for nofile, want := range map[uint64]int{1024: 896, 256: 128, 100: 16, 1 << 20: 16384, 16384 + 128: 16384} {
		if got := capConns(nofile); got != want {
			t.Errorf("capConns(%d) = %d, want %d", nofile, got, want)
		}
	}
}

// IPv6 clients are held to the per-address limit by network, as the rate
// limit counts them: one host cannot open PerIP connections from each of
// its 2^64 addresses.
func TestConnectionsPerIPv6Network(t *testing.T) {
	l := &listener{perIP: 2, ips: map[[16]byte]int{}, v6prefix: 64}
	a, b, other := netip.MustParseAddr("2001:db8:1:2::1"), netip.MustParseAddr("2001:db8:1:2:ffff::9"), netip.MustParseAddr("2001:db8:1:3::1")
	if !l.take(a) || !l.take(b) {
		t.Fatal("within the limit")
	}
	if l.take(netip.MustParseAddr("2001:db8:1:2::3")) {
		t.Fatal("a third address of the same /64 got a connection")
	}
	if !l.take(other) {
		t.Fatal("another /64 is another client")
	}
	v4 := &listener{perIP: 1, ips: map[[16]byte]int{}, v6prefix: 64}
	if !v4.take(netip.MustParseAddr("192.0.2.1")) || !v4.take(netip.MustParseAddr("192.0.2.2")) {
		t.Fatal("IPv4 addresses count one by one")
	}
}
