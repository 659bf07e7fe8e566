package tax_test

import (
	"testing"

	"fiplan/compute/tax"
	"fiplan/handlers/internal/testserver"
)

// A request without a region in a country whose income tax has a local part
// is taxed in the region its localTax names, and says so: Switzerland's
// cantonal and communal tax, Sweden's kommunalskatt, Japan's resident tax,
// Italy's addizionali and Denmark's kommuneskat are no longer left out.
func TestTaxCalculateDefaultRegion(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for _, c := range []struct {
		cc, region string
		wages      float64
	}{
		{"CH", "ZH", 100000}, {"SE", "STHLM", 600000}, {"JP", "13", 6000000}, {"IT", "MI", 50000}, {"DK", "KBH", 400000},
		{"US", "NC", 80000}, {"CA", "ON", 80000}, {"ES", "MD", 50000},
	} {
		sys, _ := h.Taxes().ByCountry(c.cc)
		if sys.LocalTax.Region != c.region {
			t.Fatalf("%s: default region %q, want %s", c.cc, sys.LocalTax.Region, c.region)
		}
		in := tax.Income{Employment: c.wages}
		var national, local tax.Result
		if err := tax.Calculate(sys, sys.Latest(), &in, "", &national); err != nil {
			t.Fatal(err)
		}
		if err := tax.Calculate(sys, sys.Latest(), &in, c.region, &local); err != nil {
			t.Fatal(err)
		}
		r := taxCalc(t, h, `{"country":"`+c.cc+`","income":`+incomeJSON(in)+`}`)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", c.cc, r.Status, r.Raw)
		}
		d := r.Data()
		sameResult(t, c.cc, d, &local)
		if d["region"] != c.region || !(local.RegionalTax > 0) || !(local.TotalTax > national.TotalTax) {
			t.Errorf("%s: region %v, regional tax %v, total %v against %v without the region", c.cc, d["region"], local.RegionalTax, local.TotalTax, national.TotalTax)
		}
	}
	// Zürich's tax on 100,000 CHF of wages: the national figure alone left
	// out more than half of it
	r := taxCalc(t, h, `{"country":"CH","income":{"employment":100000}}`)
	if total := r.Data()["totalTax"].(float64); total < 2*8088 {
		t.Errorf("CH 100,000 wages: total %v, want Zürich's cantonal and communal tax counted", total)
	}
	// A joint US return whose default state files no couple keeps the
	// federal joint return, without the state, and says so.
	r = taxCalc(t, h, `{"country":"US","filing":"joint","income":{"employment":150000}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	us, _ := h.Taxes().ByCountry("US")
	if !us.HasJointIn(us.Latest(), "NC") && r.Data()["region"] != nil {
		t.Errorf("joint return taxed in %v, whose rules file no couple", r.Data()["region"])
	}
	// A country without a local part keeps no region.
	r = taxCalc(t, h, `{"country":"DE","income":{"employment":60000}}`)
	if r.Data()["region"] != nil {
		t.Errorf("DE region %v", r.Data()["region"])
	}
}
