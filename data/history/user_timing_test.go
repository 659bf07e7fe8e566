package history

import (
	"testing"

	"fiplan/compute/fi"
)

// A backtest on a user's series against one on the embedded record of the
// same length: every start, 30-year windows.
func BenchmarkBacktestUserSeries(b *testing.B) {
	emb, err := Embedded()
	if err != nil {
		b.Fatal(err)
	}
	u := annualAsUser(b)
	rec, _, _ := u.Record()
	mu, m := shillerAsUser(b)
	mrec, _, _ := mu.Record()
	for _, c := range []struct {
		name string
		h    fi.History
	}{{"annual/embedded", fi.Series(emb)}, {"annual/user", rec}, {"monthly/embedded", m}, {"monthly/user", mrec}} {
		b.Run(c.name, func(b *testing.B) {
			in := fi.Defaults()
			b.ReportAllocs()
			for b.Loop() {
				fi.Backtest(&in, c.h, 30)
			}
		})
	}
}

// Reading a stored series into a record: the yearly 1928-2024 and the
// monthly 1871-2023 series.
func BenchmarkUserSeriesRecord(b *testing.B) {
	u := annualAsUser(b)
	mu, _ := shillerAsUser(b)
	for name, s := range map[string]*UserSeries{"annual": u, "monthly": mu} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.record()
			}
		})
	}
}
