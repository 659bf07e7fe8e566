package calculator

// The cost model: what each part of a calculation costs, in the CPU of one
// path-year of the one-pot Monte Carlo (one year of one simulated path of
// compute/fi, about 22 ns), the currency every charge is counted in (see
// Units).
//
// Measured with BenchmarkCostPerUnit and the probe kinds beside it
// (cost_timing_test.go), which serve each kind of request through the whole
// chain, each time computed, and read the process's CPU time (getrusage):
//
//	go test -run '^$' -bench CostPerUnit -benchtime 3x ./handlers/calculator/
//
// on the 2-core build machine (Oxide virtual Turin-like processor, Go 1.26,
// load average near 50 while eight builds ran), 2026-12-06. Each weight is
// the kind's CPU per modelled year over the one-pot Monte Carlo's, rounded;
// TestCostModel re-measures the ratios in CI and fails when one drifts more
// than 2x from these.
const (
	// BacktestYear is one year of one replayed window of a backtest (the
	// one-pot plan's or a household's): no random draws, so cheaper than
	// a simulated path-year.
	BacktestYear = 0.65
	// MonthlyPayCost is a one-pot window year with monthly withdrawals
	// over one with a yearly withdrawal: it values the year's twelve
	// payments out of the month's mix.
	MonthlyPayCost = 2.6

	// A household path-year (every plan with partner, accounts, spending
	// phases, conversions or relocations runs as a household) costs
	// householdYear plus householdAccount for each account untaxed. Taxed,
	// each year solves for the withdrawal whose after-tax amount meets the
	// spending, taxing each person at every step: taxedYear plus
	// taxedAccount for each account and taxedPartner with a partner. Each
	// of the first two relocations multiplies it by 1+relocation (the new
	// country's rules and currency; further moves measured no dearer than
	// two).
	householdYear    = 3.5
	householdAccount = 0.45
	taxedYear        = 40
	taxedAccount     = 2
	taxedPartner     = 5
	relocation       = 0.4
	maxRelocations   = 2
	// householdRowYear is a household projection's year over a simulated one:
	// it writes its row, each account's flows and taxes, and the bridge.
	householdRowYear = 1.5

	// answerCell is one cell of the answer's rows, JSON or CSV: a figure
	// to the cent and its name or separator. A one-pot row has rowCells
	// cells; a household row householdCells more, taxedCells more taxed,
	// and accountCells for each account.
	answerCell     = 2
	rowCells       = 13
	householdCells = 8
	taxedCells     = 5
	accountCells   = 6
)
