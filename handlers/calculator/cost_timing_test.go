package calculator_test

import (
	"testing"
	"time"

	"fiplan/handlers/internal/testserver"
)

// BenchmarkCostPerUnit serves each kind of expensive request, each time
// computed, and reports the process CPU time per unit the cost model
// charges it (cpu-ns/unit) and the units (units/op): the figures
// costmodel.go is calibrated from.
func BenchmarkCostPerUnit(b *testing.B) {
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	for _, k := range costKinds {
		b.Run(k.name, func(b *testing.B) {
			r := newCostRunner(b, s, k)
			c0 := cpuNow(b)
			for b.Loop() {
				r.serve(b)
			}
			b.ReportMetric(float64((cpuNow(b)-c0)/time.Duration(b.N*r.units)), "cpu-ns/unit")
			b.ReportMetric(float64(r.units), "units/op")
		})
	}
}
