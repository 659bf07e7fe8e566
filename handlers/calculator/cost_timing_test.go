package calculator_test

import (
	"testing"

	"fiplan/handlers/internal/testserver"
)

// BenchmarkCostPerUnit serves each kind of expensive request, each time
// computed, and reports the process CPU time per unit of work the cost
// model counts for it (cpu-ns/unit, before rounding up to whole units) and
// the units it is charged (units/op): the figures
// costmodel.go is calibrated from.
func BenchmarkCostPerUnit(b *testing.B) {
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	for _, k := range costKinds {
		b.Run(k.name, func(b *testing.B) {
			r := newCostRunner(b, s, k)
			b.ResetTimer()
			c0 := cpuNow(b)
			for range b.N {
				r.serve(b)
			}
			b.ReportMetric(float64(cpuNow(b)-c0)/float64(b.N)/r.work, "cpu-ns/unit")
			b.ReportMetric(float64(r.units), "units/op")
		})
	}
}
