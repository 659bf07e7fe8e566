package taxtable

import (
	"sort"
	"testing"
	"testing/fstest"

	"fiplan/compute/tax"
	"fiplan/embed"
)

func TestLoadEmbedded(t *testing.T) {
	tb, err := Load(embed.Tax)
	if err != nil {
		t.Fatal(err)
	}
	codes := tb.Codes()
	if len(codes) < 5 || !sort.StringsAreSorted(codes) {
		t.Fatalf("codes %v", codes)
	}
	for _, cc := range []string{"US", "gb", "De", "fr", "NL"} {
		s, ok := tb.ByCountry(cc)
		if !ok {
			t.Fatalf("%s missing", cc)
		}
		var r tax.Result
		if err := tax.Calculate(s, s.Latest(), &tax.Income{Employment: 50000}, "", &r); err != nil {
			t.Fatal(err)
		}
		if r.TotalTax <= 0 {
			t.Errorf("%s: no tax on 50,000", cc)
		}
	}
	if _, ok := tb.ByCountry("ZZ"); ok {
		t.Error("ZZ found")
	}
	if len(tb.Countries()) != len(codes) {
		t.Error("Countries and Codes differ")
	}
}

func TestLoadRejectsMismatch(t *testing.T) {
	b, err := embed.Tax.ReadFile(Dir + "/us.json")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{Dir + "/gb.json": {Data: b}}
	if _, err := Load(fsys); err == nil {
		t.Error("file name / country mismatch accepted")
	}
	if _, err := Load(fstest.MapFS{}); err == nil {
		t.Error("empty FS accepted")
	}
}
