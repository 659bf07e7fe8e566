package calculator

import (
	"errors"

	"fiplan/compute/plan"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/schema"
)

// WorkOf is the work, in one-pot path-years, that the cost model charges
// for body answered as csv or JSON: decoded and its plans' inputs set as
// Calculate sets them, then priced.
func (s *Handlers) WorkOf(body []byte, csv bool) (int, error) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	var r schema.Result
	if !s.schema.Decode(body, &w.req, &r) {
		return 0, errors.New(r.Error)
	}
	// translate sets the plans' inputs as it checks them
	if err := s.translate(w, s.now().Year()); err != nil {
		return 0, err
	}
	return s.work(w, csv)
}

// HouseholdRows appends the rows of every plan of r, a household answer,
// as the answer writes them: JSON projections, or the CSV answer.
func HouseholdRows(b []byte, r *plan.Result, csv bool) []byte {
	if csv {
		return appendCSV(b, r, 1)
	}
	w := jsonw.Writer{B: b}
	for k := range r.Plans {
		writeHouseholdRows(&w, &r.Plans[k], r.Taxed, 1)
	}
	return w.B
}
