package tax_test

import (
	"testing"
	"time"

	"fiplan/handlers/internal/testserver"
)

// benchTax serves one POST to path as a pro user through the whole chain,
// with the verified token cached as in production.
func benchTax(b *testing.B, path, body string) {
	s, tok, _ := testserver.BenchServer(b, 1<<16, testserver.LimitOff)
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	testserver.RunRequest(b, s, "POST", path, "Bearer "+tok, body, 200)
}

// A typical mixed income in the US: decode, validate, calculate with the
// breakdown and the marginal rate, encode about 20 lines.
func BenchmarkTaxCalculate(b *testing.B) {
	benchTax(b, "/api/v1/tax/calculate", `{"country":"US","income":{"employment":85000,"interest":1200,"dividends":3000,"capitalGains":5000}}`)
}

// The same under a special program (the Dutch 30% ruling).
func BenchmarkTaxCalculateProgram(b *testing.B) {
	benchTax(b, "/api/v1/tax/calculate", `{"country":"NL","income":{"employment":85000,"interest":1200,"dividends":3000},"program":"nl-30-ruling","domesticIncome":["employment"]}`)
}

// Every country of the tax table and each program a newcomer can join,
// with the after-tax FI number of each (one tax inversion per suggestion).
func BenchmarkTaxOptimize(b *testing.B) {
	benchTax(b, "/api/v1/tax/optimize", `{"country":"US","income":{"pension":30000,"interest":2000,"dividends":20000,"capitalGains":15000},"monthlyBudgetUSD":4000}`)
}

// The ranking alone, without FI numbers.
func BenchmarkTaxOptimizeNoBudget(b *testing.B) {
	benchTax(b, "/api/v1/tax/optimize", `{"country":"US","income":{"pension":30000,"interest":2000,"dividends":20000,"capitalGains":15000}}`)
}
