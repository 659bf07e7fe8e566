package jsonw

import (
	"math"
	"math/rand/v2"
	"testing"
)

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

// BenchmarkProjectionRowFixed writes one calculator projection row: two
// integers, eight amounts to the cent, a 4-place ratio and a bool.
func BenchmarkProjectionRowFixed(b *testing.B) {
	money, rates := fixedInputs()
	w := Writer{B: make([]byte, 0, 4096)}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Reset()
		w.Begin()
		w.Key("year")
		w.Int(2026)
		w.Key("age")
		w.Int(41)
		for _, k := range [...]string{"startBalance", "contributions", "growth", "withdrawals", "events", "pension", "endBalance", "realEndBalance"} {
			w.Key(k)
			w.Fixed(money[i&1023], 2)
			i++
		}
		w.Key("fiProgress")
		w.Fixed(rates[i&1023], 4)
		w.Key("retired")
		w.Bool(false)
		w.End()
	}
}

// fixedInputs are shaped like a calculator response: money from zero to
// tens of millions written to the cent, some of it negative, whole amounts
// and round cents among them, and progress ratios written to 4 places.
func fixedInputs() (money, rates []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	money = make([]float64, 1024)
	rates = make([]float64, 1024)
	for i := range money {
		v := math.Exp(rng.Float64()*math.Log(5e7)) - 1
		switch i % 8 {
		case 0:
			v = 0
		case 1:
			v = math.Round(v)
		case 2:
			v = -v
		case 3:
			v = math.Round(v*10) / 10
		}
		money[i] = v
		rates[i] = rng.Float64() * 3
	}
	return money, rates
}

func BenchmarkAppendFixed(b *testing.B) {
	money, rates := fixedInputs()
	buf := make([]byte, 0, 64)
	b.Run("cents", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			buf = AppendFixed(buf[:0], money[i&1023], 2)
			i++
		}
	})
	b.Run("rate4", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			buf = AppendFixed(buf[:0], rates[i&1023], 4)
			i++
		}
	})
	b.Run("row", func(b *testing.B) {
		// One projection row's numbers: eight amounts and a ratio.
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			buf = buf[:0]
			for k := range 8 {
				buf = AppendFixed(buf, money[(i+k)&1023], 2)
			}
			buf = AppendFixed(buf, rates[i&1023], 4)
			i += 8
		}
	})
}
