package limit

// The anonymous limit counts clients by address. An IPv4 address is one
// client, but an IPv6 host or subscriber is handed a whole network (a /64
// at the least, often a /56 or a /48) and can send from any address in it,
// so counting each IPv6 address apart would give one client as many
// buckets as it cares to use. IPv6 addresses are counted by prefix.

// IPv6 prefix lengths an address may be counted by: DefaultIPv6Prefix, the
// smallest network a host is given, unless configured otherwise within
// [MinIPv6Prefix, MaxIPv6Prefix].
const (
	DefaultIPv6Prefix = 64
	MinIPv6Prefix     = 32
	MaxIPv6Prefix     = 128
)

// AddrKey is the key addr (16 bytes, IPv4 mapped into IPv6 as
// ::ffff:a.b.c.d) is counted under: an IPv4 address as it is, an IPv6
// address cut to its first bits bits (the rest zero), so that every
// address of one network shares a bucket. bits outside [MinIPv6Prefix,
// MaxIPv6Prefix] is taken as DefaultIPv6Prefix (see IPv6Prefix).
func AddrKey(addr [16]byte, bits int) [16]byte {
	if isMapped4(&addr) {
		return addr
	}
	bits = IPv6Prefix(bits)
	for i := bits / 8; i < 16; i++ {
		keep := 0
		if i == bits/8 {
			keep = bits % 8
		}
		addr[i] &= ^byte(0xff >> keep)
	}
	return addr
}

// IPv6Prefix is the prefix length bits stands for: itself within
// [MinIPv6Prefix, MaxIPv6Prefix], else DefaultIPv6Prefix.
func IPv6Prefix(bits int) int {
	if bits < MinIPv6Prefix || bits > MaxIPv6Prefix {
		return DefaultIPv6Prefix
	}
	return bits
}

// isMapped4 reports whether a is an IPv4 address mapped into IPv6.
func isMapped4(a *[16]byte) bool {
	for _, b := range a[:10] {
		if b != 0 {
			return false
		}
	}
	return a[10] == 0xff && a[11] == 0xff
}
