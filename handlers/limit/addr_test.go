package limit

import (
	"net/netip"
	"testing"
)

func TestAddrKey(t *testing.T) {
	key := func(s string, bits int) string {
		return netip.AddrFrom16(AddrKey(netip.MustParseAddr(s).As16(), bits)).Unmap().String()
	}
	for _, c := range []struct {
		addr string
		bits int
		want string
	}{
		{"192.0.2.7", 64, "192.0.2.7"}, // IPv4: every address its own
		{"192.0.2.7", 32, "192.0.2.7"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 0, "2001:db8:1:2::"}, // out of range: the default
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 200, "2001:db8:1:2::"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 128, "2001:db8:1:2:aaaa:bbbb:cccc:dddd"},
		{"2001:db8:1:2ff:aaaa:bbbb:cccc:dddd", 56, "2001:db8:1:200::"},
		{"2001:db8:1:2ff:aaaa:bbbb:cccc:dddd", 60, "2001:db8:1:2f0::"},
		{"2001:db8:ffff:2:aaaa:bbbb:cccc:dddd", 33, "2001:db8:8000::"},
		{"::1", 64, "::"},
		{"::", 64, "::"},
	} {
		if got := key(c.addr, c.bits); got != c.want {
			t.Errorf("AddrKey(%s, %d) = %s, want %s", c.addr, c.bits, got, c.want)
		}
	}
	a := netip.MustParseAddr("2001:db8::1").As16()
	if n := testing.AllocsPerRun(100, func() { a = AddrKey(a, 64) }); n != 0 {
		t.Fatalf("AddrKey allocates %v times", n)
	}
}
