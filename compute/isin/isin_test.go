package isin

import "testing"

func TestCheck(t *testing.T) {
	t.Parallel()
	// Published ISINs: Apple (US0378331005), the worked example of the ISIN
	// standard's check digit, BAE Systems (GB0002634946), iShares Core MSCI
	// World (IE00B4L5Y983) and Vanguard FTSE All-World (IE00BK5BQT80).
	for _, s := range []string{"US0378331005", "GB0002634946", "IE00B4L5Y983", "IE00BK5BQT80", "DE0005140008", "AU0000XVGZA3"} {
		if msg := Check(s); msg != "" {
			t.Errorf("%s: %s", s, msg)
		}
	}
	for s, want := range map[string]string{
		"US0378331006":  "has a wrong check digit",
		"US0378331":     "must be 12 characters",
		"us0378331005":  "must be upper-case letters and digits",
		"120378331005":  "must start with a two-letter country code",
		"US037833100A":  "must end in a check digit",
		"US03783310-5":  "must be upper-case letters and digits",
		"IE00B4L5Y984":  "has a wrong check digit",
		"US0378331005 ": "must be 12 characters",
	} {
		if got := Check(s); got != want {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
	}
	if Country("IE00B4L5Y983") != "IE" {
		t.Fatal("Country")
	}
}

func TestSingleDigitErrorsAreCaught(t *testing.T) {
	t.Parallel()
	// Luhn catches any single-digit error; check it on a real ISIN.
	base := []byte("US0378331005")
	for i := 2; i < 11; i++ {
		for d := byte('0'); d <= '9'; d++ {
			if d == base[i] {
				continue
			}
			b := append([]byte(nil), base...)
			b[i] = d
			if Valid(string(b)) {
				t.Errorf("single-digit error at %d accepted: %s", i, b)
			}
		}
	}
}
