package jsonw

import (
	"encoding/json"
	"math"
	"math/rand/v2"
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
