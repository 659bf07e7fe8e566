package rest

import (
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

func TestTraceparent(t *testing.T) {
	const id, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	for h, want := range map[string]bool{
		"00-" + id + "-" + parent + "-01":                      true,
		"00-" + id + "-" + parent + "-00":                      true,
		"01-" + id + "-" + parent + "-01-what-follows":         true, // a later version: its first fields
		"01-" + id + "-" + parent + "-01":                      true,
		"00-" + id + "-" + parent + "-01-more":                 false, // version 00 is exactly 55 bytes
		"ff-" + id + "-" + parent + "-01":                      false,
		"00-" + strings.ToUpper(id) + "-" + parent + "-01":     false,
		"00-" + strings.Repeat("0", 32) + "-" + parent + "-01": false,
		"00-" + id + "-" + strings.Repeat("0", 16) + "-01":     false,
		"00-" + id + "-" + parent:                              false,
		"":                                                     false,
		"00_" + id + "-" + parent + "-01":                      false,
	} {
		var tr Trace
		if got := parseTraceparent([]byte(h), &tr); got != want {
			t.Errorf("%q: %v, want %v", h, got, want)
		}
		if want && (string(tr.ID[:]) != id || string(tr.Parent[:]) != parent) {
			t.Errorf("%q: read %s %s", h, tr.ID[:], tr.Parent[:])
		}
	}

	var rc fasthttp.RequestCtx
	c := AcquireCtx(&rc, nil, rc.Time())
	defer ReleaseCtx(c)
	c.StartTrace([]byte("00-" + id + "-" + parent + "-01"))
	tr := c.Trace()
	if !tr.Joined() || string(tr.ID[:]) != id || string(tr.Span[:]) == parent || !lowerHex(tr.Span[:]) || allZero(tr.Span[:]) {
		t.Fatalf("joined: %+v", tr)
	}
	if got := string(tr.Traceparent(nil)); got != "00-"+id+"-"+string(tr.Span[:])+"-01" {
		t.Fatalf("traceparent onward: %s", got)
	}
	c.StartTrace([]byte("garbage"))
	if tr.Joined() || string(tr.ID[:]) == id || !lowerHex(tr.ID[:]) || allZero(tr.ID[:]) || string(tr.Flags[:]) != "00" {
		t.Fatalf("started: %+v", tr)
	}
	h := []byte("00-" + id + "-" + parent + "-01")
	if n := testing.AllocsPerRun(100, func() { c.StartTrace(h) }); n != 0 {
		t.Fatalf("StartTrace allocates %v times", n)
	}
}
