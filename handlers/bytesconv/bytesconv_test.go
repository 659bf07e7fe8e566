package bytesconv

import "testing"

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", "lisbon-pt", "ünïcode"} {
		if got := String([]byte(s)); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
		if got := string(Bytes(s)); got != s {
			t.Errorf("Bytes(%q) = %q", s, got)
		}
	}
	b := []byte("abc")
	if n := testing.AllocsPerRun(100, func() { _ = String(b) }); n != 0 {
		t.Errorf("String allocates %v times", n)
	}
}
