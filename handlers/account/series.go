package account

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/history"
	"fiplan/data/store"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
)

// A user's return series are kept as documents: "series" lists them (the
// summaries, in creation order) and "series-<id>" holds each one whole.
// A create writes the series first and then lists it under the cap, in the
// index's own transaction, so a listed series is always there; a delete
// unlists it first. Export and erasure carry both, as every document.

// SeriesID is the grammar of a series id.
var SeriesID = rest.NewPathParam("id", `^ser_[a-z2-7]{26}$`, 30, "must be a series id: ser_ and 26 characters of a-z and 2-7")

const seriesIndex = "series"

func seriesDoc(id string) string { return "series-" + id }

// seriesIn is a series as sent in JSON.
type seriesIn struct {
	Name      string      `json:"name" schema:"required,minLen=1,maxLen=80" doc:"Your label for the series."`
	Currency  string      `json:"currency" schema:"required,maxLen=3,format=fxCurrency" doc:"ISO 4217 code of the money the returns are in; a backtest on the series runs in it."`
	Frequency string      `json:"frequency" schema:"required,enum=yearly|monthly" doc:"yearly: one row a calendar year; monthly: one row a month."`
	Source    string      `json:"source" schema:"required,minLen=1,maxLen=300" doc:"Where the figures come from, as you declare it."`
	Licence   string      `json:"licence" schema:"required,minLen=1,maxLen=120" doc:"The licence you hold the figures under, as you declare it."`
	Rows      []seriesRow `json:"rows" schema:"required,maxItems=24000" doc:"The periods in order, without a gap or a duplicate: 5 to 2,000 years of rows."`
}

type seriesRow struct {
	Year      int      `json:"year" schema:"required,min=1,max=9999"`
	Month     *int     `json:"month,omitempty" schema:"min=1,max=12" doc:"1-12; required in a monthly series, absent in a yearly one."`
	Stocks    float64  `json:"stocks" schema:"required,min=-1,max=100" doc:"Total return of stocks over the period, as a fraction (0.05 = 5%); a month's within -0.9..3."`
	Bonds     float64  `json:"bonds" schema:"required,min=-1,max=100" doc:"Total return of bonds over the period, as a fraction."`
	Inflation *float64 `json:"inflation,omitempty" schema:"min=-1,max=100" doc:"Consumer-price inflation over the period, as a fraction; on every row or on none (without it the returns count as real)."`
}

// seriesSummary is a series as listed: everything but its rows.
type seriesSummary struct {
	ID        string `json:"id" schema:"required"`
	Name      string `json:"name" schema:"required"`
	Currency  string `json:"currency" schema:"required"`
	Frequency string `json:"frequency" schema:"required" doc:"yearly or monthly."`
	Source    string `json:"source" schema:"required"`
	Licence   string `json:"licence" schema:"required"`
	CreatedAt string `json:"createdAt" schema:"required"`
	RowCount  int    `json:"rowCount" schema:"required"`
	First     string `json:"first" schema:"required" doc:"The first period: YYYY, or YYYY-MM in a monthly series."`
	Last      string `json:"last" schema:"required" doc:"The last period."`
	Dataset   string `json:"dataset" schema:"required" doc:"The name a backtest gives it: historical.dataset user:<id>."`
}

// seriesFull is a series as GET /user/series/{id} answers it.
type seriesFull struct {
	seriesSummary
	Rows []seriesRow `json:"rows" schema:"required"`
}

type seriesList struct {
	Series []seriesSummary `json:"series" schema:"required" doc:"Your series, oldest first, without their rows."`
}

func (s *Handlers) seriesDocs(d *Docs, list, summary, full rest.Schema) {
	notFound := rest.Err(errcode.NotFound, "the caller has no series with this id (another user's id included)")
	limit := rest.Err(errcode.Conflict, "the caller already has "+strconv.Itoa(history.MaxUserSeries)+" series")
	d.ListSeries = &rest.Doc{Tag: "user", Status: 200, Data: list,
		Summary: "List your return series",
		Desc:    "Your stored return series, oldest first, without their rows."}
	d.CreateSeries = &rest.Doc{Tag: "user", Status: 201, Body: s.seriesSchema, Data: summary, CSVBody: true,
		Summary: "Store a return series",
		Desc: "Stores total returns of stocks and bonds (and optionally inflation), by year or by month, in a named currency, with the source and licence you declare; a backtest then names it as historical.dataset user:<id> and runs on it exactly as on the embedded data. " +
			"Send JSON, or Content-Type text/csv with a header line naming the columns (year, month for a monthly series, stocks, bonds, inflation optional) and name, currency, frequency, source and licence as query parameters. " +
			"Refused with 400 naming the row: a gap, a duplicate or a period out of order, a month's return outside -90%..+300% (a year's outside -99%..+10,000%), a missing month, inflation on some rows only, fewer than 5 or more than 2,000 years of rows, a currency fiplan does not know. At most " + strconv.Itoa(history.MaxUserSeries) + " series.",
		Query: []rest.Param{rest.Q("name", "string", "With text/csv: the series' name."), rest.Q("currency", "string", "With text/csv: its currency."),
			rest.Q("frequency", "string", "With text/csv: yearly or monthly."), rest.Q("source", "string", "With text/csv: its source."), rest.Q("licence", "string", "With text/csv: its licence.")},
		Errs: []rest.ErrDoc{limit}}
	d.GetSeries = &rest.Doc{Tag: "user", Status: 200, Data: full, Summary: "Get a return series", Desc: "The series with its rows.", Errs: []rest.ErrDoc{notFound}}
	d.DeleteSeries = &rest.Doc{Tag: "user", Status: 204, Summary: "Delete a return series", Desc: "Removes the series; a backtest can no longer name it.", Errs: []rest.ErrDoc{notFound}}
}

func (s *Handlers) ListSeries(c *rest.Ctx) {
	var idx seriesList
	if _, err := s.db.GetDoc(c.Principal.User, seriesIndex, &idx); err != nil {
		c.Storage(err)
		return
	}
	if idx.Series == nil {
		idx.Series = []seriesSummary{}
	}
	c.JSON(fasthttp.StatusOK, &idx)
}

// readSeries decodes the request body, JSON or CSV, into u; on a failure
// it has answered.
func (s *Handlers) readSeries(c *rest.Ctx, u *history.UserSeries) bool {
	ct := c.RC.Request.Header.ContentType()
	if len(ct) >= 8 && string(ct[:8]) == "text/csv" {
		q := c.RC.QueryArgs()
		u.Name, u.Currency = string(q.Peek("name")), string(q.Peek("currency"))
		u.Frequency, u.Source, u.Licence = string(q.Peek("frequency")), string(q.Peek("source")), string(q.Peek("licence"))
		for _, f := range [...]struct{ name, v string }{{"name", u.Name}, {"currency", u.Currency}, {"frequency", u.Frequency}, {"source", u.Source}, {"licence", u.Licence}} {
			if f.v == "" || len(f.v) > 300 {
				c.Fail(f.name, "is required with text/csv, as a query parameter of at most 300 bytes")
				return false
			}
		}
		rows, rerr := history.ParseUserCSV(c.RC.Request.Body())
		if rerr != nil {
			c.Fail(rerr.Path, rerr.Message)
			return false
		}
		u.Rows = rows
		return true
	}
	var in seriesIn
	if !rest.Decode(c, s.seriesSchema, &in) {
		return false
	}
	*u = history.UserSeries{Name: in.Name, Currency: in.Currency, Frequency: in.Frequency, Source: in.Source, Licence: in.Licence, Rows: make([]history.UserRow, len(in.Rows))}
	for i, r := range in.Rows {
		u.Rows[i] = history.UserRow{Year: r.Year, Month: r.Month, Stocks: r.Stocks, Bonds: r.Bonds, Inflation: r.Inflation}
	}
	return true
}

func (s *Handlers) CreateSeries(c *rest.Ctx) {
	var u history.UserSeries
	if !s.readSeries(c, &u) {
		return
	}
	if err := u.Check(s.fx.Has); err != nil {
		c.Fail(err.Path, err.Message)
		return
	}
	id, err := owned.NewID("ser_")
	if err != nil {
		c.Internal(err)
		return
	}
	u.ID, u.CreatedAt = id, s.now().UTC().Truncate(time.Second).Format(time.RFC3339)
	user := c.Principal.User
	if err := s.db.PutDoc(user, seriesDoc(id), &u); err != nil {
		c.Storage(err)
		return
	}
	sum := summarize(&u)
	err = s.db.UpdateDoc(user, seriesIndex, func(old []byte) ([]byte, error) {
		var idx seriesList
		if old != nil {
			if err := json.Unmarshal(old, &idx); err != nil {
				return nil, err
			}
		}
		if len(idx.Series) >= history.MaxUserSeries {
			return nil, errSeriesLimit
		}
		idx.Series = append(idx.Series, sum)
		return json.Marshal(&idx)
	})
	if err != nil {
		// the series was written but not listed: take it back
		if derr := s.db.DeleteDoc(user, seriesDoc(id)); derr != nil {
			c.Storage(derr)
			return
		}
		if errors.Is(err, errSeriesLimit) {
			c.Error(errcode.Conflict, "you already have "+strconv.Itoa(history.MaxUserSeries)+" series; delete one first")
			return
		}
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusCreated, &sum)
}

var errSeriesLimit = errors.New("series limit reached")

func summarize(u *history.UserSeries) seriesSummary {
	per := func(r *history.UserRow) string {
		if r.Month != nil {
			return strconv.Itoa(r.Year) + "-" + twoDigits(*r.Month)
		}
		return strconv.Itoa(r.Year)
	}
	return seriesSummary{ID: u.ID, Name: u.Name, Currency: u.Currency, Frequency: u.Frequency, Source: u.Source, Licence: u.Licence,
		CreatedAt: u.CreatedAt, RowCount: len(u.Rows), First: per(&u.Rows[0]), Last: per(&u.Rows[len(u.Rows)-1]), Dataset: "user:" + u.ID}
}

func twoDigits(m int) string {
	if m < 10 {
		return "0" + strconv.Itoa(m)
	}
	return strconv.Itoa(m)
}

// Series reads the user's series id; ok is false when the user has none
// by that id. id must match SeriesID. The series' index is read from the
// store on every call, so a series deleted (on any node) is gone at once;
// the series itself, never changed once stored and its id never reused,
// is kept in a small cache (seriesCacheSize series) with the record its
// backtests replay.
func (s *Handlers) Series(user, id string) (u *history.UserSeries, ok bool, err error) {
	if !SeriesID.Valid(bytesconv.Bytes(id)) {
		return nil, false, nil
	}
	var idx seriesList
	if _, err := s.db.GetDoc(user, seriesIndex, &idx); err != nil {
		return nil, false, err
	}
	if !slices.ContainsFunc(idx.Series, func(x seriesSummary) bool { return x.ID == id }) {
		return nil, false, nil
	}
	key := user + "/" + id
	if u, ok := s.seriesCache.get(key); ok {
		return u, true, nil
	}
	u = new(history.UserSeries)
	ok, err = s.db.GetDoc(user, seriesDoc(id), u)
	if err != nil || !ok || u.ID != id || len(u.Rows) == 0 {
		return nil, false, err
	}
	s.seriesCache.put(key, u)
	return u, true, nil
}

// seriesCacheSize bounds the series kept in memory.
const seriesCacheSize = 64

// seriesCache keeps recently read series by user and id, the oldest
// dropped first.
type seriesCache struct {
	mu    sync.Mutex
	byKey map[string]*history.UserSeries
	order []string
}

func (c *seriesCache) get(key string) (*history.UserSeries, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.byKey[key]
	return u, ok
}

// forget drops every series of user (an erased account's); a node that
// did not serve the erasure still never answers them, since Series reads
// the index first.
func (c *seriesCache) forget(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prefix := user + "/"
	kept := c.order[:0]
	for _, k := range c.order {
		if strings.HasPrefix(k, prefix) {
			delete(c.byKey, k)
			continue
		}
		kept = append(kept, k)
	}
	c.order = kept
}

func (c *seriesCache) put(key string, u *history.UserSeries) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]*history.UserSeries{}
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) >= seriesCacheSize {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = u
	c.order = append(c.order, key)
}

func (s *Handlers) GetSeries(c *rest.Ctx) {
	u, ok, err := s.Series(c.Principal.User, string(c.Param("id")))
	switch {
	case err != nil:
		c.Storage(err)
	case !ok:
		c.Error(errcode.NotFound, "no such series")
	default:
		out := seriesFull{seriesSummary: summarize(u), Rows: make([]seriesRow, len(u.Rows))}
		for i, r := range u.Rows {
			out.Rows[i] = seriesRow{Year: r.Year, Month: r.Month, Stocks: r.Stocks, Bonds: r.Bonds, Inflation: r.Inflation}
		}
		c.JSON(fasthttp.StatusOK, &out)
	}
}

func (s *Handlers) DeleteSeries(c *rest.Ctx) {
	user, id := c.Principal.User, string(c.Param("id"))
	found := false
	err := s.db.UpdateDoc(user, seriesIndex, func(old []byte) ([]byte, error) {
		var idx seriesList
		if old != nil {
			if err := json.Unmarshal(old, &idx); err != nil {
				return nil, err
			}
		}
		for i := range idx.Series {
			if idx.Series[i].ID == id {
				idx.Series = append(idx.Series[:i], idx.Series[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			return nil, store.ErrNotFound
		}
		return json.Marshal(&idx)
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such series")
		return
	case err != nil:
		c.Storage(err)
		return
	}
	if err := s.db.DeleteDoc(user, seriesDoc(id)); err != nil {
		c.Storage(err)
		return
	}
	c.NoContent()
}
