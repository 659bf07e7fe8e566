package handlers

import (
	"testing"

	"fiplan/handlers/errcode"
)

func TestHostsAdmit(t *testing.T) {
	public := NewHosts("fiplan.example", "api.fiplan.example:443")
	local := NewHosts("localhost:8080")
	for _, c := range []struct {
		hs   Hosts
		host string
		want bool
	}{
		{public, "fiplan.example", true},
		{public, "FIPLAN.example:8443", true},
		{public, "api.fiplan.example", true},
		{public, "", true},
		{public, "203.0.113.9:8080", true},
		{public, "[2001:db8::1]:8080", true},
		{public, "evil.example", false},
		{public, "fiplan.example.evil.example", false},
		{public, "localhost", false},
		{public, "1.2.3", false},
		{public, "[not-an-ip]", false},
		{local, "localhost:8080", true},
		{local, "app.localhost", true},
		{local, "127.0.0.1:8080", true},
		{local, "[::1]:8080", true},
		{local, "rebind.attacker.example:8080", false},
		{local, "notlocalhost", false},
		{NewHosts("127.0.0.1:8080"), "localhost", true},
		{Hosts{}, "anything.example", true},
	} {
		if got := c.hs.admits([]byte(c.host)); got != c.want {
			t.Errorf("%v admits %q = %v, want %v", c.hs, c.host, got, c.want)
		}
	}
	a, b, c := []byte("fiplan.example:443"), []byte("app.localhost:8080"), []byte("203.0.113.9")
	n := testing.AllocsPerRun(100, func() {
		public.admits(a)
		local.admits(b)
		public.admits(c)
	})
	if n != 0 {
		t.Fatalf("admits allocates %v times", n)
	}
}

// A page on another site whose name was pointed at this server (DNS
// rebinding) reaches it with that name in Host, and is refused; the
// names served, and the server's own chain as MCP calls it, pass.
func TestHostCheckedAtTheNetworkDoor(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Hosts = NewHosts("fiplan.test") })
	if r := h.Do("GET", "/api/v1/status", ""); r.Status != 200 {
		t.Fatalf("the public host: %d %s", r.Status, r.Raw)
	}
	tok := "Bearer " + h.Token("alice", "free", "")
	res := h.rawGetHost("rebound.attacker.example", "/api/v1/user/export", "Authorization", tok)
	if res.StatusCode() != 400 || resCode(res) != errcode.BadRequest {
		t.Fatalf("another host: %d %s", res.StatusCode(), res.Body())
	}
	if res := h.rawGetHost("127.0.0.1:8080", "/api/v1/status"); res.StatusCode() != 200 {
		t.Fatalf("an address: %d %s", res.StatusCode(), res.Body())
	}
	for _, p := range []string{"/livez", "/readyz"} {
		if res := h.rawGetHost("node-3.internal:8080", p); res.StatusCode() != 200 {
			t.Fatalf("a probe by the node's own name: %s %d %s", p, res.StatusCode(), res.Body())
		}
	}
}
