package jsonw

import "testing"

func BenchmarkProjectionRow(b *testing.B) {
	w := Writer{B: make([]byte, 0, 4096)}
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		w.Begin()
		for _, k := range [...]string{"year", "age", "startBalance", "contributions", "growth", "withdrawals", "endBalance", "fiProgress"} {
			w.Key(k)
			w.Float(123456.789)
		}
		w.End()
	}
}
