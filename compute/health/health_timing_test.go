package health

import "testing"

// BenchmarkScore scores a 50-holding portfolio into a reused Result.
// Target: < 5 µs and 0 allocs/op.
func BenchmarkScore(b *testing.B) {
	p := benchPortfolio(50)
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		Score(&p, &r)
	}
	if r.NumRecs == 0 {
		b.Fatal("no recommendations")
	}
}

// BenchmarkScorePerfect scores a portfolio without recommendations.
func BenchmarkScorePerfect(b *testing.B) {
	p := perfect()
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		Score(&p, &r)
	}
}

// BenchmarkRender renders every recommendation title and detail of the
// 50-holding portfolio into a reused buffer.
func BenchmarkRender(b *testing.B) {
	p := benchPortfolio(50)
	var r Result
	Score(&p, &r)
	buf := make([]byte, 0, 8192)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i := range r.Recommendations() {
			buf = AppendTitle(buf, &r.Recs[i])
			buf = AppendDetail(buf, &r.Recs[i])
		}
	}
	b.ReportMetric(float64(r.NumRecs), "recs")
	b.SetBytes(int64(len(buf)))
}

// BenchmarkScoreAndRender is the whole per-request cost of the engine.
func BenchmarkScoreAndRender(b *testing.B) {
	p := benchPortfolio(50)
	var r Result
	buf := make([]byte, 0, 8192)
	b.ReportAllocs()
	for b.Loop() {
		Score(&p, &r)
		buf = buf[:0]
		for i := range r.Recommendations() {
			buf = AppendTitle(buf, &r.Recs[i])
			buf = AppendDetail(buf, &r.Recs[i])
		}
	}
}
