package schema

import "testing"

func BenchmarkDecode(b *testing.B) {
	body := []byte(`{"currentAge":35,"annualIncome":85000,"annualExpenses":40000,"years":30,"name":"plan","flag":true,"opt":0.25,
		"holdings":[{"value":100000,"assetClass":"equity"},{"value":25000,"assetClass":"bond","note":"agg"},{"value":5000,"assetClass":"cash"}],
		"tags":["a","b"],"rate":0.035}`)
	var v testBody
	var r Result
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if !testSchema.Decode(body, &v, &r) {
			b.Fatal(r.Error)
		}
	}
}

func BenchmarkDecodeInvalid(b *testing.B) {
	body := []byte(`{"currentAge":"35","annualIncome":-1,"annualExpenses":0,"bogus":true}`)
	var v testBody
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		testSchema.Decode(body, &v, &r)
	}
}
