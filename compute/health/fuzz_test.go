package health

import (
	"math"
	"testing"
)

// FuzzScore feeds arbitrary numbers (zero, huge, negative, NaN, Inf) and
// arbitrary enum values into Score: it must never panic, keep the score in
// range with components summing to it, and leave no NaN or Inf anywhere.
func FuzzScore(f *testing.F) {
	nan := math.NaN()
	inf := math.Inf(1)
	f.Add(0.0, 0.0, 0.0, uint32(0), 0.0, 0.0, uint16(0), 0.0, 0.0, 0.0, 0.0, uint8(0))
	f.Add(700000.0, 400000.0, 100000.0, uint32(0x00_02_01_00|5), 0.0003, 0.0005, uint16(0xffff), 40.0, 45.0, 40000.0, 30000.0, uint8(2))
	f.Add(nan, inf, -inf, uint32(0xffffffff), nan, inf, uint16(0xffff), nan, inf, nan, -inf, uint8(255))
	f.Add(1e308, 1e308, 1e308, uint32(0x04040404), 1e308, -1e308, uint16(0xffff), 1e308, -1e308, 5e-324, 1e308, uint8(3))
	f.Add(5e-324, 1.0, 2.0, uint32(0x06050403), 0.02, 0.5, uint16(0x5555), 120.0, 0.0, 1.0, 0.0, uint8(1))
	f.Fuzz(func(t *testing.T, v1, v2, v3 float64, enums uint32, er1, er2 float64, flags uint16, age, target, expenses, ef float64, tol uint8) {
		p := Portfolio{
			Holdings: []Holding{
				{Name: "a", Value: v1, AssetClass: AssetClass(enums), Region: Region(enums >> 8), ExpenseRatio: er1, HasExpenseRatio: flags&1 != 0},
				{Name: "b", Value: v2, AssetClass: AssetClass(enums >> 16), Region: Region(enums >> 24), ExpenseRatio: er2, HasExpenseRatio: flags&2 != 0},
				{Name: "", Value: v3, AssetClass: AssetClass(enums >> 4), Region: Region(enums >> 12), ExpenseRatio: er1 * er2, HasExpenseRatio: flags&4 != 0},
			}[:flags>>14%4],
			Context: Context{
				Age: age, HasAge: flags&8 != 0,
				TargetRetirementAge: target, HasTargetRetirementAge: flags&16 != 0,
				AnnualExpenses: expenses, HasAnnualExpenses: flags&32 != 0,
				EmergencyFund: ef, HasEmergencyFund: flags&64 != 0,
				RiskTolerance: RiskTolerance(tol),
			},
			Currency: [...]string{"", "USD", "EUR", "CHF"}[flags>>8%4],
		}
		var r Result
		Score(&p, &r)
		checkInvariants(t, &p, &r)
	})
}
