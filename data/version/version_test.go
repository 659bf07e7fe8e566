package version

import (
	"regexp"
	"testing"
)

// The version is data- and 16 hex digits, the same on every call.
func TestData(t *testing.T) {
	v := Data()
	if !regexp.MustCompile(`^data-[0-9a-f]{16}$`).MatchString(v) || Data() != v {
		t.Fatalf("Data() = %q", v)
	}
}
