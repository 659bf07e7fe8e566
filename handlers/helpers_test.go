package handlers

import (
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"fiplan/data/store"
	"fiplan/handlers/auth"
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

// newFuzzServer is a Server without rate limits for in-process fuzzing.
func newFuzzServer(f *testing.F) *Server {
	db, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"), store.Options{})
	if err != nil {
		f.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret})
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(Config{Version: "fuzz", DB: db, Verifier: v})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close(); v.Close(); db.Close() })
	return s
}
