package handlers

import (
	"net"
	"net/netip"
	"os"
)

func tcpAddr(ip string) *net.TCPAddr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000} }

func mustPrefixes(s ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, x := range s {
		out = append(out, netip.MustParsePrefix(x))
	}
	return out
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
