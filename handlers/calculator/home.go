package calculator

import (
	"strconv"
	"strings"

	"fiplan/handlers/rest"

	"fiplan/compute/fi"
	"fiplan/compute/plan"
	"fiplan/data/history"
)

// money is the currency the request's backtest runs in and the country
// whose prices index its spending: historical.currency, else the plan's
// currency (the request's, else the tax country's, else USD); the prices
// are the tax country's when it pays in that currency (see
// history.Home.PricesCountry).
func (s *Handlers) money(req *calcRequest) (currency, country string) {
	if req.Tax != nil {
		country = req.Tax.Country
	}
	switch {
	case req.Historical != nil && req.Historical.Currency != "":
		currency = req.Historical.Currency
	case req.Currency != "":
		currency = req.Currency
	default:
		currency = "USD"
		if sys, ok := s.taxes.ByCountry(country); ok && sys.Currency != "" {
			currency = sys.Currency
		}
	}
	return currency, country
}

// record is the historical record the request's backtest and goals replay
// (the dataset it names) in the request's money; user, when not nil, is
// the user's own series it names, as read by userRecord. The US dollar is the
// record as published; another currency's is restated once per dataset,
// currency and prices and kept (a few dozen records at most).
func (s *Handlers) record(req *calcRequest, user *plan.History) (*plan.History, error) {
	if user != nil {
		return user, nil
	}
	_, dataset := window(req)
	currency, country := s.money(req)
	prices, havePrices := s.home.PricesCountry(currency, country)
	if currency == "USD" {
		prices, havePrices = "", false
	}
	key := dataset + "/" + currency + "/" + prices
	if r, ok := s.records.Load(key); ok {
		return r.(*plan.History), nil
	}
	r := &plan.History{Dataset: dataset, Currency: currency}
	var m *fi.Monthly
	if dataset == "shiller-monthly" {
		var err error
		if m, err = history.ShillerReturns(); err != nil {
			return nil, err
		}
		r.Series, r.First, r.Last = m, m.FirstYear, m.FirstYear+(m.FirstMonth-1+m.Len()-1)/12
	} else {
		r.Series, r.First, r.Last = fi.Series(s.history), s.history.First(), s.history.Last()
	}
	if currency != "USD" {
		r.Converted, r.Prices = true, prices
		money := s.home.Money(currency, prices)
		if m != nil {
			conv, cov := m.In(money)
			r.Series, r.Coverage = &conv, cov
		} else {
			r.Series, r.Coverage = fi.Series(s.history).In(money)
		}
		r.Note = conversionNote(r, &money, havePrices)
	}
	got, _ := s.records.LoadOrStore(key, r)
	return got.(*plan.History), nil
}

// conversionNote says how a restated record was made and what the years
// outside its coverage keep.
func conversionNote(r *plan.History, m *fi.Money, havePrices bool) string {
	n := "The US record restated in " + r.Currency + ": "
	switch monthly := m.FXYear*12 + m.FXMonth - 1 + m.YearlyMonths; {
	case len(m.PerUSD) > 0 && m.YearlyMonths > 0:
		n += "returns at the World Bank's yearly official rates against the US dollar from " + strconv.Itoa(m.FXYear) +
			" (each month at its year's average) and the Federal Reserve's H.10 monthly average rates from " + strconv.Itoa(monthly/12)
	case len(m.PerUSD) > 0:
		n += "returns at the Federal Reserve's H.10 monthly average rates against the US dollar (from " + strconv.Itoa(m.FXYear) + ")"
	default:
		n += "no exchange rates on record for " + r.Currency + ", so the dollar is taken to move by the difference of the two inflations (purchasing-power parity)"
	}
	if havePrices {
		n += "; spending indexed by " + r.Prices + " consumer prices (World Bank, from " + strconv.Itoa(m.CPIYear) + ")"
	} else {
		n += "; no consumer prices on record for " + r.Currency + ", so spending follows US inflation"
	}
	c := r.Coverage
	switch {
	case c.From == 0:
		n += ". No year has both: every year keeps its US returns in real terms."
	case c.From > r.First || c.To < r.Last:
		n += ". Restated " + strconv.Itoa(c.From) + "-" + strconv.Itoa(c.To) + "; the other years of " + strconv.Itoa(r.First) + "-" + strconv.Itoa(r.Last) + " keep their US returns in real terms."
	default:
		n += ". Every year restated."
	}
	return n
}

// userDataset reports whether the request's backtest runs on a user's own
// series.
func userDataset(req *calcRequest) bool {
	return req.Historical != nil && strings.HasPrefix(req.Historical.Dataset, "user:")
}

// userRecord reads the record of a user:<id> dataset into w.user: the
// caller's own series, in its own currency. On a failure it has answered.
func (s *Handlers) userRecord(c *rest.Ctx, w *calcWork) bool {
	w.user = nil
	h := w.req.Historical
	if h == nil {
		return true
	}
	id, ok := strings.CutPrefix(h.Dataset, "user:")
	if !ok {
		return true
	}
	user := c.Principal.User
	if user == "" || s.series == nil {
		c.Fail("historical.dataset", "user:<id> names a series of a signed-in user: send your credentials")
		return false
	}
	u, found, err := s.series(user, id)
	switch {
	case err != nil:
		c.Storage(err)
		return false
	case !found:
		c.Fail("historical.dataset", "you have no series "+id+" (GET /api/v1/user/series lists yours)")
		return false
	case h.Currency != "" && h.Currency != u.Currency:
		c.Fail("historical.currency", "a series runs in its own currency, "+u.Currency+"; leave currency out or send "+u.Currency)
		return false
	}
	rec, first, last := u.Record()
	w.userRec = plan.History{Series: rec, Dataset: h.Dataset, First: first, Last: last, Currency: u.Currency}
	w.user = &w.userRec
	return true
}
