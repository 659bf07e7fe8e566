package tax

import (
	"os"
	"strings"
	"testing"
)

// A country's data may say how a withdrawal from a taxable portfolio is
// taxed by default; without it the default is pension.
func TestParsePortfolioWithdrawal(t *testing.T) {
	t.Parallel()
	de, err := os.ReadFile("../../embed/tax/countries/de.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(de)
	if err != nil {
		t.Fatal(err)
	}
	if s.Withdrawal.Part != CapitalGains || s.Withdrawal.Note == "" || len(s.Withdrawal.Sources) == 0 {
		t.Fatalf("DE's portfolio withdrawal %+v, want capitalGains with a note and its sources", s.Withdrawal)
	}
	gb, err := os.ReadFile("../../embed/tax/countries/gb.json")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := Parse(gb); err != nil || s.Withdrawal.Part != Pension {
		t.Fatalf("GB's portfolio withdrawal %+v (%v), want pension by default", s.Withdrawal, err)
	}

	for _, c := range []struct{ field, want string }{
		{`"portfolioWithdrawal": {"income": "employment", "note": "x", "src": [{"doc": "estg", "sec": "§20"}]},`, "is not pension"},
		{`"portfolioWithdrawal": {"income": "gains", "note": "x", "src": [{"doc": "estg", "sec": "§20"}]},`, "is not pension"},
		{`"portfolioWithdrawal": {"income": "capitalGains", "src": [{"doc": "estg", "sec": "§20"}]},`, "no note"},
		{`"portfolioWithdrawal": {"income": "capitalGains", "note": "x"},`, "no source"},
		{`"portfolioWithdrawal": {"income": "capitalGains", "note": "x", "src": [{"doc": "nowhere", "sec": "1"}]},`, "unknown document"},
	} {
		_, err := Parse([]byte(replaceWithdrawal(t, string(de), c.field)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.field, err, c.want)
		}
	}
	// The replacement itself keeps a valid file.
	ok := `"portfolioWithdrawal": {"income": "dividends", "note": "x", "src": [{"doc": "estg", "sec": "§20"}]},`
	if s, err := Parse([]byte(replaceWithdrawal(t, string(de), ok))); err != nil || s.Withdrawal.Part != Dividends {
		t.Fatalf("a valid replacement: %v, %+v", err, s)
	}
}

// replaceWithdrawal replaces the portfolioWithdrawal object of a country
// file by field.
func replaceWithdrawal(t *testing.T, file, field string) string {
	t.Helper()
	i := strings.Index(file, `"portfolioWithdrawal"`)
	j := strings.Index(file[i:], "\n },\n")
	if i < 0 || j < 0 {
		t.Fatal("no portfolioWithdrawal object in the file")
	}
	return file[:i] + field + file[i+j+len("\n },"):]
}
