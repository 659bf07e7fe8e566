package geo_test

import (
	"testing"

	"fiplan/data/geo"
	"fiplan/embed"
)

// BenchmarkLoad measures decoding and validating the embedded dataset, the
// one-off start-up cost of the geo tables.
func BenchmarkLoad(b *testing.B) {
	b.SetBytes(int64(len(embed.Cities)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := geo.Load(embed.Cities); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkByID measures a lookup by slug on the loaded table.
func BenchmarkByID(b *testing.B) {
	tb, err := geo.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	ids := tb.All()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := tb.ByID(ids[i%len(ids)].ID); !ok {
			b.Fatal("missing")
		}
		i++
	}
}

// BenchmarkAll measures copying the sorted city list.
func BenchmarkAll(b *testing.B) {
	tb, err := geo.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(tb.All()) == 0 {
			b.Fatal("empty")
		}
	}
}
