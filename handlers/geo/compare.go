package geo

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/valyala/fasthttp"

	"fiplan/compute/geo"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

// lineNames are the JSON names of the cost lines, in geo.Lines order.
var lineNames = [geo.NumLines]string{"rent", "groceries", "eatingOut", "transport", "utilities", "internet", "healthInsurance"}

const styleDoc = "lean: a one-bedroom flat outside the centre, and 0.8 x groceries, eating out, transport and utilities (internet and health insurance as they are); " +
	"normal: the single-person budget (one-bedroom flat in the centre); fat: 1.5 x every line of the single budget; family: the family-of-four budget (three-bedroom flat in the centre)."

const (
	minCompare            = 2
	maxCompare            = 5
	defaultWithdrawalRate = 0.04
)

func validID(id []byte) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, b := range id {
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-') {
			return false
		}
	}
	return true
}

// compareQuery is a parsed compare request.
type compareQuery struct {
	style geo.Style
	rate  float64
	idx   [maxCompare]int // city indexes, idx[:n]
	n     int
}

// parseCompare reads the compare query. On a bad parameter it has sent
// 400 (404 for an unknown city) and returns false.
func (g *Handlers) parseCompare(c *rest.Ctx, q *compareQuery) bool {
	args := c.RC.QueryArgs()
	*q = compareQuery{style: geo.Normal, rate: defaultWithdrawalRate}
	if v := args.Peek("style"); v != nil {
		var ok bool
		if q.style, ok = geo.ParseStyle(bytesconv.String(v)); !ok {
			c.Fail("style", "must be one of lean, normal, fat, family")
			return false
		}
	}
	if v := args.Peek("withdrawalRate"); v != nil {
		var ok bool
		if q.rate, ok = parseNumber(v, 0.2); !ok {
			c.Fail("withdrawalRate", "must be a number above 0 and at most 0.2")
			return false
		}
	}
	ids := args.Peek("ids")
	if ids == nil {
		c.Fail("ids", "is required: 2 to 5 city ids, comma separated")
		return false
	}
	for id := range bytes.SplitSeq(ids, []byte{','}) {
		if !g.addCompared(c, q, id) {
			return false
		}
	}
	if q.n < minCompare {
		c.Fail("ids", "must list at least 2 city ids, comma separated")
		return false
	}
	return true
}

// addCompared appends the city id to q; on a bad or repeated id it has
// sent the error and returns false.
func (g *Handlers) addCompared(c *rest.Ctx, q *compareQuery, id []byte) bool {
	if q.n == maxCompare {
		c.Fail("ids", "must list at most 5 city ids")
		return false
	}
	if !validID(id) {
		c.Fail("ids", "each id must be a city id such as lisbon-pt")
		return false
	}
	i, ok := g.lookup(id)
	if !ok {
		c.Error(errcode.NotFound, "no city with id "+strconv.Quote(string(id)))
		return false
	}
	if slices.Contains(q.idx[:q.n], i) {
		c.Fail("ids", strconv.Quote(string(id))+" is listed twice")
		return false
	}
	q.idx[q.n] = i
	q.n++
	return true
}

func (g *Handlers) Compare(c *rest.Ctx) {
	var q compareQuery
	if !g.parseCompare(c, &q) {
		return
	}
	var buf [maxCompare]geo.Compared
	entries := geo.Compare(buf[:0], g.places, q.idx[:q.n], q.style, q.rate)
	w := c.Begin()
	w.Begin()
	w.Key("style")
	w.String(q.style.String())
	w.Key("withdrawalRate")
	w.Float(q.rate)
	w.Key("reference")
	w.String(g.cities[q.idx[0]].ID)
	w.Key("cities")
	w.BeginArray()
	var text [160]byte
	for k := range entries {
		g.writeCompared(w, &entries[k], &entries[0], text[:0])
	}
	w.EndArray()
	w.End()
	c.Send(fasthttp.StatusOK)
}

// writeCompared writes one entry of a comparison; text is scratch space.
func (g *Handlers) writeCompared(w *jsonw.Writer, e, ref *geo.Compared, text []byte) {
	w.Begin()
	w.Key("city")
	w.Raw(g.items[e.City])
	w.Key("monthlyCostUSD")
	w.Int(int64(e.Total))
	w.Key("annualCostUSD")
	w.Int(int64(e.Annual))
	w.Key("fiNumberUSD")
	w.Fixed(e.FINumber, 2)
	w.Key("costs")
	w.Begin()
	for j := range geo.NumLines {
		w.Key(lineNames[j])
		w.Int(int64(e.Lines[j]))
	}
	w.Key("total")
	w.Int(int64(e.Total))
	w.End()
	w.Key("ratioToFirst")
	w.Begin()
	for j := range geo.NumLines {
		w.Key(lineNames[j])
		w.Fixed(e.Ratio[j], 3)
	}
	w.Key("total")
	w.Fixed(e.TotalRatio, 3)
	w.End()
	w.Key("goesFurther")
	w.Fixed(e.Further, 3)
	w.Key("summary")
	w.Bytes(geo.AppendSummary(text, e, &g.places[e.City], &g.places[ref.City]))
	w.End()
}
