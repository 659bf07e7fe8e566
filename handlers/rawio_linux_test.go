//go:build linux

package handlers

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// countingConn counts the calls to a TCP connection's own Read and Write:
// the calls that pass by the scheduler's system-call state.
type countingConn struct {
	*net.TCPConn
	reads, writes *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.TCPConn.Read(p)
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.TCPConn.Write(p)
}

type countingListener struct {
	net.Listener
	reads, writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c.(*net.TCPConn), &l.reads, &l.writes}, nil
}

// Requests and their answers, large ones too, pass whole through the raw
// path: not one read or write of the server's goes through the
// connection's own Read and Write.
func TestServerSocketIOBypassesConnReadWrite(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	srv := h.S.HTTP()
	go srv.Serve(h.S.Listen(cl)) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() { _ = srv.Shutdown() })
	c := &fasthttp.HostClient{Addr: ln.Addr().String(), MaxConns: 2}
	calc := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000}`
	for range 3 {
		for _, r := range []struct{ method, path, body string }{
			{"GET", "/api/v1/geo/cities", ""}, // about 45 KB
			{"POST", "/api/v1/calculator", calc},
			{"GET", "/api/v1/status", ""},
		} {
			req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			req.Header.SetMethod(r.method)
			req.SetRequestURI("http://" + ln.Addr().String() + r.path)
			if r.body != "" {
				req.Header.SetContentType("application/json")
				req.SetBodyString(r.body)
			}
			if err := c.Do(req, res); err != nil {
				t.Fatalf("%s %s: %v", r.method, r.path, err)
			}
			if res.StatusCode() != 200 || !bytes.HasPrefix(res.Body(), []byte(`{"success":true`)) || res.Header.ContentLength() != len(res.Body()) {
				t.Fatalf("%s %s: %d, %d bytes of %d: %.100s", r.method, r.path, res.StatusCode(), len(res.Body()), res.Header.ContentLength(), res.Body())
			}
			fasthttp.ReleaseRequest(req)
			fasthttp.ReleaseResponse(res)
		}
	}
	if r, w := cl.reads.Load(), cl.writes.Load(); r != 0 || w != 0 {
		t.Errorf("%d reads and %d writes went through the connection's own Read and Write", r, w)
	}
}

// acceptPair is a server connection from h's listener and the client's
// end of it.
func acceptPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	h := newHarness(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = h.S.Listen(ln).Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	if server.(*conn).raw.rc == nil {
		t.Fatal("a TCP connection does not take the raw path")
	}
	return server, client
}

// The raw path keeps what net.Conn promises: bytes in order, a deadline's
// timeout error, a write larger than the socket's buffers written whole,
// EOF, the peer's reset, and net.ErrClosed after Close.
func TestRawConnKeepsNetConnBehaviour(t *testing.T) {
	server, client := acceptPair(t)
	if _, err := client.Write([]byte("GET / HTTP/1.1\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := io.ReadAtLeast(server, buf, 16)
	if err != nil || string(buf[:n]) != "GET / HTTP/1.1\r\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}

	server.SetReadDeadline(time.Now().Add(20 * time.Millisecond)) //nolint:errcheck // checked by the read
	_, err = server.Read(buf)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a read past its deadline: %v", err)
	}
	if oe := (*net.OpError)(nil); !errors.As(err, &oe) || oe.Op != "read" {
		t.Fatalf("not a read's *net.OpError: %#v", err)
	}
	server.SetReadDeadline(time.Time{}) //nolint:errcheck // no deadline

	big := make([]byte, 16<<20) // past any socket buffer: the write waits for the reader
	for i := range big {
		big[i] = byte(i * 7)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(client, int64(len(big))))
		got <- b
	}()
	if n, err := server.Write(big); n != len(big) || err != nil {
		t.Fatalf("wrote %d of %d: %v", n, len(big), err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the reader got %d bytes, not the %d written", len(b), len(big))
	}

	client.(*net.TCPConn).SetLinger(0) //nolint:errcheck // a reset, not a FIN
	client.Close()
	if _, err := server.Read(buf); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("a read from a reset connection: %v", err)
	}
	server.Close()
	if _, err := server.Read(buf); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("a read after Close: %v", err)
	}
	if _, err := server.Write(buf); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("a write after Close: %v", err)
	}
}

// A peer that closes its end is read as EOF, as from a net.Conn.
func TestRawConnReadsEOF(t *testing.T) {
	server, client := acceptPair(t)
	client.Write([]byte("x")) //nolint:errcheck // read next
	client.Close()
	b, err := io.ReadAll(server)
	if err != nil || string(b) != "x" {
		t.Fatalf("read %q, %v; want x and EOF", b, err)
	}
}

// The raw path allocates nothing a call: its functions are made once a
// connection.
func TestRawConnAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	server, client := acceptPair(t)
	out, in := []byte("answer"), make([]byte, 6)
	if n := testing.AllocsPerRun(200, func() {
		if _, err := server.Write(out); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(client, in); err != nil {
			t.Fatal(err)
		}
		if _, err := client.Write(in); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(server, in); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("a write and a read through the raw path allocate %v times", n)
	}
}
