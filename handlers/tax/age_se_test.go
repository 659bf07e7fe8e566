package tax_test

import (
	"testing"

	"fiplan/handlers/internal/testserver"
)

// POST /tax/calculate passes the age to Sweden's rules: a retiree of 70
// gets the förhöjt grundavdrag (121 200 kr on a pension of 240 000 kr in
// 2026, kommunalskatt 35 702 kr in Stockholm), someone of 64, or of
// unknown age, the ordinary one (40 000 kr, 59 900 kr).
func TestTaxCalculateSwedishRetiree(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for body, want := range map[string]float64{
		`{"country":"SE","year":2026,"region":"STHLM","age":70,"income":{"pension":240000}}`: 35702,
		`{"country":"SE","year":2026,"region":"STHLM","age":64,"income":{"pension":240000}}`: 59900,
		`{"country":"SE","year":2026,"region":"STHLM","income":{"pension":240000}}`:          59900,
	} {
		r := taxCalc(t, h, body)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", body, r.Status, r.Raw)
		}
		got, _ := r.Body["data"].(map[string]any)["regionalTax"].(float64)
		if got < want-1 || got > want+1 {
			t.Errorf("%s: regionalTax %v, want %v", body, got, want)
		}
	}
}
