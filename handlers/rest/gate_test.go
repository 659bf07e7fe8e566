package rest

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
)

// gateCaller is a request of an anonymous client at addr, or of user when
// user is not "".
func gateCaller(addr byte, user string) (*Ctx, *fasthttp.RequestCtx) {
	rc := &fasthttp.RequestCtx{}
	c := AcquireCtx(rc, slog.New(slog.DiscardHandler), time.Now())
	c.SetClient([16]byte{15: addr})
	if user != "" {
		c.Principal, c.Authed = auth.Principal{User: user}, true
	}
	return c, rc
}

// One caller holds at most half of the slots: while it does, its next
// expensive request is refused with 503 and Retry-After, and another
// caller's is admitted; the slots it gives back are its own.
func TestGateSharesSlotsFairly(t *testing.T) {
	t.Parallel()
	g := NewGate(4)
	if g.Share() != 2 {
		t.Fatalf("share %d of 4 slots, want 2", g.Share())
	}
	a, _ := gateCaller(1, "")
	for i := range 2 {
		if !g.Enter(a) {
			t.Fatalf("the first caller's request %d was refused", i+1)
		}
	}
	a3, rc := gateCaller(1, "")
	if g.Enter(a3) {
		t.Fatal("the first caller took a third of 4 slots")
	}
	if rc.Response.StatusCode() != 503 || string(rc.Response.Header.Peek("Retry-After")) != "1" ||
		!strings.Contains(string(rc.Response.Body()), "as one caller may") {
		t.Fatalf("refusal: %d %q %s", rc.Response.StatusCode(), rc.Response.Header.Peek("Retry-After"), rc.Response.Body())
	}
	if g.Crowded() != 1 || g.Refused() != 1 {
		t.Fatalf("crowded %d, refused %d, want 1 and 1", g.Crowded(), g.Refused())
	}
	// Another client, and a user signed in from the first client's
	// address, are other callers.
	b, _ := gateCaller(2, "")
	u, _ := gateCaller(1, "alice")
	if !g.Enter(b) || !g.Enter(u) {
		t.Fatal("another caller's request was refused while the first held half the slots")
	}
	// Full: everyone is refused.
	c, rc := gateCaller(3, "")
	if g.Enter(c) || !strings.Contains(string(rc.Response.Body()), "busy") {
		t.Fatalf("a fifth request on 4 slots: %d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	g.Leave(b)
	if g.InUse() != 3 {
		t.Fatalf("%d in use after one left, want 3", g.InUse())
	}
	// The first caller still holds two: the free slot is not theirs.
	if a4, _ := gateCaller(1, ""); g.Enter(a4) {
		t.Fatal("the first caller took a third slot once another caller left")
	}
	g.Leave(a)
	if a5, _ := gateCaller(1, ""); !g.Enter(a5) {
		t.Fatal("the first caller was refused after giving one of its slots back")
	}
}

// A gate of one slot lets one caller have it; the server's own work (a
// nil Ctx) is bounded by the slots alone.
func TestGateShareOfOneSlot(t *testing.T) {
	t.Parallel()
	g := NewGate(1)
	if g.Share() != 1 {
		t.Fatalf("share %d of 1 slot, want 1", g.Share())
	}
	if !g.Enter(nil) {
		t.Fatal("the server's work was refused a free slot")
	}
	g.Leave(nil)
	s := NewGate(3)
	for i := range 3 {
		if !s.Enter(nil) {
			t.Fatalf("the server's work was refused slot %d", i+1)
		}
	}
	if s.InUse() != 3 {
		t.Fatal("the server's work holds every slot")
	}
}

// BenchmarkGate is the admission of an expensive request: a slot taken
// and given back, with other callers holding some.
func BenchmarkGate(b *testing.B) {
	g := NewGate(8)
	others := make([]*Ctx, 3)
	for i := range others {
		others[i], _ = gateCaller(byte(10+i), "")
		g.Enter(others[i])
	}
	c, _ := gateCaller(1, "bob")
	b.ReportAllocs()
	for b.Loop() {
		if !g.Enter(c) {
			b.Fatal("refused")
		}
		g.Leave(c)
	}
}
