package plan

import (
	"strconv"

	"fiplan/compute/fi"
)

// sampled is the record o's backtest and withdrawal-rate goal replay: in's
// history restricted to o.Sample, which it checks first. A sample the
// record cannot answer is a *FieldError naming the request's historical
// field at fault: a year outside the dataset, from after to, a span shorter
// than one window, no window inside the span, monthly withdrawals from an
// annual record.
func sampled(in *Inputs, o *Options) (fi.Sampled, error) {
	h, s := &in.History, &o.Sample
	// span is built only for a message: a sample that is fine allocates
	// nothing.
	span := func() string { return strconv.Itoa(h.First) + "-" + strconv.Itoa(h.Last) }
	if s.From != 0 && (s.From < h.First || s.From > h.Last) {
		return fi.Sampled{}, &FieldError{Field: "historical.from", Message: "the dataset " + h.Dataset + " covers " + span()}
	}
	if s.To != 0 && (s.To < h.First || s.To > h.Last) {
		return fi.Sampled{}, &FieldError{Field: "historical.to", Message: "the dataset " + h.Dataset + " covers " + span()}
	}
	r := resolved(in, o)
	if r.From > r.To {
		return fi.Sampled{}, &FieldError{Field: "historical.from", Message: "must not be after historical.to (" + strconv.Itoa(r.To) + ")"}
	}
	if r.To-r.From+1 < o.Window {
		return fi.Sampled{}, &FieldError{Field: "historical.years", Message: "a window of " + strconv.Itoa(o.Window) +
			" years is longer than the sample " + strconv.Itoa(r.From) + "-" + strconv.Itoa(r.To)}
	}
	if _, monthly := h.Series.(*fi.Monthly); s.MonthlyWithdrawals && !monthly {
		return fi.Sampled{}, &FieldError{Field: "historical.withdrawalTiming", Message: "monthly needs a monthly record: dataset shiller-monthly"}
	}
	past := fi.Sampled{Record: h.Series, Sample: *s}
	if fi.Windows(past, o.Window) == 0 {
		return fi.Sampled{}, &FieldError{Field: "historical.to", Message: "no window of " + strconv.Itoa(o.Window) + " years ends by the end of " +
			strconv.Itoa(r.To) + " within the dataset " + h.Dataset + " (" + span() + ", its last year partly)"}
	}
	return past, nil
}

// resolved is o.Sample with From and To as calendar years: the dataset's
// first and last where it leaves them 0.
func resolved(in *Inputs, o *Options) fi.Sample {
	s := o.Sample
	if s.From == 0 {
		s.From = in.History.First
	}
	if s.To == 0 {
		s.To = in.History.Last
	}
	return s
}
