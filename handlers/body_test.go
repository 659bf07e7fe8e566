package handlers

import (
	"bufio"
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A connection holds memory for what it has sent, not for what its
// Content-Length announces: 200 clients that announce a megabyte each and
// send one byte hold far less than 200 megabytes.
func TestSlowBodiesHoldWhatArrived(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	addr := listen(t, h.S)
	const clients = 200
	before := heapInUse()
	conns := make([]net.Conn, 0, clients)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 1<<20)
	}
	// Give the server time to read every head; on a server that allocates
	// the declared length the growth shows within this time.
	const bound = 32 << 20
	var grown uint64
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if now := heapInUse(); now > before {
			grown = max(grown, now-before)
		}
		if grown > bound {
			break
		}
	}
	if grown > bound {
		t.Fatalf("%d slow clients grew the heap by %d MiB (bound %d MiB)", clients, grown>>20, bound>>20)
	}
	t.Logf("%d slow clients grew the heap by %.1f MiB", clients, float64(grown)/(1<<20))
	// The server still answers.
	res := rawExchange(t, addr, "GET /api/v1/status HTTP/1.1\r\nHost: x\r\n\r\n")
	if res.StatusCode() != 200 {
		t.Fatalf("status: %d", res.StatusCode())
	}
}

// A chunked body is cut off at the limit, whatever it says of itself.
func TestChunkedBodyOverTheLimit(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	addr := listen(t, h.S)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck // a late answer fails the read
	fmt.Fprint(conn, "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	chunk := strings.Repeat(" ", 64<<10)
	go func() {
		for range 20 { // 1.25 MiB, over the 1 MiB limit
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
		fmt.Fprint(conn, "0\r\n\r\n")
	}()
	var res fasthttp.Response
	if err := res.Read(bufio.NewReader(conn)); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode() != 413 || resCode(&res) != errcode.PayloadTooLarge || !res.ConnectionClose() {
		t.Fatalf("%d %s (close %v)", res.StatusCode(), res.Body(), res.ConnectionClose())
	}
	// Within the limit, a chunked body is read whole.
	ok := rawExchange(t, addr, "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"+
		"10\r\n{\"currentAge\":30\r\n"+fmt.Sprintf("%x\r\n%s\r\n", 45, `,"annualIncome":90000,"annualExpenses":40000}`)+"0\r\n\r\n")
	if ok.StatusCode() != 200 {
		t.Fatalf("chunked within the limit: %d %s", ok.StatusCode(), ok.Body())
	}
}
