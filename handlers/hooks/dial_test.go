package hooks_test

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"fiplan/handlers/hooks"
)

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func listen(t *testing.T, network, addr string) (*countingListener, string) {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	cl := &countingListener{Listener: ln}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })}
	go srv.Serve(cl) //nolint:errcheck // ends when the listener closes
	t.Cleanup(func() { srv.Close() })
	return cl, ln.Addr().(*net.TCPAddr).AddrPort().String()
}

// Outside local mode no connection reaches a loopback, private,
// link-local or metadata address: the dialer refuses it at connect time,
// after resolution, whatever the URL named.
func TestDialRefusesPrivateAddresses(t *testing.T) {
	v4, v4addr := listen(t, "tcp4", "127.0.0.1:0")
	port := v4addr[strings.LastIndexByte(v4addr, ':')+1:]
	targets := []string{
		"http://" + v4addr + "/", "https://" + v4addr + "/", "http://localhost:" + port + "/",
		"http://10.0.0.1:" + port + "/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://[fd00::1]/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
	}
	var v6 *countingListener
	if l, addr := listenMaybe("tcp6", "[::1]:0"); l != nil {
		v6 = l
		targets = append(targets, "http://"+addr+"/")
	}
	c := hooks.NewClient(false)
	for _, u := range targets {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			t.Errorf("%s: connected (%d)", u, resp.StatusCode)
			continue
		}
		if !errors.Is(err, hooks.ErrBlocked) {
			t.Errorf("%s: %v, want ErrBlocked", u, err)
		}
	}
	if n := v4.n.Load(); n != 0 {
		t.Errorf("the loopback listener accepted %d connections", n)
	}
	if v6 != nil && v6.n.Load() != 0 {
		t.Errorf("the [::1] listener accepted %d connections", v6.n.Load())
	}
	// Local mode allows loopback, and loopback alone.
	lc := hooks.NewClient(true)
	resp, err := lc.Get("http://" + v4addr + "/")
	if err != nil || resp.StatusCode != 204 {
		t.Fatalf("local mode, loopback: %v", err)
	}
	resp.Body.Close()
	for _, u := range []string{"http://10.0.0.1/", "http://169.254.169.254/", "http://192.168.1.1/"} {
		if _, err := lc.Get(u); !errors.Is(err, hooks.ErrBlocked) {
			t.Errorf("local mode, %s: %v, want ErrBlocked", u, err)
		}
	}
}

func listenMaybe(network, addr string) (*countingListener, string) {
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, ""
	}
	cl := &countingListener{Listener: ln}
	go http.Serve(cl, http.NotFoundHandler()) //nolint:errcheck // ends when the process does
	return cl, ln.Addr().String()
}

// A redirect is answered as it is, never followed.
func TestRedirectNotFollowed(t *testing.T) {
	var hit atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hit.Add(1) }))
	defer target.Close()
	from := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusFound))
	defer from.Close()
	resp, err := hooks.NewClient(true).Post(from.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || hit.Load() != 0 {
		t.Fatalf("status %d, target hit %d times", resp.StatusCode, hit.Load())
	}
}

func TestAllowed(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.215.14": true, "2606:2800:21f:cb07:6820:80da:af6b:8b2c": true, "1.1.1.1": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.0.1": false, "169.254.169.254": false,
		"100.64.0.1": false, "0.0.0.0": false, "::1": false, "fe80::1": false, "fd12::1": false, "::ffff:10.0.0.1": false,
		"64:ff9b::a00:1": false, "224.0.0.1": false, "255.255.255.255": false, "fe80::1%eth0": false, "2002:a00:1::1": false,
		// The IPv4-compatible and IPv4-translated forms embed an IPv4
		// address too; a host with an IPv6-in-IPv4 tunnel may route them.
		"::127.0.0.1": false, "::169.254.169.254": false, "::ffff:0:127.0.0.1": false, "::ffff:0:a00:1": false,
	} {
		if got := hooks.Allowed(netip.MustParseAddr(addr), false); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", addr, got, want)
		}
	}
}
