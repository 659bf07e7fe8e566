package calculator

// The cost model: what each part of a calculation costs, in the CPU of one
// path-year of the one-pot Monte Carlo (one year of one simulated path of
// compute/fi, about 22 ns), the currency every charge is counted in (see
// Units).
//
// Measured with BenchmarkCostPerUnit and TestCostModel beside it
// (cost_kinds_test.go lists the kinds), which serve each kind of request
// through the whole chain, each time computed, and read the process's CPU
// time (getrusage) around it:
//
//	go test -run '^$' -bench CostPerUnit -benchtime 8x -count 3 ./handlers/calculator/
//	go test -count 1 -run TestCostModel -v ./handlers/calculator/
//
// on the 2-core build machine (Oxide virtual Turin-like processor, Go 1.26,
// load average 40 to 50 from eight concurrent builds), 2026-12-06. Each
// weight is the kind's CPU per one-pot path-year over the one-pot Monte
// Carlo's, rounded, then fitted so that every kind sits within 2x of the
// median kind; TestCostModel re-measures the ratios in CI and fails when
// one drifts past 2x.
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
	// spending, taxing each person at every step: taxedYear, plus
	// taxedAccount for each account and taxedPartner with a partner, times
	// relocated when the plan moves (the new country's rules and currency;
	// it depends on the country more than on the number of moves: Canada
	// with a province is among the dearest).
	householdYear    = 3.5
	householdAccount = 0.45
	taxedYear        = 40
	taxedAccount     = 0.5
	taxedPartner     = 2
	relocated        = 1.7
	// householdRowYear is a household projection's year over a simulated one:
	// it writes its row, each account's flows and taxes, and the bridge.
	householdRowYear = 1.5

	// answerCell is one cell of the answer's rows in JSON, csvCell in
	// CSV: a figure to the cent and its name or separator. A one-pot row
	// has rowCells cells; a household row householdCells more, taxedCells
	// more taxed, and accountCells for each account. A JSON answer of
	// megabytes is also copied into the response, whose buffer is then
	// not pooled: its CPU per cell swings by about 3x between runs, and
	// the weight sits between the two.
	answerCell     = 0.8
	csvCell        = 0.5
	rowCells       = 13
	householdCells = 8
	taxedCells     = 5
	accountCells   = 6
	// cellBytes is about the most a cell takes in JSON (a member's name
	// and a figure to the cent): the answer's buffer is sized from it
	// once, not grown step by step, which above a megabyte cost more
	// than writing it.
	cellBytes = 24
)
