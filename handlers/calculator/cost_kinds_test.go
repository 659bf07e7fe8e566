package calculator_test

import (
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers"
	"fiplan/handlers/calculator"
	"fiplan/handlers/internal/testserver"
)

// The kinds of expensive request the cost model (costmodel.go) weighs,
// each sized to several units so that rounding up to whole units moves
// its charge little: BenchmarkCostPerUnit calibrates the model with them
// and TestCostModel checks it.

// costKind is one kind of expensive request.
type costKind struct {
	name, accept string
	body         string // without annualIncome, which each run varies so that none is answered from the cache
}

const (
	// a US couple, six accounts, Social Security for both
	hhCouple = `"currentAge":45,"annualExpenses":70000,"startYear":2026,"targetRetirementAge":55,"lifeExpectancy":95,
	"partner":{"age":43,"annualIncome":60000},
	"accounts":[{"id":"k1","type":"us-401k","balance":250000,"annualContribution":20000},{"id":"k2","type":"us-401k","owner":"partner","balance":150000},
	 {"id":"r1","type":"us-roth-ira","balance":60000},{"id":"i2","type":"us-ira","owner":"partner","balance":40000},
	 {"id":"t","type":"taxable","balance":150000,"costBasis":100000},{"id":"c","type":"cash","balance":30000}],
	"pensions":[{"fromAge":67,"amount":30000,"kind":"us-social-security"},{"fromAge":67,"amount":20000,"owner":"partner","kind":"us-social-security"}],
	"tax":{"country":"US","year":2026}`
	// one person, one taxable account, no tax
	hhSingle = `"currentAge":45,"annualExpenses":50000,"startYear":2026,"lifeExpectancy":95,"accounts":[{"id":"t","type":"taxable","balance":500000}]`
	// the largest household: 102 years, twelve accounts, two relocations
	hhTwelve = `"currentAge":18,"annualExpenses":40000,"startYear":2026,"lifeExpectancy":120,
	"partner":{"age":18,"annualIncome":30000,"lifeExpectancy":120},
	"accounts":[{"id":"a1","type":"taxable","balance":100000},{"id":"a2","type":"taxable","balance":100000},{"id":"a3","type":"taxable","balance":100000},
	 {"id":"a4","type":"taxable","owner":"partner","balance":100000},{"id":"a5","type":"cash","balance":100000},{"id":"a6","type":"cash","owner":"partner","balance":100000},
	 {"id":"a7","type":"gb-isa","balance":100000},{"id":"a8","type":"gb-isa","owner":"partner","balance":100000},{"id":"a9","type":"gb-sipp","balance":100000},
	 {"id":"a10","type":"gb-sipp","owner":"partner","balance":100000},{"id":"a11","type":"taxable","balance":100000},{"id":"a12","type":"cash","balance":100000}],
	"relocations":[{"atAge":50,"country":"CA","region":"ON"},{"atAge":90,"country":"AU"}],
	"tax":{"country":"GB"}`
	tenScenarios = `"scenarios":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"},{"name":"f"},{"name":"g"},{"name":"h"},{"name":"i"},{"name":"j"}]`
	onePot       = `"currentAge":35,"annualExpenses":45000,"currentSavings":50000,"output":"summary"`
)

var costKinds = []costKind{
	{name: "one-pot-monte-carlo", body: `{` + onePot + `,"monteCarlo":{"simulations":6000}}`},
	{name: "one-pot-backtest-monthly-sequences", body: `{` + onePot + `,"historical":{"dataset":"shiller-monthly","withdrawalTiming":"monthly","sequences":true}}`},
	{name: "one-pot-goal-rate", body: `{` + onePot + `,"historical":{"dataset":"shiller-monthly"},"goals":{"targetSuccessRate":0.95}}`},
	{name: "household-single-monte-carlo", body: `{` + hhSingle + `,"output":"summary","monteCarlo":{"simulations":2000}}`},
	{name: "household-couple-monte-carlo", body: `{` + hhCouple + `,"output":"summary","monteCarlo":{"simulations":150}}`},
	{name: "household-couple-relocating-monte-carlo", body: `{` + hhCouple + `,"relocations":[{"atAge":50,"country":"CA","region":"ON"}],"output":"summary","monteCarlo":{"simulations":100}}`},
	{name: "household-couple-backtest", body: `{` + hhCouple + `,"output":"summary","historical":{"dataset":"shiller-monthly"}}`},
	{name: "household-twelve-monte-carlo", body: `{` + hhTwelve + `,"output":"summary","monteCarlo":{"simulations":60}}`},
	{name: "household-twelve-rows", body: `{` + hhTwelve + `,` + tenScenarios + `}`},
	{name: "household-twelve-csv", accept: "text/csv", body: `{` + hhTwelve + `,` + tenScenarios + `}`},
}

// cpuNow is the process's CPU time, user and system.
func cpuNow(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// costRunner serves one kind again and again, each time computed.
type costRunner struct {
	s     *handlers.Server
	rc    fasthttp.RequestCtx
	k     costKind
	buf   []byte
	units int     // what the model charges for the kind
	work  float64 // the model's work for it, in units (not rounded up)
}

func newCostRunner(tb testing.TB, s *handlers.Server, k costKind) *costRunner {
	r := &costRunner{s: s, k: k}
	testserver.Request(&r.rc, "POST", "/api/v1/calculator", "", "")
	if k.accept != "" {
		r.rc.Request.Header.Set("Accept", k.accept)
	}
	work, err := s.Calculator().WorkOf(r.next(), k.accept != "")
	if err != nil {
		tb.Fatalf("%s: %v", k.name, err)
	}
	r.units, r.work = calculator.Units(work), float64(work)/calculator.YearsPerUnit
	r.serve(tb) // warm the pools
	return r
}

// costIncome is the annualIncome of the next request: never the same
// twice, so that no answer comes from a cache.
var costIncome atomic.Int64

// next is the kind's body with a new annualIncome.
func (r *costRunner) next() []byte {
	r.buf = append(r.buf[:0], `{"annualIncome":`...)
	r.buf = strconv.AppendInt(r.buf, 90000+costIncome.Add(1), 10)
	r.buf = append(append(r.buf, ','), r.k.body[1:]...)
	return r.buf
}

func (r *costRunner) serve(tb testing.TB) {
	r.rc.Request.SetBody(r.next())
	r.rc.Response.Reset()
	r.s.Serve(&r.rc)
	if r.rc.Response.StatusCode() != 200 {
		tb.Fatalf("%s: status %d: %s", r.k.name, r.rc.Response.StatusCode(), r.rc.Response.Body())
	}
}

// cpuPerUnit is the median, over rounds, of the process CPU time one
// request of each kind took per unit of its work as the model counts it
// (before rounding up to whole units); the kinds take turns
// in each round, so that a spell of load falls on all of them alike.
func cpuPerUnit(tb testing.TB, runners []*costRunner, rounds int) []time.Duration {
	samples := make([][]time.Duration, len(runners))
	for range rounds {
		for i, r := range runners {
			c0 := cpuNow(tb)
			r.serve(tb)
			samples[i] = append(samples[i], time.Duration(float64(cpuNow(tb)-c0)/r.work))
		}
	}
	out := make([]time.Duration, len(runners))
	for i, s := range samples {
		out[i] = median(s)
	}
	return out
}

func median(s []time.Duration) time.Duration {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[len(s)/2]
}
