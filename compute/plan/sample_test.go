package plan

import (
	"errors"
	"testing"

	"fiplan/compute/fi"
)

// Run replays the backtest and the rate goal over the sample asked, states
// it in the result, and refuses one the record cannot answer with the
// request field at fault, before anything is admitted.
func TestRunSample(t *testing.T) {
	t.Parallel()
	p, in := timedPlan(t), testInputs()
	target := 0.9
	o := &Options{Step: 0, Window: 30, WindowSet: true, Backtest: true, TargetRate: &target, MaxWithdrawalRate: 0.2, Sample: fi.Sample{From: 1950, To: 1999}}
	var r Result
	if err := Run(&p, in, o, &r); err != nil {
		t.Fatal(err)
	}
	bt := r.Backtest
	if bt.Periods != 21 || bt.Sample.From != 1950 || bt.Sample.To != 1999 ||
		bt.First != (fi.WindowStart{Year: 1950}) || bt.Last != (fi.WindowStart{Year: 1970}) {
		t.Fatalf("sample 1950-1999: %d windows, %+v, %v-%v", bt.Periods, bt.Sample, bt.First, bt.Last)
	}
	// Defaults resolve to the record's years.
	o.Sample = fi.Sample{}
	if err := Run(&p, in, o, &r); err != nil || r.Backtest.Sample.From != 1928 || r.Backtest.Sample.To != 2024 || r.Backtest.Periods != 68 {
		t.Fatalf("whole record: %v, %+v, %d windows", err, r.Backtest.Sample, r.Backtest.Periods)
	}
	for _, c := range []struct {
		s     fi.Sample
		field string
	}{
		{fi.Sample{From: 1927}, "historical.from"},
		{fi.Sample{To: 2025}, "historical.to"},
		{fi.Sample{From: 2000, To: 1990}, "historical.from"},
		{fi.Sample{From: 2000}, "historical.years"},
		{fi.Sample{MonthlyWithdrawals: true}, "historical.withdrawalTiming"},
	} {
		admitted := false
		o := &Options{Window: 30, Backtest: true, Sample: c.s, Admit: func() error { admitted = true; return nil }}
		var fe *FieldError
		if err := Run(&p, in, o, &r); !errors.As(err, &fe) || fe.Field != c.field || admitted {
			t.Errorf("%+v: %v (admitted %v), want a FieldError on %s", c.s, err, admitted, c.field)
		}
	}
}
