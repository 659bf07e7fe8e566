package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestWriterRoundTrip(t *testing.T) {
	var w Writer
	w.Begin()
	w.Key("s")
	w.String("a\"b\\c\n\t<tag>&\x01é\u2028")
	w.Key("f")
	w.Float(1234.5)
	w.Key("tiny")
	w.Float(1e-7)
	w.Key("huge")
	w.Float(1e21)
	w.Key("nan")
	w.Float(math.NaN())
	w.Key("inf")
	w.Float(math.Inf(-1))
	w.Key("i")
	w.Int(-42)
	w.Key("b")
	w.Bool(true)
	w.Key("n")
	w.Null()
	w.Key("sn")
	w.StringOrNull("")
	w.Key("ss")
	w.StringOrNull("v")
	w.Key("arr")
	w.BeginArray()
	w.Int(1)
	w.Begin()
	w.Key("x")
	w.Bytes([]byte("y"))
	w.End()
	w.Raw([]byte(`{"r":1}`))
	w.EndArray()
	w.End()

	var got map[string]any
	if err := json.Unmarshal(w.B, &got); err != nil {
		t.Fatalf("invalid JSON %s: %v", w.B, err)
	}
	want := map[string]any{
		"s": "a\"b\\c\n\t<tag>&\x01é\u2028", "f": 1234.5, "tiny": 1e-7, "huge": 1e21,
		"nan": nil, "inf": nil, "i": -42.0, "b": true, "n": nil, "sn": nil, "ss": "v",
		"arr": []any{1.0, map[string]any{"x": "y"}, map[string]any{"r": 1.0}},
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("got %s\nwant %s", gb, wb)
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, -0.5, 1, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, -3.4e-12, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); string(got) != string(want) {
			t.Errorf("AppendFloat(%g) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendStringInvalidUTF8(t *testing.T) {
	got := AppendString(nil, "a\xffb")
	if string(got) != `"a\ufffdb"` {
		t.Fatalf("got %s", got)
	}
	var s string
	if err := json.Unmarshal(got, &s); err != nil || s != "a\ufffdb" {
		t.Fatalf("decoded %q, %v", s, err)
	}
}

func TestWriterAllocatesNothing(t *testing.T) {
	w := Writer{B: make([]byte, 0, 1024)}
	n := testing.AllocsPerRun(100, func() {
		w.Reset()
		w.Begin()
		w.Key("a")
		w.Float(3.25)
		w.Key("b")
		w.String("text with \"quotes\"")
		w.End()
	})
	if n != 0 {
		t.Fatalf("allocs = %v, want 0", n)
	}
}

func TestAppendFixedMatchesRoundedFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	check := func(f float64, d int) {
		t.Helper()
		p := math.Pow(10, float64(d))
		want, _ := json.Marshal(math.Round(f*p) / p)
		if string(want) == "-0" {
			want = []byte("0")
		}
		if got := AppendFixed(nil, f, d); string(got) != string(want) {
			t.Fatalf("AppendFixed(%v, %d) = %s, want %s", f, d, got, want)
		}
	}
	for _, f := range []float64{0, 0.05, 1.0001, -3.00007, 0.000001, -0.001, 0.005, 1.005, 2.675, -2.5, 1e15, 123456789.995, 0.1 + 0.2, 1e300, -1e-9} {
		for d := 0; d <= 8; d++ {
			check(f, d)
		}
	}
	for range 200000 {
		f := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(14)))
		check(f, rng.IntN(5))
	}
	if string(AppendFixed(nil, math.NaN(), 2)) != "null" {
		t.Fatal("NaN")
	}
}

// appendFixedReference is the straightforward fixed-point writer, on
// strconv: AppendFixed must write exactly its bytes.
func appendFixedReference(dst []byte, f float64, decimals int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	p := math.Pow(10, float64(decimals))
	scaled := math.Round(f * p)
	if math.Abs(scaled) >= 1e15 {
		return AppendFloat(dst, scaled/p)
	}
	n := int64(scaled)
	if n == 0 {
		return append(dst, '0')
	}
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	return appendScaledReference(dst, uint64(n), decimals)
}

// appendScaledReference writes u / 10^decimals through strconv.AppendUint,
// padding and trimming the fraction as text.
func appendScaledReference(dst []byte, u uint64, decimals int) []byte {
	s := strconv.AppendUint(nil, u, 10)
	for len(s) <= decimals {
		s = append([]byte{'0'}, s...)
	}
	whole, frac := s[:len(s)-decimals], s[len(s)-decimals:]
	frac = bytes.TrimRight(frac, "0")
	dst = append(dst, whole...)
	if len(frac) > 0 {
		dst = append(dst, '.')
		dst = append(dst, frac...)
	}
	return dst
}

// fixedEdges are values where rounding or the digit count changes: halves
// at every place, runs of nines, powers of ten, the 1e15 limit of exact
// digits and their neighbours one ulp away.
func fixedEdges() []float64 {
	var out []float64
	add := func(f float64) {
		out = append(out, f, -f, math.Nextafter(f, math.Inf(1)), math.Nextafter(f, math.Inf(-1)))
	}
	for _, f := range []float64{0, 0.5, 1.005, 2.675, 0.125, 0.045, 9.995, 99.995, 0.99995, 1e15, 1e-9, 0.1 + 0.2,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxInt64, 1 << 53, 1<<53 + 1} {
		add(f)
	}
	for d := 0; d <= 8; d++ {
		p := math.Pow(10, float64(d))
		for e := -9; e <= 16; e++ {
			q := math.Pow(10, float64(e))
			add(q)
			add(q - 1/p)
			add(q + 0.5/p)
			add(q - 0.5/p)
			add(1e15/p - 0.5/p)
			add(999999999999999 / p)
		}
	}
	return append(out, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1))
}

func TestAppendFixedMatchesReference(t *testing.T) {
	n := 2_000_000
	if testing.Short() || raceEnabled {
		n = 200_000
	}
	var got, want []byte
	check := func(f float64, d int) {
		t.Helper()
		got = AppendFixed(got[:0], f, d)
		want = appendFixedReference(want[:0], f, d)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendFixed(%v (%#x), %d) = %s, want %s", f, math.Float64bits(f), d, got, want)
		}
	}
	for _, f := range fixedEdges() {
		for d := 0; d <= 8; d++ {
			check(f, d)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		d := rng.IntN(9)
		var f float64
		switch i % 4 {
		case 0: // any magnitude a planner may meet, to the cent
			f = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(17)))
		case 1: // exact decimals with a half at the place after the last kept
			f = (float64(rng.Int64N(1e12)) + 0.5) / math.Pow(10, float64(d))
		case 2: // whole cents, as amounts usually are
			f = float64(rng.Int64N(1e13)-5e12) / 100
		default: // any bit pattern: subnormals, huge, NaN, infinities
			f = math.Float64frombits(rng.Uint64())
		}
		check(f, d)
	}
}

func TestAppendScaledMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 1_000_000
	if testing.Short() || raceEnabled {
		n = 100_000
	}
	var got, want []byte
	for i := range n {
		d := i % 9
		u := rng.Uint64N(1e15)
		if i%3 == 0 { // short values, where the fraction needs leading zeros
			u = rng.Uint64N(1000)
		}
		if i%5 == 0 { // trailing zeros to trim
			u -= u % 1000
		}
		if i%7 == 0 { // past the eight-digit halves, up to the largest
			u = rng.Uint64() >> rng.UintN(12)
		}
		got = AppendScaled(got[:0], u, d)
		want = appendScaledReference(want[:0], u, d)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendScaled(%d, %d) = %s, want %s", u, d, got, want)
		}
	}
	// Every power of ten and its neighbours, where the digit count changes.
	for p := uint64(1); ; p *= 10 {
		for _, u := range []uint64{p - 1, p, p + 1} {
			for d := range 9 {
				got = AppendScaled(got[:0], u, d)
				want = appendScaledReference(want[:0], u, d)
				if !bytes.Equal(got, want) {
					t.Fatalf("AppendScaled(%d, %d) = %s, want %s", u, d, got, want)
				}
			}
		}
		if p > math.MaxUint64/10 {
			break
		}
	}
	for _, c := range []struct {
		u    uint64
		d    int
		want string
	}{{12345, 2, "123.45"}, {12340, 2, "123.4"}, {12300, 2, "123"}, {5, 2, "0.05"}, {0, 4, "0"}, {7, 8, "0.00000007"},
		{math.MaxUint64, 0, "18446744073709551615"}, {math.MaxUint64, 8, "184467440737.09551615"}} {
		if got := string(AppendScaled(nil, c.u, c.d)); got != c.want {
			t.Errorf("AppendScaled(%d, %d) = %s, want %s", c.u, c.d, got, c.want)
		}
	}
}

func TestAppendFixedPanicsOnDecimals(t *testing.T) {
	for _, d := range []int{-1, 9} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AppendFixed with %d decimals did not panic", d)
				}
			}()
			AppendFixed(nil, 1, d)
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AppendScaled with %d decimals did not panic", d)
				}
			}()
			AppendScaled(nil, 1, d)
		}()
	}
}

func TestAppendFixedAllocatesNothing(t *testing.T) {
	buf := make([]byte, 0, 64)
	n := testing.AllocsPerRun(100, func() {
		buf = AppendFixed(buf[:0], -1234567.891, 2)
		buf = AppendFixed(buf, 0.07125, 4)
		buf = AppendScaled(buf, 999999999999999, 8)
	})
	if n != 0 {
		t.Fatalf("allocs = %v, want 0", n)
	}
}
