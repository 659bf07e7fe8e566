package fx_test

import (
	"testing"

	"fiplan/data/fx"
	fiembed "fiplan/embed"
)

var sink float64

// BenchmarkConvert measures one conversion between two currencies of the
// embedded table, the cost a request pays per amount.
func BenchmarkConvert(b *testing.B) {
	tab := embedded(b)
	pairs := [][2]string{{"EUR", "USD"}, {"GBP", "THB"}, {"JPY", "MXN"}, {"CHF", "KES"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i&3]
		v, _ := tab.Convert(1234.5, p[0], p[1])
		sink += v
		i++
	}
}

// BenchmarkLoad measures decoding and validating the embedded table, the cost
// paid once at start-up.
func BenchmarkLoad(b *testing.B) {
	b.SetBytes(int64(len(fiembed.FX)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fx.Load(fiembed.FX); err != nil {
			b.Fatal(err)
		}
	}
}
