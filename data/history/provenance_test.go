package history

import (
	"strings"
	"testing"
)

func TestProvenanceNamesSourcesAndDate(t *testing.T) {
	p := Provenance()
	for _, want := range []string{"Sources:", "Damodaran", "Bureau of Labor Statistics", "As of:"} {
		if !strings.Contains(p, want) {
			t.Errorf("provenance lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "year,stocks") {
		t.Errorf("provenance runs into the data rows")
	}
}
