package handlers

import (
	"testing"
)

func benchCalc(b *testing.B, body string) {
	s, _, _ := benchServer(b, 0, limitOff)
	runRequest(b, s, "POST", "/api/v1/calculator", "", body, 200)
}

// A 60-year timeline with 3 scenarios: decode, validate, 4 projections,
// encode 240 rows.
func BenchmarkCalculatorPOST(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,
		"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`)
}

func BenchmarkCalculatorPOSTMonteCarlo(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{"simulations":10000}}`)
}
