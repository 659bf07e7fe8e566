package category

import "testing"

func BenchmarkOf(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Of("Vanguard FTSE All-World UCITS ETF", "IE00BK5BQT80", "")
	}
}
