package program_test

import (
	"testing"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/data/taxtable"
)

// BenchmarkOffer converts every program of the dataset for the engine, the
// cost paid once at start-up by the tax routes.
func BenchmarkOffer(b *testing.B) {
	tab, err := program.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	taxes, err := taxtable.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	all := tab.All()
	systems := make([]*tax.System, len(all))
	for i := range all {
		systems[i], _ = taxes.ByCountry(all[i].Country)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range all {
			_ = all[i].Offer(systems[i], nil)
		}
	}
}
