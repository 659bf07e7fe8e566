package handlers

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/schema"
)

// The /geo routes (issue #6) serve the embedded city dataset.
//
// Every city's JSON is encoded once at start. For each sort order the
// encoded cities are also joined, comma separated, into one buffer with the
// offset of each item, so that any page of the unfiltered list is a single
// contiguous slice of it: the list costs a copy of its bytes. The first
// page with no query at all, and every city's detail, are whole response
// bodies built at start and handed to fasthttp without a copy. Filtered
// lists scan the 200-odd cities and copy the pre-encoded items that match.
//
// Recommendations are computed per request and their response bodies kept
// in a ristretto cache keyed by the canonical form of the decoded request.

// geoService is the dataset prepared for serving. It is read-only after
// newGeoService, except for the cache.
type geoService struct {
	cities    []geo.City // id order
	byID      map[string]int
	household [][maxHousehold]costLines // per city, for 1 to maxHousehold people
	info      []cityInfo                // parallel to cities
	items     [][]byte                  // each city's JSON
	orders    [nOrders]cityOrder
	firstPage []byte   // the whole response to GET /geo/cities without a query
	details   [][]byte // the whole response to GET /geo/cities/{id}, per city

	cache *ristretto.Cache[string, []byte] // nil: recommendations are not cached
	hits  atomic.Uint64                    // cache hits, for tests
}

// cityInfo is what filters and scores need beyond the city itself.
type cityInfo struct {
	fold       []byte // geo.AppendFold of the name, for q
	band       int    // index in geo.ClimateBands
	region     int    // index in geo.Regions
	english    int    // index in geo.EnglishBands (0 is native)
	taxProgram string // name of an open or changed special tax program of the country
}

// Sort orders of the list.
const (
	orderName = iota
	orderNameDesc
	orderCost
	orderCostDesc
	nOrders
)

// cityOrder is the list in one order, pre-encoded.
type cityOrder struct {
	idx    []int  // city indexes in this order
	joined []byte // their items, comma separated
	starts []int  // starts[k] is where item k begins in joined; starts[n] = len(joined)+1
}

// page returns the encoded items k in [lo, hi), comma separated.
func (o *cityOrder) page(lo, hi int) []byte {
	if hi <= lo {
		return nil
	}
	return o.joined[o.starts[lo] : o.starts[hi]-1]
}

// cityItem is a city as the API serves it: the dataset's fields and its
// climate band.
type cityItem struct {
	geo.City
	ClimateBand string `json:"climateBand" schema:"required,enum=cold|temperate|warm|hot" doc:"From the average highs of the coldest and warmest month: cold (coldest below 5 °C), hot (coldest 24 °C or more, or warmest 38 °C or more), warm (coldest 12 °C or more and warmest 25 °C or more), else temperate."`
}

const recoCacheBytes = 32 << 20

func newGeoService(cities *geo.Table, programs *program.Table) (*geoService, error) {
	g := &geoService{cities: cities.All(), byID: map[string]int{}}
	n := len(g.cities)
	g.info = make([]cityInfo, n)
	g.items = make([][]byte, n)
	g.details = make([][]byte, n)
	g.household = make([][maxHousehold]costLines, n)
	for i := range g.cities {
		c := &g.cities[i]
		g.byID[c.ID] = i
		for k := range maxHousehold {
			g.household[i][k] = householdLines(c, k+1)
		}
		band := c.Climate.Band()
		b, err := json.Marshal(cityItem{City: *c, ClimateBand: band})
		if err != nil {
			return nil, fmt.Errorf("cannot encode city %q: %w", c.ID, err)
		}
		g.items[i] = b
		g.details[i] = slices.Concat([]byte(`{"success":true,"data":`), b, []byte(`}`))
		g.info[i] = cityInfo{
			fold:       geo.AppendFold(nil, c.Name),
			band:       slices.Index(geo.ClimateBands, band),
			region:     slices.Index(geo.Regions, c.Region),
			english:    slices.Index(geo.EnglishBands, c.EnglishProficiency),
			taxProgram: taxProgramOf(programs, c.Country),
		}
	}

	byCost := func(a, b int) int {
		if d := g.cities[a].MonthlyCostUSD - g.cities[b].MonthlyCostUSD; d != 0 {
			return d
		}
		return a - b
	}
	for k := range g.orders {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		switch k {
		case orderNameDesc:
			slices.Reverse(idx)
		case orderCost:
			slices.SortFunc(idx, byCost)
		case orderCostDesc:
			slices.SortFunc(idx, func(a, b int) int {
				if d := g.cities[b].MonthlyCostUSD - g.cities[a].MonthlyCostUSD; d != 0 {
					return d
				}
				return a - b
			})
		}
		o := &g.orders[k]
		o.idx = idx
		o.starts = make([]int, n+1)
		for j, i := range idx {
			if j > 0 {
				o.joined = append(o.joined, ',')
			}
			o.starts[j] = len(o.joined)
			o.joined = append(o.joined, g.items[i]...)
		}
		o.starts[n] = len(o.joined) + 1
	}

	var w jsonw.Writer
	w.B = append(w.B, `{"success":true,"data":[`...)
	hi := min(defaultLimit, n)
	w.B = append(w.B, g.orders[orderName].page(0, hi)...)
	w.B = append(w.B, ']')
	g.firstPage = appendMeta(w.B, n, defaultLimit, 0)

	s1, s2 := maphash.MakeSeed(), maphash.MakeSeed()
	cache, err := ristretto.NewCache(&ristretto.Config[string, []byte]{
		NumCounters:        100_000,
		MaxCost:            recoCacheBytes,
		BufferItems:        64,
		IgnoreInternalCost: true,
		KeyToHash: func(k string) (uint64, uint64) {
			return maphash.String(s1, k), maphash.String(s2, k)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("cannot create recommendation cache: %w", err)
	}
	g.cache = cache
	return g, nil
}

func (g *geoService) close() {
	if g != nil && g.cache != nil {
		g.cache.Close()
	}
}

// taxProgramOf names a special tax program of the country that is open to
// newcomers or was changed (not closed), or "". Programs for people living
// on pensions and investments come before those for workers.
func taxProgramOf(programs *program.Table, country string) string {
	if programs == nil {
		return ""
	}
	best, rank := "", len(programKinds)+1
	for _, p := range programs.ByCountry(country) {
		if p.Status != program.StatusOpen && p.Status != program.StatusChanged {
			continue
		}
		r := slices.Index(programKinds, p.Kind)
		if r < 0 {
			r = len(programKinds)
		}
		if r < rank {
			best, rank = p.Name, r
		}
	}
	return best
}

// programKinds orders program kinds by their use to someone retiring early.
var programKinds = []program.Kind{
	program.KindPensionerFlat, program.KindNonDom, program.KindLumpSum, program.KindRemittance,
	program.KindHoliday, program.KindInvestor, program.KindVisa, program.KindDigitalNomad,
	program.KindImpatriate, program.KindSmallBusiness,
}

// appendMeta ends a list envelope as SendList does.
func appendMeta(b []byte, total, limit, offset int) []byte {
	b = append(b, `,"meta":{"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(limit), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(offset), 10)
	return append(b, "}}"...)
}

// sendPrebuilt sends a whole response body built beforehand. body must not
// change for as long as anyone holds it (fasthttp sends it without a copy).
func (c *Ctx) sendPrebuilt(status int, body []byte) {
	c.status = status
	c.RC.SetStatusCode(status)
	c.RC.Response.Header.SetContentTypeBytes(contentJSON)
	c.RC.Response.SetBodyRaw(body)
}

// Query parameters

// queryParams checks that every query parameter is one of names and none is
// repeated; otherwise it has sent 400 naming the parameter.
func queryParams(c *Ctx, names ...string) bool {
	var seen uint32
	for k := range c.RC.QueryArgs().All() {
		i := slices.Index(names, b2s(k))
		switch {
		case i < 0:
			c.Fail(clip(k), "unknown query parameter; this route takes "+strings.Join(names, ", "))
			return false
		case seen&(1<<i) != 0:
			c.Fail(names[i], "given more than once")
			return false
		}
		seen |= 1 << i
	}
	return true
}

// clip copies at most 64 bytes of a request value, to quote it in an error.
func clip(b []byte) string {
	if len(b) > 64 {
		b = b[:64]
	}
	return string(b)
}

var (
	regionList  = strings.Join(geo.Regions, ", ")
	climateList = strings.Join(geo.ClimateBands, ", ")
)

// parseClimate reads a comma-separated list of bands into a bit set.
func parseClimate(v []byte) (uint8, bool) {
	var mask uint8
	for part := range bytes.SplitSeq(v, []byte{','}) {
		i := slices.Index(geo.ClimateBands, b2s(part))
		if i < 0 {
			return 0, false
		}
		mask |= 1 << i
	}
	return mask, true
}

// parseNumber reads a finite number in (0, max].
func parseNumber(v []byte, max float64) (float64, bool) {
	x, err := strconv.ParseFloat(b2s(v), 64)
	return x, err == nil && x > 0 && x <= max
}

// List

// cityFilter is a parsed list query.
type cityFilter struct {
	order     int
	country   [2]byte
	region    int // -1: any
	q         [128]byte
	qLen      int     // the folded query is q[:qLen]; 0: any
	maxCost   float64 // 0: any
	minSafety int
	climate   uint8 // bit set of geo.ClimateBands; 0: any
	any       bool  // some filter is set
}

var listParams = []string{"country", "region", "q", "maxMonthlyCost", "minSafety", "climate", "sort", "limit", "offset"}

// parseFilter reads the list query. On a bad parameter it has sent 400
// and returns false.
func parseFilter(c *Ctx, f *cityFilter) bool {
	if !queryParams(c, listParams...) {
		return false
	}
	*f = cityFilter{region: -1}
	for k, v := range c.RC.QueryArgs().All() {
		switch b2s(k) {
		case "country":
			if len(v) != 2 || !isLetter(v[0]) || !isLetter(v[1]) {
				c.Fail("country", "must be an ISO 3166-1 alpha-2 code such as PT")
				return false
			}
			f.country = [2]byte{v[0] &^ 0x20, v[1] &^ 0x20}
		case "region":
			if f.region = slices.Index(geo.Regions, b2s(v)); f.region < 0 {
				c.Fail("region", "must be one of "+regionList)
				return false
			}
		case "q":
			if len(v) > 100 {
				c.Fail("q", "must be at most 100 bytes")
				return false
			}
			// A rune folds to at most as many bytes as it has: 100 fit.
			if f.qLen = len(geo.AppendFold(f.q[:0], b2s(v))); f.qLen == 0 {
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
			n, err := strconv.Atoi(b2s(v))
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
			switch b2s(v) {
			case "name":
				f.order = orderName
			case "-name":
				f.order = orderNameDesc
			case "cost", "index":
				f.order = orderCost
			case "-cost", "-index":
				f.order = orderCostDesc
			default:
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

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func (g *geoService) match(f *cityFilter, i int) bool {
	c, in := &g.cities[i], &g.info[i]
	switch {
	case f.country[0] != 0 && (c.Country[0] != f.country[0] || c.Country[1] != f.country[1]),
		f.region >= 0 && in.region != f.region,
		f.qLen > 0 && !bytes.Contains(in.fold, f.q[:f.qLen]),
		f.maxCost > 0 && float64(c.MonthlyCostUSD) > f.maxCost,
		c.SafetyIndex < f.minSafety,
		f.climate != 0 && f.climate&(1<<in.band) == 0:
		return false
	}
	return true
}

func (s *Server) listCities(c *Ctx) {
	g := s.geo
	if c.RC.QueryArgs().Len() == 0 {
		c.sendPrebuilt(fasthttp.StatusOK, g.firstPage)
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
		lo, hi := window(total, limit, offset)
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

// Detail

func (g *geoService) lookup(id []byte) (int, bool) {
	i, ok := g.byID[b2s(id)]
	return i, ok
}

func (s *Server) getCity(c *Ctx) {
	i, ok := s.geo.lookup(c.Param("id"))
	if !ok {
		c.Error(fasthttp.StatusNotFound, CodeNotFound, "no city with id "+strconv.Quote(clip(c.Param("id"))))
		return
	}
	c.sendPrebuilt(fasthttp.StatusOK, s.geo.details[i])
}

// Spending styles and household sizes

// Cost lines in geo.Lines order, without the total.
const (
	lineRent = iota
	lineGroceries
	lineEatingOut
	lineTransport
	lineUtilities
	lineInternet
	lineHealthInsurance
	nLines
)

var lineNames = [nLines]string{"rent", "groceries", "eatingOut", "transport", "utilities", "internet", "healthInsurance"}

type costLines [nLines]int

func linesOf(l *geo.Lines) costLines {
	return costLines{l.Rent, l.Groceries, l.EatingOut, l.Transport, l.Utilities, l.Internet, l.HealthInsurance}
}

func (l *costLines) total() int {
	t := 0
	for _, v := range l {
		t += v
	}
	return t
}

func roundInt(x float64) int { return int(math.Round(x)) }

// Spending styles of compare.
var styles = []string{"lean", "normal", "fat", "family"}

const styleDoc = "lean: a one-bedroom flat outside the centre, and 0.8 x groceries, eating out, transport and utilities (internet and health insurance as they are); " +
	"normal: the single-person budget (one-bedroom flat in the centre); fat: 1.5 x every line of the single budget; family: the family-of-four budget (three-bedroom flat in the centre)."

// styleLines is a city's monthly budget in a spending style (an index in
// styles).
func styleLines(c *geo.City, style int) costLines {
	l := linesOf(&c.Breakdown.Single)
	switch styles[style] {
	case "lean":
		l[lineRent] = c.Rents.OneBedOutside
		for _, k := range [...]int{lineGroceries, lineEatingOut, lineTransport, lineUtilities} {
			l[k] = roundInt(float64(l[k]) * 0.8)
		}
	case "fat":
		for k := range l {
			l[k] = roundInt(float64(l[k]) * 1.5)
		}
	case "family":
		l = linesOf(&c.Breakdown.Family)
	}
	return l
}

const maxHousehold = 8

// householdLines is a city's monthly budget for n people (1 to 8): the
// single budget for one; for 2 to 4, each line between the single and the
// family-of-four budget, (n-1)/3 of the way; for 5 to 8, the family budget
// with the per-person lines x n/4 and rent x (1 + 0.1 x (n-4)).
func householdLines(c *geo.City, n int) costLines {
	s, f := linesOf(&c.Breakdown.Single), linesOf(&c.Breakdown.Family)
	switch {
	case n <= 1:
		return s
	case n <= 4:
		var l costLines
		for k := range l {
			l[k] = roundInt(float64(s[k]) + float64(f[k]-s[k])*float64(n-1)/3)
		}
		return l
	}
	l := f
	for _, k := range [...]int{lineGroceries, lineEatingOut, lineTransport, lineHealthInsurance} {
		l[k] = roundInt(float64(f[k]) * float64(n) / 4)
	}
	l[lineRent] = roundInt(float64(f[lineRent]) * (1 + 0.1*float64(n-4)))
	return l
}

// Compare

const (
	minCompare            = 2
	maxCompare            = 5
	defaultWithdrawalRate = 0.04
)

var compareParams = []string{"ids", "style", "withdrawalRate"}

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

func (s *Server) compareCities(c *Ctx) {
	g := s.geo
	if !queryParams(c, compareParams...) {
		return
	}
	args := c.RC.QueryArgs()
	style := slices.Index(styles, "normal")
	if v := args.Peek("style"); v != nil {
		if style = slices.Index(styles, b2s(v)); style < 0 {
			c.Fail("style", "must be one of lean, normal, fat, family")
			return
		}
	}
	rate := defaultWithdrawalRate
	if v := args.Peek("withdrawalRate"); v != nil {
		var ok bool
		if rate, ok = parseNumber(v, 0.2); !ok {
			c.Fail("withdrawalRate", "must be a number above 0 and at most 0.2")
			return
		}
	}
	ids := args.Peek("ids")
	if ids == nil {
		c.Fail("ids", "is required: 2 to 5 city ids, comma separated")
		return
	}
	var idx [maxCompare]int
	n := 0
	for id := range bytes.SplitSeq(ids, []byte{','}) {
		if n == maxCompare {
			c.Fail("ids", "must list at most 5 city ids")
			return
		}
		if !validID(id) {
			c.Fail("ids", "each id must be a city id such as lisbon-pt")
			return
		}
		i, ok := g.lookup(id)
		if !ok {
			c.Error(fasthttp.StatusNotFound, CodeNotFound, "no city with id "+strconv.Quote(string(id)))
			return
		}
		if slices.Contains(idx[:n], i) {
			c.Fail("ids", strconv.Quote(string(id))+" is listed twice")
			return
		}
		idx[n] = i
		n++
	}
	if n < minCompare {
		c.Fail("ids", "must list at least 2 city ids, comma separated")
		return
	}

	var lines [maxCompare]costLines
	var totals [maxCompare]int
	for k := range n {
		lines[k] = styleLines(&g.cities[idx[k]], style)
		totals[k] = lines[k].total()
	}
	w := c.Begin()
	w.Begin()
	w.Key("style")
	w.String(styles[style])
	w.Key("withdrawalRate")
	w.Float(rate)
	w.Key("reference")
	w.String(g.cities[idx[0]].ID)
	w.Key("cities")
	w.BeginArray()
	first := &g.cities[idx[0]]
	var text [160]byte
	for k := range n {
		city := &g.cities[idx[k]]
		w.Begin()
		w.Key("city")
		w.Raw(g.items[idx[k]])
		w.Key("monthlyCostUSD")
		w.Int(int64(totals[k]))
		w.Key("annualCostUSD")
		w.Int(int64(totals[k] * 12))
		w.Key("fiNumberUSD")
		w.Fixed(float64(totals[k])*12/rate, 2)
		w.Key("costs")
		writeLines(w, &lines[k], totals[k])
		w.Key("ratioToFirst")
		w.Begin()
		for j := range nLines {
			w.Key(lineNames[j])
			w.Fixed(float64(lines[k][j])/float64(lines[0][j]), 3)
		}
		w.Key("total")
		w.Fixed(float64(totals[k])/float64(totals[0]), 3)
		w.End()
		further := float64(totals[0]) / float64(totals[k])
		w.Key("goesFurther")
		w.Fixed(further, 3)
		w.Key("summary")
		w.Bytes(appendCompareSummary(text[:0], k, further, city.Name, first.Name))
		w.End()
	}
	w.EndArray()
	w.End()
	c.Send(fasthttp.StatusOK)
}

func writeLines(w *jsonw.Writer, l *costLines, total int) {
	w.Begin()
	for j := range nLines {
		w.Key(lineNames[j])
		w.Int(int64(l[j]))
	}
	w.Key("total")
	w.Int(int64(total))
	w.End()
}

// appendCompareSummary says how far money goes in city compared with the
// first one.
func appendCompareSummary(b []byte, k int, further float64, city, first string) []byte {
	switch {
	case k == 0:
		b = append(b, "The reference: every ratio compares a city with "...)
		return append(b, city...)
	case further >= 1.05:
		b = append(b, "Your money goes "...)
		b = jsonw.AppendFixed(b, further, 1)
		b = append(b, "x further in "...)
		b = append(b, city...)
		b = append(b, " than in "...)
	case further <= 1/1.05:
		b = append(b, "Living in "...)
		b = append(b, city...)
		b = append(b, " costs "...)
		b = jsonw.AppendFixed(b, 1/further, 1)
		b = append(b, "x as much as in "...)
	default:
		b = append(b, "Costs about the same as "...)
	}
	return append(b, first...)
}

// Recommendations

type recoPrefs struct {
	Regions         []string `json:"regions" schema:"maxItems=13,enum=@geoRegion" doc:"Only cities in these regions."`
	Climate         []string `json:"climate" schema:"maxItems=4,enum=@climateBand" doc:"Only cities in these climate bands (see climateBand of a city)."`
	MaxRentUSD      float64  `json:"maxRentUSD" schema:"xmin=0,max=1e6" doc:"Only cities where the household's rent line is at most this."`
	MinSafety       int      `json:"minSafety" schema:"min=0,max=100" doc:"Only cities with at least this safetyIndex."`
	MinHealthcare   int      `json:"minHealthcare" schema:"min=0,max=100" doc:"Only cities with at least this healthcareIndex."`
	EnglishMin      string   `json:"englishMin" schema:"enum=@englishBand" doc:"Only cities where English proficiency is in this band or a better one (native best)."`
	Visa            string   `json:"visa" schema:"enum=retirement|digitalNomad" doc:"Only countries with a dedicated long-stay route of this kind."`
	TaxFriendly     bool     `json:"taxFriendly" doc:"Only countries with a special tax program for newcomers that is open or was changed (not closed); see /tax/programs."`
	MinInternetMbps int      `json:"minInternetMbps" schema:"min=0,max=10000" doc:"Only cities with at least this typical broadband speed."`
}

type recoRequest struct {
	MonthlyBudgetUSD float64   `json:"monthlyBudgetUSD" schema:"xmin=0,max=1e7" doc:"Monthly spending for the household, USD. Give this or portfolioUSD."`
	PortfolioUSD     float64   `json:"portfolioUSD" schema:"xmin=0,max=1e11" doc:"Invested portfolio, USD: the budget is portfolioUSD x withdrawalRate / 12. Give this or monthlyBudgetUSD."`
	WithdrawalRate   float64   `json:"withdrawalRate" schema:"xmin=0,max=0.2" doc:"With portfolioUSD only; default 0.04."`
	HouseholdSize    int       `json:"householdSize" schema:"min=1,max=8,default=1" doc:"People living on the budget. 1 person: the single budget. 2 to 4: each line between the single and the family-of-four budget, (n-1)/3 of the way. 5 to 8: the family budget with groceries, eating out, transport and health insurance x n/4 and rent x (1 + 0.1 x (n-4))."`
	Preferences      recoPrefs `json:"preferences" doc:"Hard filters: a city that fails one is never listed."`
	Limit            int       `json:"limit" schema:"min=1,max=500,default=20" doc:"Cities to return, best first."`
}

var recoSchema = func() *schema.Schema[recoRequest] {
	schema.Enum("geoRegion", geo.Regions)
	schema.Enum("climateBand", geo.ClimateBands)
	schema.Enum("englishBand", geo.EnglishBands)
	return schema.New[recoRequest]()
}()

// Score components and their maximum points; they sum to 100.
const (
	partAffordability = iota
	partSafety
	partHealthcare
	partClimate
	partInternet
	partEnglish
	partVisa
	nParts
)

var (
	partNames = [nParts]string{"affordability", "safety", "healthcare", "climate", "internet", "english", "visa"}
	partMax   = [nParts]int{30, 20, 20, 15, 5, 5, 5}
)

const scoreDoc = "The score (0-100) is the sum of seven components, each reported in scoreBreakdown as whole points: " +
	"affordability (30: full when the household's cost is at most half the budget, falling linearly to 0 at the whole budget), " +
	"safety (20 x safetyIndex / 100), healthcare (20 x healthcareIndex / 100), " +
	"climate (15: when preferences.climate is given, every city in those bands earns it all; otherwise full for a coldest-month average high of 16 °C or more and a warmest-month high of 31 °C or less, one fifteenth less per degree outside), " +
	"internet (5 x internetMbps / 100, at most 5), english (5 for native, 4 very-high, 3 high, 2 moderate, 1 low, 0 very-low) " +
	"and visa (5 when the country has a dedicated retirement or digital-nomad route). " +
	"Cities rank by the unrounded score, then by cost, then by id. A city is tight when its cost is 90% of the budget or more."

// tightShare is the share of the budget from which a city fits only just.
const tightShare = 0.9

type candidate struct {
	i     int
	cost  int
	rent  int
	raw   float64
	parts [nParts]float64
}

type geoWork struct {
	req   recoRequest
	cands []candidate
	text  []byte
	out   jsonw.Writer // the response body being built
	key   [recoKeyLen]byte
}

var geoPool = sync.Pool{New: func() any {
	return &geoWork{cands: make([]candidate, 0, 256), text: make([]byte, 0, 256), out: jsonw.Writer{B: make([]byte, 0, 32<<10)}}
}}

// recoQuery is a decoded request in canonical form: what the answer
// depends on, and nothing else.
type recoQuery struct {
	budget        float64
	household     int
	limit         int
	regions       uint16 // bit set of geo.Regions; 0: any
	climate       uint8  // bit set of geo.ClimateBands; 0: any
	maxRent       float64
	minSafety     int
	minHealthcare int
	english       int // index in geo.EnglishBands; -1: any
	visa          int // 0 any, 1 retirement, 2 digital nomad
	taxFriendly   bool
	minInternet   int
}

const recoKeyLen = 36

// key encodes q canonically: two requests that mean the same (field
// order, whitespace, list order or repeats, a default given or left out)
// have the same key.
func (q *recoQuery) key(dst *[recoKeyLen]byte) string {
	b := dst[:0]
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(q.budget))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(q.maxRent))
	b = binary.LittleEndian.AppendUint16(b, uint16(q.limit))
	b = binary.LittleEndian.AppendUint16(b, q.regions)
	b = binary.LittleEndian.AppendUint16(b, uint16(q.minInternet))
	b = append(b, byte(q.household), q.climate, byte(q.minSafety), byte(q.minHealthcare),
		byte(q.english+1), byte(q.visa), boolByte(q.taxFriendly))
	// The view never outlives the request: ristretto hashes keys and keeps
	// only the hashes.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// canonical checks the cross-field rules and fills q. On a violation it
// has sent 400 and returns false.
func canonical(c *Ctx, r *recoRequest, q *recoQuery) bool {
	switch {
	case r.MonthlyBudgetUSD == 0 && r.PortfolioUSD == 0:
		c.res.Reset()
		c.res.Code = errcode.Missing
		c.res.Error = "missing required field: monthlyBudgetUSD (or portfolioUSD)"
		c.res.Details = append(c.res.Details, schema.Detail{Path: "monthlyBudgetUSD", Message: "is required unless portfolioUSD is given"})
		c.Invalid(&c.res)
		return false
	case r.MonthlyBudgetUSD > 0 && r.PortfolioUSD > 0:
		c.Fail("portfolioUSD", "give monthlyBudgetUSD or portfolioUSD, not both")
		return false
	case r.WithdrawalRate > 0 && r.PortfolioUSD == 0:
		c.Fail("withdrawalRate", "applies only with portfolioUSD")
		return false
	}
	*q = recoQuery{budget: r.MonthlyBudgetUSD, household: r.HouseholdSize, limit: r.Limit, english: -1}
	if r.PortfolioUSD > 0 {
		rate := r.WithdrawalRate
		if rate == 0 {
			rate = defaultWithdrawalRate
		}
		q.budget = r.PortfolioUSD * rate / 12
	}
	p := &r.Preferences
	for _, v := range p.Regions {
		q.regions |= 1 << slices.Index(geo.Regions, v)
	}
	for _, v := range p.Climate {
		q.climate |= 1 << slices.Index(geo.ClimateBands, v)
	}
	q.maxRent, q.minSafety, q.minHealthcare, q.minInternet = p.MaxRentUSD, p.MinSafety, p.MinHealthcare, p.MinInternetMbps
	if p.EnglishMin != "" {
		q.english = slices.Index(geo.EnglishBands, p.EnglishMin)
	}
	switch p.Visa {
	case "retirement":
		q.visa = 1
	case "digitalNomad":
		q.visa = 2
	}
	q.taxFriendly = p.TaxFriendly
	return true
}

func (s *Server) recommendCities(c *Ctx) {
	w := geoPool.Get().(*geoWork)
	defer geoPool.Put(w)
	if !decode(c, recoSchema, &w.req) {
		return
	}
	var q recoQuery
	if !canonical(c, &w.req, &q) {
		return
	}
	g := s.geo
	key := q.key(&w.key)
	if g.cache != nil {
		if body, ok := g.cache.Get(key); ok {
			g.hits.Add(1)
			c.sendPrebuilt(fasthttp.StatusOK, body)
			return
		}
	}
	// The body is built in the pooled buffer and sent as an exact-size
	// copy: one allocation, which is also what the cache keeps.
	body := bytes.Clone(g.recommend(&q, w))
	if g.cache != nil {
		g.cache.Set(key, body, int64(len(body)))
	}
	c.sendPrebuilt(fasthttp.StatusOK, body)
}

// fits applies the hard filters other than the budget.
func (g *geoService) fits(q *recoQuery, i int, rent int) bool {
	c, in := &g.cities[i], &g.info[i]
	switch {
	case q.regions != 0 && q.regions&(1<<in.region) == 0,
		q.climate != 0 && q.climate&(1<<in.band) == 0,
		q.maxRent > 0 && float64(rent) > q.maxRent,
		c.SafetyIndex < q.minSafety,
		c.HealthcareIndex < q.minHealthcare,
		q.english >= 0 && in.english > q.english,
		q.visa == 1 && len(c.Visas.Retirement) == 0,
		q.visa == 2 && len(c.Visas.DigitalNomad) == 0,
		q.taxFriendly && in.taxProgram == "",
		c.InternetMbps < q.minInternet:
		return false
	}
	return true
}

// score fills the components of a candidate.
func (g *geoService) score(q *recoQuery, k *candidate) {
	c, in := &g.cities[k.i], &g.info[k.i]
	p := &k.parts
	share := float64(k.cost) / q.budget
	p[partAffordability] = 30 * clamp01((1-share)/0.5)
	p[partSafety] = 20 * float64(c.SafetyIndex) / 100
	p[partHealthcare] = 20 * float64(c.HealthcareIndex) / 100
	if q.climate != 0 {
		p[partClimate] = 15
	} else {
		off := math.Max(0, 16-c.Climate.AvgHighColdestC) + math.Max(0, c.Climate.AvgHighWarmestC-31)
		p[partClimate] = 15 * (1 - math.Min(1, off/15))
	}
	p[partInternet] = 5 * math.Min(1, float64(c.InternetMbps)/100)
	p[partEnglish] = float64(len(geo.EnglishBands) - 1 - in.english)
	if len(c.Visas.Retirement) > 0 || len(c.Visas.DigitalNomad) > 0 {
		p[partVisa] = 5
	}
	k.raw = 0
	for _, v := range p {
		k.raw += v
	}
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// recommend returns the whole response body, built in w.out.
func (g *geoService) recommend(q *recoQuery, w *geoWork) []byte {
	cands := w.cands[:0]
	for i := range g.cities {
		l := &g.household[i][q.household-1]
		k := candidate{i: i, cost: l.total(), rent: l[lineRent]}
		if float64(k.cost) > q.budget || !g.fits(q, i, k.rent) {
			continue
		}
		g.score(q, &k)
		cands = append(cands, k)
	}
	w.cands = cands
	slices.SortFunc(cands, func(a, b candidate) int {
		switch {
		case a.raw > b.raw:
			return -1
		case a.raw < b.raw:
			return 1
		}
		if a.cost != b.cost {
			return a.cost - b.cost
		}
		return a.i - b.i
	})
	out := &w.out
	out.Reset()
	out.B = append(out.B, `{"success":true,"data":`...)
	out.BeginArray()
	for r := range min(len(cands), q.limit) {
		g.writeRecommendation(out, q, &cands[r], r+1, w)
	}
	out.EndArray()
	out.B = appendMeta(out.B, len(cands), q.limit, 0)
	return out.B
}

// points rounds the components to whole points that sum to the rounded
// score (largest remainder).
func points(parts *[nParts]float64) (pts [nParts]int, score int) {
	sum := 0.0
	for j, v := range parts {
		pts[j] = int(math.Floor(v))
		score += pts[j]
		sum += v
	}
	want := int(math.Round(sum))
	for score < want {
		best, frac := -1, 0.0
		for j, v := range parts {
			if f := v - float64(pts[j]); f > frac && pts[j] < partMax[j] {
				best, frac = j, f
			}
		}
		if best < 0 {
			break
		}
		pts[best]++
		score++
	}
	return pts, score
}

func (g *geoService) writeRecommendation(out *jsonw.Writer, q *recoQuery, k *candidate, rank int, w *geoWork) {
	c, in := &g.cities[k.i], &g.info[k.i]
	share := float64(k.cost) / q.budget
	tight := share >= tightShare
	pts, score := points(&k.parts)
	out.Begin()
	out.Key("rank")
	out.Int(int64(rank))
	out.Key("id")
	out.String(c.ID)
	out.Key("name")
	out.String(c.Name)
	out.Key("country")
	out.String(c.Country)
	out.Key("countryName")
	out.String(c.CountryName)
	out.Key("region")
	out.String(c.Region)
	out.Key("climateBand")
	out.String(geo.ClimateBands[in.band])
	out.Key("monthlyCostUSD")
	out.Int(int64(k.cost))
	out.Key("rentUSD")
	out.Int(int64(k.rent))
	out.Key("budgetShare")
	out.Fixed(share, 3)
	out.Key("tight")
	out.Bool(tight)
	out.Key("score")
	out.Int(int64(score))
	out.Key("scoreBreakdown")
	out.BeginArray()
	for j := range nParts {
		out.Begin()
		out.Key("name")
		out.String(partNames[j])
		out.Key("score")
		out.Int(int64(pts[j]))
		out.Key("max")
		out.Int(int64(partMax[j]))
		out.End()
	}
	out.EndArray()
	out.Key("costOfLivingIndex")
	out.Float(c.CostOfLivingIndex)
	out.Key("safetyIndex")
	out.Int(int64(c.SafetyIndex))
	out.Key("healthcareIndex")
	out.Int(int64(c.HealthcareIndex))
	out.Key("internetMbps")
	out.Int(int64(c.InternetMbps))
	out.Key("englishProficiency")
	out.String(c.EnglishProficiency)
	out.Key("reasons")
	out.BeginArray()
	g.writeReasons(out, q, k, share, tight, w)
	out.EndArray()
	out.End()
}

func (g *geoService) writeReasons(out *jsonw.Writer, q *recoQuery, k *candidate, share float64, tight bool, w *geoWork) {
	c, in := &g.cities[k.i], &g.info[k.i]
	b := w.text[:0]
	if tight {
		b = append(b, "Fits only just: "...)
	}
	b = appendUSD(b, k.cost)
	b = append(b, " a month for "...)
	b = strconv.AppendInt(b, int64(q.household), 10)
	if q.household == 1 {
		b = append(b, " person, "...)
	} else {
		b = append(b, " people, "...)
	}
	b = strconv.AppendInt(b, int64(math.Round(share*100)), 10)
	b = append(b, "% of your "...)
	b = appendUSD(b, roundInt(q.budget))
	b = append(b, " budget"...)
	out.Bytes(b)

	switch {
	case c.SafetyIndex >= 80:
		b = append(b[:0], "Very safe: safety index "...)
	case c.SafetyIndex >= 65:
		b = append(b[:0], "Safe: safety index "...)
	default:
		b = b[:0]
	}
	if len(b) > 0 {
		b = strconv.AppendInt(b, int64(c.SafetyIndex), 10)
		out.Bytes(append(b, " of 100"...))
	}
	switch {
	case c.HealthcareIndex >= 80:
		b = append(b[:0], "Strong healthcare: index "...)
	case c.HealthcareIndex >= 70:
		b = append(b[:0], "Good healthcare: index "...)
	default:
		b = b[:0]
	}
	if len(b) > 0 {
		b = strconv.AppendInt(b, int64(c.HealthcareIndex), 10)
		out.Bytes(append(b, " of 100"...))
	}

	band := geo.ClimateBands[in.band]
	b = append(b[:0], band[0]&^0x20)
	b = append(b, band[1:]...)
	b = append(b, " climate: average highs from "...)
	b = jsonw.AppendFixed(b, c.Climate.AvgHighColdestC, 1)
	b = append(b, " °C in the coldest month to "...)
	b = jsonw.AppendFixed(b, c.Climate.AvgHighWarmestC, 1)
	out.Bytes(append(b, " °C in the warmest"...))

	if r := c.Visas.Retirement; len(r) > 0 && q.visa != 2 {
		out.Bytes(append(append(b[:0], "Retirement visa: "...), r[0]...))
	}
	if d := c.Visas.DigitalNomad; len(d) > 0 && q.visa != 1 {
		out.Bytes(append(append(b[:0], "Digital nomad visa: "...), d[0]...))
	}
	if in.taxProgram != "" {
		out.Bytes(append(append(b[:0], "Special tax program for newcomers: "...), in.taxProgram...))
	}
	switch in.english {
	case 0:
		out.String("English is the main language")
	case 1, 2:
		b = append(b[:0], "English widely spoken (EF band "...)
		b = append(b, c.EnglishProficiency...)
		out.Bytes(append(b, ')'))
	}
	if c.InternetMbps >= 100 {
		b = append(b[:0], "Fast internet: about "...)
		b = strconv.AppendInt(b, int64(c.InternetMbps), 10)
		out.Bytes(append(b, " Mbps"...))
	}
	w.text = b
}

// appendUSD appends $1,234.
func appendUSD(b []byte, v int) []byte {
	b = append(b, '$')
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(v), 10)
	for i, ch := range d {
		if i > 0 && (len(d)-i)%3 == 0 && d[i-1] != '-' {
			b = append(b, ',')
		}
		b = append(b, ch)
	}
	return b
}

// Documentation

type ratioLines struct {
	Rent            float64 `json:"rent" schema:"required"`
	Groceries       float64 `json:"groceries" schema:"required"`
	EatingOut       float64 `json:"eatingOut" schema:"required"`
	Transport       float64 `json:"transport" schema:"required"`
	Utilities       float64 `json:"utilities" schema:"required"`
	Internet        float64 `json:"internet" schema:"required"`
	HealthInsurance float64 `json:"healthInsurance" schema:"required"`
	Total           float64 `json:"total" schema:"required"`
}

type compareEntry struct {
	City           cityItem   `json:"city" schema:"required"`
	MonthlyCostUSD int        `json:"monthlyCostUSD" schema:"required" doc:"The month's cost in the requested style (costs.total)."`
	AnnualCostUSD  int        `json:"annualCostUSD" schema:"required" doc:"12 x monthlyCostUSD."`
	FINumberUSD    float64    `json:"fiNumberUSD" schema:"required" doc:"Portfolio that sustains the spending: 12 x monthlyCostUSD / withdrawalRate."`
	Costs          geo.Lines  `json:"costs" schema:"required" doc:"The monthly budget in the requested style, line by line."`
	RatioToFirst   ratioLines `json:"ratioToFirst" schema:"required" doc:"Each cost line divided by the same line of the first city (3 decimals); 1 for the first city."`
	GoesFurther    float64    `json:"goesFurther" schema:"required" doc:"The first city's total divided by this city's: money goes this many times further here than there (3 decimals)."`
	Summary        string     `json:"summary" schema:"required" doc:"goesFurther in words."`
}

type compareData struct {
	Style          string         `json:"style" schema:"required,enum=lean|normal|fat|family"`
	WithdrawalRate float64        `json:"withdrawalRate" schema:"required"`
	Reference      string         `json:"reference" schema:"required" doc:"Id of the first city, which every ratio compares with."`
	Cities         []compareEntry `json:"cities" schema:"required" doc:"In the order asked for."`
}

type scorePart struct {
	Name  string `json:"name" schema:"required,enum=affordability|safety|healthcare|climate|internet|english|visa"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type recommendation struct {
	Rank               int         `json:"rank" schema:"required" doc:"1 for the best."`
	ID                 string      `json:"id" schema:"required"`
	Name               string      `json:"name" schema:"required"`
	Country            string      `json:"country" schema:"required"`
	CountryName        string      `json:"countryName" schema:"required"`
	Region             string      `json:"region" schema:"required"`
	ClimateBand        string      `json:"climateBand" schema:"required,enum=cold|temperate|warm|hot"`
	MonthlyCostUSD     int         `json:"monthlyCostUSD" schema:"required" doc:"The household's monthly cost here (see householdSize)."`
	RentUSD            int         `json:"rentUSD" schema:"required" doc:"The rent line of that cost."`
	BudgetShare        float64     `json:"budgetShare" schema:"required" doc:"monthlyCostUSD / budget, at most 1."`
	Tight              bool        `json:"tight" schema:"required" doc:"Fits the budget only just: the cost is 90% of it or more."`
	Score              int         `json:"score" schema:"required" doc:"0-100; the sum of scoreBreakdown."`
	ScoreBreakdown     []scorePart `json:"scoreBreakdown" schema:"required"`
	CostOfLivingIndex  float64     `json:"costOfLivingIndex" schema:"required"`
	SafetyIndex        int         `json:"safetyIndex" schema:"required"`
	HealthcareIndex    int         `json:"healthcareIndex" schema:"required"`
	InternetMbps       int         `json:"internetMbps" schema:"required"`
	EnglishProficiency string      `json:"englishProficiency" schema:"required"`
	Reasons            []string    `json:"reasons" schema:"required" doc:"Why the city is listed: cost against the budget first, then its strengths."`
}

var (
	cityItemDoc       = schema.Doc[cityItem]()
	compareDoc        = schema.Doc[compareData]()
	recommendationDoc = schema.Doc[recommendation]()
)

func geoRoutes(s *Server) []*route {
	notFound := errDoc{404, CodeNotFound, "no city has this id"}
	return []*route{
		{method: "GET", path: v1 + "/geo/cities", access: Public, tag: "geo", status: 200, list: true,
			summary: "Cities with their cost of living",
			desc: "The embedded city dataset (fiplan's own estimates from public statistics; see the dataset's method and sources), filtered, sorted and paged. " +
				"Every amount is USD per month. Filters combine with AND. Unknown or repeated query parameters answer 400.",
			data: cityItemDoc,
			query: append([]queryDoc{
				{"country", "string", "ISO 3166-1 alpha-2 code, any case: only cities in this country."},
				{"region", "string", "Only cities in this region: one of " + regionList + "."},
				{"q", "string", "Name search, case- and accent-insensitive: 'sao paulo' finds São Paulo. Up to 100 bytes."},
				{"maxMonthlyCost", "number", "Only cities whose monthlyCostUSD is at most this."},
				{"minSafety", "integer", "Only cities whose safetyIndex is at least this, 0-100."},
				{"climate", "string", "Only cities in these climate bands, comma separated: " + climateList + ". cold: coldest-month average high below 5 °C; hot: coldest-month high 24 °C or more, or warmest-month high 38 °C or more; warm: coldest-month high 12 °C or more and warmest-month high 25 °C or more; temperate: the rest."},
				{"sort", "string", "name (default; accent-folded, as the ids), cost or index (the same order: the index is the cost relative to New York); a leading - sorts descending. Ties go by id."},
			}, pageQuery...),
			errs: []errDoc{{400, "VALIDATION_ERROR", "a query parameter is malformed, out of range, unknown or repeated; details name it"}},
			h:    s.listCities},
		{method: "GET", path: v1 + "/geo/cities/{id}", access: User, tag: "geo", status: 200,
			summary: "One city",
			desc:    "One city by its id, a slug such as lisbon-pt.",
			data:    cityItemDoc,
			errs:    []errDoc{notFound},
			h:       s.getCity},
		{method: "GET", path: v1 + "/geo/compare", access: User, tag: "geo", status: 200,
			summary: "Compare 2 to 5 cities",
			desc: "The cities side by side, in the order asked for, with each cost line's ratio to the first city, how many times further money goes in each than in the first, " +
				"and the FI number each needs (12 x monthly cost / withdrawalRate). Spending styles: " + styleDoc,
			data: compareDoc,
			query: []queryDoc{
				{"ids", "string", "2 to 5 city ids, comma separated, no repeats; the first is the reference."},
				{"style", "string", "lean, normal (default), fat or family; see the description."},
				{"withdrawalRate", "number", "Above 0, at most 0.2; default 0.04."},
			},
			errs: []errDoc{
				{400, "VALIDATION_ERROR", "ids lists fewer than 2 or more than 5 ids, repeats one or holds a malformed one; or style, withdrawalRate or another parameter is bad"},
				{404, CodeNotFound, "an id names no city; the message names it"},
			},
			h: s.compareCities},
		{method: "POST", path: v1 + "/geo/recommendations", access: User, tag: "geo", status: 200, list: true,
			summary: "Cities ranked for a budget and preferences",
			desc: "Every city whose household cost fits the budget and that meets every preference, best first, with its score, a score breakdown and the reasons. " +
				"The budget is monthlyBudgetUSD, or portfolioUSD x withdrawalRate / 12: give exactly one of the two. " + scoreDoc +
				" meta.total counts every city that fits; data holds the first limit of them. Answers are cached: the same request (in any field order or spacing) answers the same bytes.",
			body: recoSchema,
			data: recommendationDoc,
			errs: []errDoc{{400, "MISSING_FIELD", "neither monthlyBudgetUSD nor portfolioUSD is given; VALIDATION_ERROR: both are, or withdrawalRate comes without portfolioUSD"}},
			h:    s.recommendCities},
	}
}
