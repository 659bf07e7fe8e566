package fi

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// retiree starts retired at 65 with a 1,000,000 portfolio spending 50,000
// (a 5% initial withdrawal rate) over a 30-year horizon, 3% inflation.
func retiree(st Strategy) Input {
	in := Defaults()
	in.CurrentAge = 65
	in.LifeExpectancy = 95
	in.StartYear = 2000
	in.CurrentSavings = 1_000_000
	in.AnnualExpenses = 50_000
	in.WithdrawalRate = 0.05
	in.InflationRate = 0.03
	in.TargetRetirementAge = 65
	in.Strategy = st
	return in
}

// Guyton-Klinger on a constructed path, each step worked by hand:
//
//	year 0: withdraw 50,000 (IWR 5%); 950,000 falls 30% to 665,000.
//	year 1: last return negative and 50,000/665,000 = 7.52% > 5%: no inflation
//	        raise; 7.52% > 6% (1.2 x IWR) with 29 years left: cut 10% -> 45,000.
//	        620,000 grows 60% to 992,000.
//	year 2: raise for 3% inflation -> 46,350; 4.67% lies inside 4%..6%.
//	        945,650 grows 60% to 1,513,040.
//	year 3: raise -> 47,740.50; 3.16% < 4% (0.8 x IWR): raise 10% -> 52,514.55.
func TestGuytonKlingerGuardrails(t *testing.T) {
	t.Parallel()
	in := retiree(StrategyGuytonKlinger)
	rets := []float64{-0.30, 0.60, 0.60, 0.0}
	s, rows := ProjectPath(&in, rets, nil, nil)
	want := []float64{50_000, 45_000, 46_350, 52_514.55}
	for k, w := range want {
		if !near(rows[k].Withdrawals, w, 1e-12) {
			t.Fatalf("year %d: withdrawal %.4f, want %.4f", k, rows[k].Withdrawals, w)
		}
	}
	if !near(rows[1].StartBalance, 665_000, 1e-12) || !near(rows[3].StartBalance, 1_513_040, 1e-12) {
		t.Fatalf("balances %.2f / %.2f", rows[1].StartBalance, rows[3].StartBalance)
	}
	if s.GuardrailCuts != 1 || s.GuardrailRaise < 1 {
		t.Fatalf("cuts %d raises %d", s.GuardrailCuts, s.GuardrailRaise)
	}
}

// The capital-preservation cut does not apply within the last 15 years, and
// the inflation raise is kept after a loss when the rate is still below IWR.
func TestGuytonKlingerLateAndMildYears(t *testing.T) {
	t.Parallel()
	in := retiree(StrategyGuytonKlinger)
	in.LifeExpectancy = 65 + 15 // 15 years: never more than 15 left
	_, rows := ProjectPath(&in, []float64{-0.30, 0}, nil, nil)
	if rows[1].Withdrawals != 50_000 { // no raise (loss, rate above IWR), no cut (late)
		t.Fatalf("late crash: withdrawal %.2f, want 50,000", rows[1].Withdrawals)
	}

	in = retiree(StrategyGuytonKlinger)
	_, rows = ProjectPath(&in, []float64{0.10, -0.01}, nil, nil)
	// year 1: 950,000 x 1.1 = 1,045,000; 50,000/1,045,000 = 4.78% < 5%: raise.
	if !near(rows[1].Withdrawals, 51_500, 1e-12) {
		t.Fatalf("raise after a gain: %.2f", rows[1].Withdrawals)
	}
	// year 2: loss of 1%, but 51,500/((1,045,000-51,500) x 0.99) = 5.24% > 5%: no raise.
	if !near(rows[2].Withdrawals, 51_500, 1e-12) {
		t.Fatalf("after a loss above IWR: %.2f", rows[2].Withdrawals)
	}
}

// excelPMT is the spreadsheet PMT for a loan of pv paid over n periods at
// rate r with payments at the start of each period (type 1), as the Bogleheads
// VPW sheet uses it: PMT = (pv (1+r)^n) r / ((1+r)((1+r)^n - 1)).
func excelPMT(r float64, n int, pv float64) float64 {
	g := math.Pow(1+r, float64(n))
	return pv * g * r / ((1 + r) * (g - 1))
}

// VPW against the published Bogleheads VPW table (60/40 stocks/bonds column):
// 5.0% with 35 years to go (age 65), 5.1% at 34 (age 66), 21.5% at 5 (age 95),
// 26.4% at 4 (age 96); and against the PMT formula computed here.
func TestVPW(t *testing.T) {
	t.Parallel()
	r := VPWReturn(0.6)
	if !near(r, 0.6*0.05+0.4*0.019, 1e-15) {
		t.Fatalf("60/40 VPW return %.5f", r)
	}
	for _, c := range []struct {
		years int
		pct   float64
	}{{35, 5.0}, {34, 5.1}, {5, 21.5}, {4, 26.4}} {
		got := VPWRate(r, c.years)
		if math.Round(got*1000)/10 != c.pct {
			t.Errorf("VPW %d years: %.3f%%, table says %.1f%%", c.years, got*100, c.pct)
		}
		if want := excelPMT(r, c.years, 1); !near(got, want, 1e-12) {
			t.Errorf("VPW %d years: %.6f, PMT %.6f", c.years, got, want)
		}
	}

	in := retiree(StrategyVPW)
	in.StockShare = 0.6
	rets := []float64{0.12, -0.2, 0.05, 0.3, -0.1}
	s, rows := ProjectPath(&in, rets, nil, nil)
	for k, row := range rows {
		want := row.StartBalance * excelPMT(r, 30-k, 1)
		if k == 29 {
			want = row.StartBalance
		}
		if !near(row.Withdrawals, want, 1e-9) {
			t.Fatalf("year %d: VPW withdrawal %.4f, want %.4f", k, row.Withdrawals, want)
		}
	}
	if rows[29].EndBalance != 0 || s.RunsOut {
		t.Fatalf("VPW spends everything in the last year without running out: %+v", s)
	}
}

func TestFixedPercentAndConstant(t *testing.T) {
	t.Parallel()
	in := retiree(StrategyFixedPercent)
	_, rows := ProjectPath(&in, []float64{-0.5, 0.2, 0.1}, nil, nil)
	for k, row := range rows[:5] {
		if !near(row.Withdrawals, 0.05*row.StartBalance, 1e-12) {
			t.Fatalf("fixed percentage year %d: %.2f of %.2f", k, row.Withdrawals, row.StartBalance)
		}
	}

	// Constant: the spending need rises with inflation regardless of returns.
	in = retiree(StrategyConstant)
	infl := []float64{0.03, 0.10, -0.02, 0.05}
	_, rows = ProjectPath(&in, []float64{-0.5, 0.3, 0.1, 0.1}, infl, nil)
	cpi := 1.0
	for k := 0; k < 5; k++ {
		if !near(rows[k].Withdrawals, 50_000*cpi, 1e-12) {
			t.Fatalf("constant year %d: %.4f, want %.4f", k, rows[k].Withdrawals, 50_000*cpi)
		}
		if k < len(infl) {
			cpi *= 1 + infl[k]
		} else {
			cpi *= 1.03
		}
	}
}

func TestStrategyNames(t *testing.T) {
	t.Parallel()
	for s := StrategyConstant; s < numStrategies; s++ {
		b, _ := s.MarshalText()
		var back Strategy
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Fatalf("%v round trip: %v %v", s, back, err)
		}
	}
	var s Strategy
	if err := s.UnmarshalText([]byte("4-percent")); err == nil {
		t.Fatal("unknown name accepted")
	}
}

// wantWithdrawals runs in over rets (3% inflation) and checks the first
// withdrawals.
func wantWithdrawals(t *testing.T, in Input, rets []float64, want []float64) []Year {
	t.Helper()
	_, rows := ProjectPath(&in, rets, nil, nil)
	for k, w := range want {
		if !near(rows[k].Withdrawals, w, 1e-12) {
			t.Fatalf("%v year %d: withdrawal %.6f, want %.6f", in.Strategy, k, rows[k].Withdrawals, w)
		}
	}
	return rows
}

// The 95% rule (Clyatt): 5% of the balance, but never below 95% of last
// year's withdrawal.
//
//	year 0: 5% of 1,000,000 = 50,000; 950,000 falls 30% to 665,000.
//	year 1: 5% = 33,250 < 95% of 50,000 = 47,500: 47,500; 617,500 x 1.1 = 679,250.
//	year 2: 5% = 33,962.50 < 95% of 47,500 = 45,125: 45,125; 634,125 x 1.5 = 951,187.50.
//	year 3: 5% = 47,559.375 > 95% of 45,125 = 42,868.75: 47,559.375.
func TestNinetyFivePercentRule(t *testing.T) {
	t.Parallel()
	wantWithdrawals(t, retiree(StrategyNinetyFive), []float64{-0.30, 0.10, 0.50, 0}, []float64{50_000, 47_500, 45_125, 47_559.375})
}

// Floor and ceiling: 5% of the balance, held in real terms between 90% and
// 125% of the first year's 50,000 (prices rise 3% a year).
//
//	year 0: 50,000; 950,000 x 0.7 = 665,000.
//	year 1: 5% = 33,250 < floor 45,000 x 1.03 = 46,350: 46,350; 618,650 x 1.6 = 989,840.
//	year 2: 5% = 49,492, inside 47,740.50 .. 66,306.25: 49,492; 940,348 x 1.6 = 1,504,556.80.
//	year 3: 5% = 75,227.84 > ceiling 62,500 x 1.03^3 = 68,295.4375: 68,295.4375.
func TestFloorAndCeiling(t *testing.T) {
	t.Parallel()
	wantWithdrawals(t, retiree(StrategyFloorCeiling), []float64{-0.30, 0.60, 0.60, 0}, []float64{50_000, 46_350, 49_492, 68_295.4375})
}

// Vanguard dynamic spending: 5% of the balance, its real change from last
// year held between -2.5% and +5%.
//
//	year 0: 50,000 (real 50,000); 665,000.
//	year 1: 5% = 33,250; last year's 50,000 is 51,500 now, floor 97.5% = 50,212.50.
//	        614,787.50 x 1.6 = 983,660.
//	year 2: 5% = 49,183; real 48,750 is 51,718.875 now, floor 50,425.903125.
//	        933,234.096875 x 1.6 = 1,493,174.555.
//	year 3: 5% = 74,658.73; real 47,531.25 is 51,938.68 now, ceiling +5% = 54,535.6142296875.
func TestVanguardDynamicSpending(t *testing.T) {
	t.Parallel()
	wantWithdrawals(t, retiree(StrategyVanguard), []float64{-0.30, 0.60, 0.60, 0}, []float64{50_000, 50_212.5, 50_425.903125, 54_535.6142296875})
}

// CAPE rule: 1.5% + 0.5 / CAPE of the balance; the record's CAPE where it
// has one, else Input.CAPE, else the withdrawal rate.
func TestCAPERule(t *testing.T) {
	t.Parallel()
	in := retiree(StrategyCAPE)
	in.CAPE = 25 // 1.5% + 2% = 3.5%
	rows := wantWithdrawals(t, in, []float64{0.10}, []float64{35_000})
	if !near(rows[1].Withdrawals, 0.035*rows[1].StartBalance, 1e-12) {
		t.Fatalf("year 1: %.4f of %.4f", rows[1].Withdrawals, rows[1].StartBalance)
	}
	var p plan
	p.init(&in)
	if r0, r1 := p.capeRate(0), p.capeRate(40); !near(r0, 0.035, 1e-12) || !near(r1, 0.0275, 1e-12) {
		t.Fatalf("rates %v %v, want 0.035 (input), 0.0275 (record)", r0, r1)
	}
	in.CAPE = 0
	wantWithdrawals(t, in, nil, []float64{50_000})
	// A monthly record's CAPE reaches the backtest: CAPE 10 spends 6.5% of
	// the balance a year, so a flat market leaves 0.935^20 of it after 20
	// years (5%, the withdrawal rate, would leave 0.95^20).
	const n = 12*20 + 1
	price, div, cpi, rate, cape := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range price {
		price[i], cpi[i], cape[i] = 100, 100, 10
	}
	m := NewMonthly(2000, 1, price, div, cpi, rate, cape)
	in.StockShare = 1
	if r := Backtest(&in, &m, 20); r.Periods != 1 || r.SuccessRate != 1 || !near(r.WorstEndBalance, 1e6*math.Pow(0.935, 20), 1e-9) {
		t.Fatalf("CAPE 10 on a flat record: %+v", r)
	}
}

// Guardrails with a capped inflation raise: 10% inflation raises the
// withdrawal by 6% only; plain Guyton-Klinger passes the 10% on.
func TestGuardrailsCappedRaise(t *testing.T) {
	t.Parallel()
	infl := []float64{0.10, 0.10}
	for _, c := range []struct {
		st   Strategy
		want float64
	}{{StrategyGuardrailsCapped, 53_000}, {StrategyGuytonKlinger, 55_000}} {
		in := retiree(c.st)
		_, rows := ProjectPath(&in, []float64{0.05, 0.05}, infl, nil)
		if rows[0].Withdrawals != 50_000 || !near(rows[1].Withdrawals, c.want, 1e-12) {
			t.Fatalf("%v: %.4f then %.4f, want 50,000 then %.0f", c.st, rows[0].Withdrawals, rows[1].Withdrawals, c.want)
		}
	}
}

// The method statement quotes the parameters the code uses.
func TestMethodQuotesParameters(t *testing.T) {
	t.Parallel()
	pct := func(x float64) string { return strconv.FormatFloat(x*100, 'f', -1, 64) + "%" }
	for _, want := range []string{
		strconv.FormatFloat(DefaultReturnStdDev, 'f', -1, 64) + " for returns",
		strconv.FormatFloat(DefaultInflationStdDev, 'f', -1, 64) + " for inflation",
		"at least " + pct(NinetyFiveShare) + " of last year's",
		"between " + pct(FloorShare) + " and " + pct(CeilingShare),
		"(" + pct(CAPEBase) + " + " + strconv.FormatFloat(CAPESlope, 'f', -1, 64) + " / CAPE)",
		"between -" + pct(VanguardFloor) + " and +" + pct(VanguardCeiling),
		"capped at " + pct(GuardrailInflationCap),
	} {
		if !strings.Contains(Method, want) {
			t.Errorf("Method does not say %q", want)
		}
	}
	for _, name := range StrategyNames() {
		if !strings.Contains(Method, name) {
			t.Errorf("Method does not name the strategy %q", name)
		}
	}
}
