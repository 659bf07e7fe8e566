package geo

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/valyala/fasthttp"

	geodata "fiplan/data/geo"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/rest"
)

// cityFilter is a parsed list query.
type cityFilter struct {
	order     int
	country   [2]byte
	region    int // -1: any
	q         [128]byte
	qLen      int     // the folded query is q[:qLen]; 0: any
	maxCost   float64 // 0: any
	minSafety int
	climate   uint8 // bit set of geo.Band; 0: any
	any       bool  // some filter is set
}

// parseFilter reads the list query. On a bad parameter it has sent 400
// and returns false.
func parseFilter(c *rest.Ctx, f *cityFilter) bool {
	*f = cityFilter{region: -1}
	for k, v := range c.RC.QueryArgs().All() {
		switch bytesconv.String(k) {
		case "country":
			if len(v) != 2 || !isLetter(v[0]) || !isLetter(v[1]) {
				c.Fail("country", "must be an ISO 3166-1 alpha-2 code such as PT")
				return false
			}
			f.country = [2]byte{v[0] &^ 0x20, v[1] &^ 0x20}
		case "region":
			if f.region = slices.Index(geodata.Regions, bytesconv.String(v)); f.region < 0 {
				c.Fail("region", "must be one of "+regionList)
				return false
			}
		case "q":
			if len(v) > 100 {
				c.Fail("q", "must be at most 100 bytes")
				return false
			}
			// A rune folds to at most as many bytes as it has: 100 fit.
			if f.qLen = len(geodata.AppendFold(f.q[:0], bytesconv.String(v))); f.qLen == 0 {
				c.Fail("q", "must contain a letter or a digit")
				return false
			}
		case "maxMonthlyCost":
			x, ok := parseNumber(v, 1e6)
			if !ok {
				c.Fail("maxMonthlyCost", "must be a number of USD above 0 and at most 1000000")
				return false
			}
			f.maxCost = x
		case "minSafety":
			n, err := strconv.Atoi(bytesconv.String(v))
			if err != nil || n < 0 || n > 100 {
				c.Fail("minSafety", "must be an integer from 0 to 100")
				return false
			}
			f.minSafety = n
		case "climate":
			m, ok := parseClimate(v)
			if !ok {
				c.Fail("climate", "must be one or more of "+climateList+", comma separated")
				return false
			}
			f.climate = m
		case "sort":
			var ok bool
			if f.order, ok = parseSort(v); !ok {
				c.Fail("sort", "must be name, cost or index, with a leading - for descending")
				return false
			}
			continue
		default:
			continue // limit, offset
		}
		f.any = true
	}
	return true
}

// parseSort reads the list's sort parameter into one of the orders.
func parseSort(v []byte) (int, bool) {
	switch bytesconv.String(v) {
	case "name":
		return orderName, true
	case "-name":
		return orderNameDesc, true
	case "cost", "index":
		return orderCost, true
	case "-cost", "-index":
		return orderCostDesc, true
	}
	return 0, false
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func (g *Handlers) match(f *cityFilter, i int) bool {
	c, p := &g.cities[i], &g.places[i]
	switch {
	case f.country[0] != 0 && (c.Country[0] != f.country[0] || c.Country[1] != f.country[1]),
		f.region >= 0 && int(p.Region) != f.region,
		f.qLen > 0 && !g.nameMatches(i, f.q[:f.qLen]),
		f.maxCost > 0 && float64(c.MonthlyCostUSD) > f.maxCost,
		c.SafetyIndex < f.minSafety,
		f.climate != 0 && f.climate&(1<<p.Band) == 0:
		return false
	}
	return true
}

// nameMatches reports whether the folded query occurs in city i's folded
// name or in one of its folded aliases.
func (g *Handlers) nameMatches(i int, q []byte) bool {
	for _, f := range g.fold[i] {
		if bytes.Contains(f, q) {
			return true
		}
	}
	return false
}

func (g *Handlers) List(c *rest.Ctx) {
	if c.RC.QueryArgs().Len() == 0 {
		c.SendStatic(g.firstPage)
		return
	}
	var f cityFilter
	if !parseFilter(c, &f) {
		return
	}
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	o := &g.orders[f.order]
	w := c.Begin()
	w.BeginArray()
	total := len(o.idx)
	if !f.any {
		lo, hi := rest.Window(total, limit, offset)
		w.B = append(w.B, o.page(lo, hi)...)
	} else {
		total = 0
		for _, i := range o.idx {
			if !g.match(&f, i) {
				continue
			}
			if total >= offset && total-offset < limit {
				w.Raw(g.items[i])
			}
			total++
		}
	}
	w.EndArray()
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}
