package errcode

import "testing"

func TestCodesAreUniqueAndHaveStatus(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.Code] {
			t.Errorf("%s listed twice", c.Code)
		}
		seen[c.Code] = true
		if c.Status < 400 || c.Status > 599 || c.When == "" {
			t.Errorf("%s: status %d, when %q", c.Code, c.Status, c.When)
		}
		if Status(c.Code) != c.Status {
			t.Errorf("Status(%s) = %d, want %d", c.Code, Status(c.Code), c.Status)
		}
	}
	if Status("NO_SUCH_CODE") != 0 {
		t.Error("an unknown code has a status")
	}
}

func TestStatusAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = Status(Unavailable) }); n != 0 {
		t.Fatalf("Status allocates %v times", n)
	}
}
