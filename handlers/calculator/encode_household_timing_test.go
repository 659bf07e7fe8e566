package calculator_test

import (
	"testing"

	"github.com/valyala/fasthttp"

	"fiplan/compute/plan"
	"fiplan/handlers/calculator"
	"fiplan/handlers/internal/testserver"
)

// householdResult is the typed answer to householdCSVBody: a couple with
// five accounts and a scenario, taxed, about 45 rows a plan.
func householdResult(b *testing.B) *plan.Result {
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	testserver.Request(&rc, "POST", "/api/v1/calculator", "", householdCSVBody)
	t := &plan.Typed{}
	rc.SetUserValue((*plan.Typed)(nil), t)
	s.Serve(&rc)
	if rc.Response.StatusCode() != 200 || !t.Result.Household || !t.Result.Taxed {
		b.Fatalf("status %d: %.300s", rc.Response.StatusCode(), rc.Response.Body())
	}
	return &t.Result
}

func benchHouseholdRows(b *testing.B, csv bool) {
	r := householdResult(b)
	buf := calculator.HouseholdRows(nil, r, csv)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = calculator.HouseholdRows(buf[:0], r, csv)
	}
}

// A household plan's rows, the base plan's and a scenario's, written as
// the JSON answer's projections.
func BenchmarkHouseholdRowsJSON(b *testing.B) { benchHouseholdRows(b, false) }

// The same rows as the CSV answer.
func BenchmarkHouseholdRowsCSV(b *testing.B) { benchHouseholdRows(b, true) }
