// Package fi is fiplan's financial-independence calculator: a pure, allocation-
// free engine that turns a plain Input into a year-by-year timeline, a Monte
// Carlo distribution, a historical backtest and goal-seeking answers. It does no
// I/O, keeps no state between calls and imports nothing from the rest of fiplan;
// historical data is passed in (see History, Series and Monthly).
//
// # Timeline
//
// Project writes one row per year of age, from CurrentAge up to (not including)
// LifeExpectancy: row k covers the year that starts on the birthday CurrentAge+k
// and calendar year StartYear+k. Money is tracked in nominal terms; each row also
// carries its end balance in today's money (divided by the cumulative price
// index), and fiProgress is that real balance over the FI number. Inside a year
// the order of operations is fixed:
//
//  1. One-off events at this age (windfalls positive, outlays negative) hit the
//     balance at the start of the year. An outlay larger than the balance empties
//     it; the rest is assumed to be financed outside the portfolio.
//  2. Accumulation years: the balance grows by the year's return (net of fees);
//     the year's saving (income minus expenses, or the fixed contribution, plus
//     any pension already paid) is added at the end of the year, valued at
//     end-of-year prices, so it earns nothing in its first year and a saving of
//     S in today's money adds exactly S to the real balance. A negative saving
//     is withdrawn at year end.
//  3. Drawdown years: the withdrawal chosen by the strategy is taken at the start
//     of the year, valued at start-of-year prices (the first year of a plan that
//     starts retired withdraws today's spending), the remainder grows by the
//     year's return, and (constant strategy only) pension income above the
//     spending need is reinvested at the end of the year.
//  4. Prices then rise by the year's inflation; real values divide by the new
//     price index.
//  5. FI is tested at the end of the year: the real end balance reaching the FI
//     number (within FITolerance, half a cent, so that a balance shown as the
//     FI number is FI) ends accumulation (unless TargetRetirementAge is set,
//     which alone then decides when drawdown starts).
//
// Returns are nominal; fees act as a drag on the grown balance: growth factor
// (1+r)(1-fee). Incomes and expenses are in today's money and rise with
// inflation; IncomeGrowthRate is real growth on top of inflation. A fixed
// contribution is also in today's money and rises with inflation. Pensions are
// either inflation-linked (amount in today's money) or fixed nominal (the amount
// paid every year from the start age, never indexed). One-off event amounts are
// in today's money unless marked nominal.
//
// The FI number is in today's money: retirement spending divided by the
// withdrawal rate. yearsToFI counts whole years until the real balance reaches
// it (0 when already there; -1 when never within the horizon). Coast FI is the
// amount needed today to grow, without further saving, to the FI number by the
// target age (TargetRetirementAge, or 65 when unset) at the real net return.
// Lean and Fat FI multiply retirement spending by 0.7 and 1.5; these multipliers
// are fiplan's own documented convention: the FIRE community (r/leanfire,
// r/fatFIRE) describes lean and fat FI only loosely as spending well below or
// well above a typical budget, with no agreed ratio. Barista FI is the yearly
// part-time income (today's money) that, added to a withdrawal at the
// withdrawal rate from today's portfolio, covers retirement spending now.
//
// # Withdrawal strategies
//
// StrategyConstant: the classic inflation-adjusted rule (Bengen 1994; the
// "Trinity study", Cooley, Hubbard and Walz 1998). Each drawdown year withdraws
// the retirement spending need in that year's money, less pension income. When
// drawdown starts exactly at the FI number the first withdrawal equals
// withdrawalRate x portfolio; afterwards it follows inflation whatever markets do.
//
// StrategyFixedPercent: withdraw withdrawalRate x the start-of-year balance
// every year. It cannot run out, but spending moves with the market.
//
// StrategyGuytonKlinger: the decision rules of Guyton and Klinger, "Decision
// Rules and Maximum Initial Withdrawal Rates", Journal of Financial Planning,
// March 2006, in this variant: the first drawdown year withdraws the spending
// need less pensions, which fixes the initial withdrawal rate IWR = withdrawal
// / balance. In each later year, before withdrawing:
//   - Withdrawal (inflation) rule: last year's withdrawal rises by last year's
//     inflation, except when last year's portfolio return was negative and the
//     current rate (last withdrawal / balance now) exceeds IWR; a skipped raise
//     is never made up.
//   - Capital-preservation rule: if the current rate (after the inflation step)
//     exceeds 1.2 x IWR and more than 15 years of the horizon remain, the
//     withdrawal is cut by 10%.
//   - Prosperity rule: if the current rate is below 0.8 x IWR, the withdrawal is
//     raised by 10%.
//
// The paper's portfolio-management rule (which asset class funds the
// withdrawal) is not modelled: the portfolio is one rebalanced mix.
//
// StrategyVPW: the Bogleheads "variable percentage withdrawal" method. Each
// year withdraws balance x PMT(r, n, 1) with payments at the start of the year
// (annuity due), where n is the number of years left in the horizon (this year
// included) and r the expected real return of the mix: 5.0% for stocks and 1.9%
// for bonds, weighted by StockShare (the growth trends of the Bogleheads VPW
// table; with them, a 60/40 mix gives the table's 5.0% at 35 years, 21.5% at 5
// and 26.4% at 4). The last year withdraws everything.
//
// The next five withdraw from the portfolio without netting pensions, like
// fixed percentage and VPW; "first withdrawal" is WithdrawalRate x the
// balance at the start of drawdown.
//
// StrategyNinetyFive: the 95% rule of Bob Clyatt, "Work Less, Live More"
// (Nolo, 2005): withdraw WithdrawalRate x the balance, but never less than
// NinetyFiveShare (95%) of last year's withdrawal in money of the day.
//
// StrategyFloorCeiling: William Bengen's floor-and-ceiling rule (Journal of
// Financial Planning, 2001): WithdrawalRate x the balance, held in real terms
// between FloorShare (90%) and CeilingShare (125%) of the first withdrawal;
// the two bounds are fiplan's parameters, the rule names none universally.
//
// StrategyCAPE: a valuation-based rate after Karsten Jeske, "The Ultimate
// Guide to Safe Withdrawal Rates, Part 18: Flexibility and the Mechanics of
// CAPE-Based Rules" (earlyretirementnow.com, 2017): withdraw
// (CAPEBase + CAPESlope / CAPE) x the balance, 1.5% + 0.5/CAPE with fiplan's
// parameters. The year's CAPE comes from the record a backtest replays where
// it has one, else Input.CAPE; WithdrawalRate is used when neither is known.
//
// StrategyVanguard: Vanguard's dynamic spending rule (Jaconetti, Kinniry and
// Zilbering, "A more dynamic approach to spending for investors in
// retirement", Vanguard research, 2013): WithdrawalRate x the balance, with
// its real change from last year's withdrawal held between -VanguardFloor
// (-2.5%) and +VanguardCeiling (+5%), the paper's baseline.
//
// StrategyGuardrailsCapped: the Guyton-Klinger rules with each year's
// inflation raise capped at GuardrailInflationCap (6%, fiplan's parameter),
// so that a run of high inflation does not compound into spending the
// guardrails then have to cut.
//
// # Monte Carlo, backtest, goal seeking
//
// Simulate draws each year's return and inflation independently from normal
// distributions centred on ExpectedReturn and InflationRate (truncated at a
// -99% return and -50% inflation), runs the same engine per path and reports
// the share of paths that never run out before LifeExpectancy, the FI-age
// distribution and percentiles per year of the real end balance (today's
// money, divided by the path's own price index). The default standard
// deviations, DefaultReturnStdDev and DefaultInflationStdDev, are those of the
// embedded annual US series (a 60/40 mix and CPI-U, 1928-2024).
// It uses a seeded PCG generator held in a caller-owned Scratch: the same seed
// gives the same answer, and no memory is allocated per path.
//
// PlanBacktest replays the whole plan (saving, FI, drawdown, pensions,
// events) over every rolling window of a History, the window's returns and
// inflation in place of the expected ones, each window the plan's horizon or
// shorter when asked; its success rate is of the windows in which the plan
// draws down or runs out, and a window in which it never draws down has
// none. Backtest replays the drawdown alone (retired from the first year with
// CurrentSavings, spending WithdrawalRate x it): the test of a withdrawal
// rate that MaxWithdrawalRate searches. Both report the success rate and the
// worst start. A History is an annual
// Series (one window per start year) or a Monthly record (one window per start
// month; each window's years run from its start month, so withdrawals and
// rebalancing happen once a year in that month). NewMonthly derives the
// monthly indexes from market figures: stocks earn the price change plus a
// twelfth of the annual dividend rate each month; bonds are a 10-year
// constant-maturity bond bought at par at each month's long rate and repriced
// a month later at the next month's rate (BondMonthReturn); cash keeps its
// real value (it earns inflation, since neither record carries a bill rate).
// The portfolio is rebalanced every year to StockShare stocks, CashShare cash
// and bonds for the rest.
//
// A Sampled record replays part of a record under stated conditions (a
// Sample), so that a published backtest can be replayed under its own:
// From and To bound the calendar years every window lies within (a window
// starts in From or later and its last year ends in To or earlier; a
// monthly window starting in month m ends with month m-1 of its last year,
// so a January start covers whole calendar years), January keeps a monthly
// record's January starts alone, and MonthlyWithdrawals pays each year's
// withdrawal a twelfth at the start of each month instead of all at the
// year's start. The year's amount is still set once, at its start (so a
// constant withdrawal rises with inflation once a year), and the twelfths
// come out of the mix as it stands that month, held from the year's start
// without rebalancing, each asset in proportion. The engine values them at
// the year's start: each twelfth is divided by the mix's growth since the
// year's start, and the year ends with (balance - their sum) x (1 + the
// year's return). That is exact, not an approximation: a balance that
// falls short in some month is a sum that exceeds the balance, and the
// year is counted as the one the money ran out in. Fees stay a yearly drag
// on the return. With the Shiller record, From 1926, To 1995, January and
// MonthlyWithdrawals are the Trinity study's conditions (41 windows of 30
// years) as far as its data allow. Span reports the first and last
// windows' starts. Sequences gives the sequence-of-returns view of the
// same windows: the worst, median and best with their year-by-year real paths
// (ranked by years the money lasted, then by real ending balance) and the
// success rate by start decade. SavingFor finds the yearly saving that reaches FI by an age
// (bisection over the engine); MaxWithdrawalRate finds the highest withdrawal
// rate whose historical success rate meets a target.
//
// # Scenarios
//
// Input is a plain value (fixed-capacity arrays, no pointers), so a scenario is
// a copy of the base Input with a few fields overridden and passed to Project
// again with its own row buffer; nothing is shared between calls.
package fi

// Method is the method statement for API documentation (for example an OpenAPI
// description): the order of operations and the conventions of Project,
// Simulate and Backtest in plain text.
const Method = `Yearly timeline from currentAge up to lifeExpectancy, one row per year of age. ` +
	`Within a year: (1) one-off events at that age change the balance at the start of the year; ` +
	`(2) while accumulating, the balance grows by the year's return net of fees, then the year's saving ` +
	`(income minus expenses, or the fixed contribution, plus pensions already paid) is added at year end at year-end prices; ` +
	`(3) in drawdown, the withdrawal is taken at the start of the year at that year's prices and the rest grows; ` +
	`(4) prices rise by the year's inflation and real values are divided by the price index; ` +
	`(5) FI is reached when the real end balance is at least the FI number (within half a cent), which ends accumulation ` +
	`unless targetRetirementAge is set. ` +
	`Returns are nominal; fees multiply growth by (1 - fee). Incomes, expenses and the fixed contribution are in ` +
	`today's money and rise with inflation; incomeGrowthRate is real growth above inflation. ` +
	`fiNumber = retirementExpenses / withdrawalRate, in today's money; yearsToFI is null when FI is never reached ` +
	`and 0 when already reached. fiProgress = real end balance / fiNumber. ` +
	`Coast FI = fiNumber discounted at the real net return to the target age (65 when unset). ` +
	`Lean FI = 0.7 x and Fat FI = 1.5 x the FI number (a fiplan convention). ` +
	`Barista FI = retirement spending minus withdrawalRate x current savings. ` +
	`Strategies: constant (inflation-adjusted spending need, the 4% rule); fixed-percentage (withdrawalRate x the start-of-year balance); ` +
	`guyton-klinger (Guyton and Klinger 2006: skip the inflation raise after a negative-return year when the current rate exceeds the initial rate; ` +
	`cut 10% when the rate exceeds 1.2 x initial with more than 15 years left; raise 10% when below 0.8 x initial); ` +
	`vpw (Bogleheads' variable percentage withdrawal: balance x PMT at the start of the year over the remaining years at 5.0% real for stocks and 1.9% for bonds). ` +
	`The following take a share of the portfolio without netting pensions: 95-percent (Clyatt 2005: withdrawalRate x balance, ` +
	`at least 95% of last year's withdrawal); floor-ceiling (Bengen 2001: withdrawalRate x balance, in real terms between 90% ` +
	`and 125% of the first withdrawal); cape (after Jeske 2017: (1.5% + 0.5 / CAPE) x balance, CAPE from the dataset where it ` +
	`has one, else the cape input); vanguard-dynamic (Jaconetti, Kinniry and Zilbering 2013: withdrawalRate x balance, its ` +
	`real change from last year between -2.5% and +5%); guardrails-capped (Guyton-Klinger with each inflation raise capped at 6%). ` +
	`Monte Carlo draws independent normal annual returns and inflation around the expected values from a seeded PCG generator ` +
	`(truncated at a -99% return and -50% inflation); the default standard deviations, 0.12 for returns and 0.04 for inflation, ` +
	`are those of a yearly rebalanced 60/40 mix and of CPI-U in the annual US series 1928-2024, rounded to the percent; ` +
	`balance percentiles are real (today's money, each path deflated by its own inflation); ` +
	`success is never running out before lifeExpectancy. ` +
	`Historical backtests replay every rolling window of US data with annual rebalancing to stockShare stocks, cashShare cash ` +
	`(which keeps its real value) and bonds for the rest: dataset annual (S&P 500 total return, 10-year Treasury total return, ` +
	`December-to-December CPI-U, 1928-2024, one window per start year) or shiller-monthly (Robert Shiller's series 1871-2023, ` +
	`one window per start month, each year running from that month: stocks earn the price change plus a twelfth of the annual ` +
	`dividend rate each month; bonds are a 10-year bond bought at par at the month's long interest rate and repriced at the next ` +
	`month's rate with annual compounding, the coupon accruing monthly). ` +
	`historical.from and historical.to bound the sample: every window starts in from or later and ends in to or earlier; ` +
	`historical.startMonths january keeps the January starts of shiller-monthly alone; historical.withdrawalTiming monthly ` +
	`(shiller-monthly only) pays each year's withdrawal, set once a year at its start, a twelfth at the start of each month ` +
	`out of the portfolio as it then stands (held from the year's start, each asset in proportion): each twelfth is valued at ` +
	`the year's start by dividing it by the portfolio's growth since, and the year ends with (balance - their sum) x ` +
	`(1 + the year's return), a shortfall in any month counting as running out that year. ` +
	`historical.sequences ranks the windows by years the money lasted, then by real ending balance, and returns the worst, ` +
	`median and best with their paths in money of each window's start, and the success rate by start decade.`
