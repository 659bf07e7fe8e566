package tax

import "testing"

// The US rules depend on age (the additional standard deduction at 65,
// the senior deduction); Germany's on file do not.
func TestAgeRules(t *testing.T) {
	t.Parallel()
	if !loadSystem(t, "us").AgeRules() {
		t.Fatal("US: no age rule found")
	}
	if loadSystem(t, "de").AgeRules() {
		t.Fatal("DE: an age rule found")
	}
}
