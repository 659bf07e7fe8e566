package history

import (
	"testing"

	"fiplan/compute/fi"
)

// Every start month of Shiller's 1871-2023 series, 30-year windows (1470).
func BenchmarkBacktestShillerMonthly(b *testing.B) {
	r, err := ShillerReturns()
	if err != nil {
		b.Fatal(err)
	}
	for _, st := range []fi.Strategy{fi.StrategyConstant, fi.StrategyGuytonKlinger} {
		b.Run(st.String(), func(b *testing.B) {
			in := fi.Defaults()
			in.Strategy = st
			b.ReportAllocs()
			for b.Loop() {
				fi.Backtest(&in, r, 30)
			}
		})
	}
}
