package schema

import "testing"

// A body whose strings and keys carry escapes: the decoder's slow string
// path, \u pairs included.
func BenchmarkDecodeEscaped(b *testing.B) {
	body := []byte(`{"currentAge":35,"annualIncome":85000,"annualExpenses":40000,"name":"pl\u00e9\"n\"\n",
		"holdings":[{"value":100000,"assetClass":"\u0065quity","note":"a\/\tb\ud83d\ude00"}],
		"tags":["\u0061","b"],"ma\u0079be":"x\\y"}`)
	var v testBody
	var r Result
	if !testSchema.Decode(body, &v, &r) {
		b.Fatal(r.Error)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if !testSchema.Decode(body, &v, &r) {
			b.Fatal(r.Error)
		}
	}
}
