// Package places serves the /geo routes over the embedded city dataset:
// the list with its filters and sort orders, one city, a comparison and
// recommendations for a budget.
//
// Every city's JSON is encoded once at start. For each sort order the
// encoded cities are also joined, comma separated, into one buffer with the
// offset of each item, so that any page of the unfiltered list is a single
// contiguous slice of it: the list costs a copy of its bytes. The first
// page with no query at all, and every city's detail, are whole response
// bodies built at start (with their ETags; their compressed forms are made
// on first request) and handed to fasthttp without a copy. Filtered lists
// scan the 200-odd cities and copy the pre-encoded items that match.
//
// Compare and recommendations are computed by compute/place over the
// cities converted once at start (placeOf); the handlers parse, call the
// engine and write its results. Recommendation response bodies are kept in
// a ristretto cache keyed by the canonical binary form of the request.
package places

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/place"
	"fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Handlers is the dataset prepared for serving. It is read-only after New,
// except for the cache.
type Handlers struct {
	cities    []geo.City   // id order
	places    []place.City // the engine's view of cities, same order, prepared
	byID      map[string]int
	fold      [][]byte // per city, geo.AppendFold of the name, for q
	items     [][]byte // each city's JSON
	orders    [nOrders]cityOrder
	firstPage *rest.Static   // the whole response to GET /geo/cities without a query
	details   []*rest.Static // the whole response to GET /geo/cities/{id}, per city

	cache *ristretto.Cache[string, []byte] // nil: recommendations are not cached

	recoSchema *schema.Schema[recoRequest]
	// Docs describes the routes for the OpenAPI document.
	Docs   Docs
	hits   atomic.Uint64 // recommendations answered from the cache
	misses atomic.Uint64 // recommendations computed (and then cached)
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

// New prepares the cities for serving; v must define the geoRegion,
// climateBand and englishBand enums. Close releases the cache.
func New(v *schema.Vocabulary, cities *geo.Table, programs *program.Table) (*Handlers, error) {
	g := &Handlers{cities: cities.All(), byID: map[string]int{}}
	var err error
	if g.recoSchema, err = schema.Compile[recoRequest](v); err != nil {
		return nil, err
	}
	cityItemDoc, err := schema.CompileDoc[cityItem](v)
	if err != nil {
		return nil, err
	}
	compareDoc, err := schema.CompileDoc[compareData](v)
	if err != nil {
		return nil, err
	}
	recommendationDoc, err := schema.CompileDoc[recommendation](v)
	if err != nil {
		return nil, err
	}
	g.Docs = g.docs(cityItemDoc, compareDoc, recommendationDoc)
	n := len(g.cities)
	g.places = make([]place.City, n)
	g.fold = make([][]byte, n)
	g.items = make([][]byte, n)
	g.details = make([]*rest.Static, n)
	for i := range g.cities {
		c := &g.cities[i]
		g.byID[c.ID] = i
		p, err := placeOf(c, taxProgramOf(programs, c.Country))
		if err != nil {
			return nil, err
		}
		g.places[i] = p
		b, err := json.Marshal(cityItem{City: *c, ClimateBand: p.Band.String()})
		if err != nil {
			return nil, fmt.Errorf("cannot encode city %q: %w", c.ID, err)
		}
		g.items[i] = b
		g.details[i] = rest.NewStatic(slices.Concat([]byte(`{"success":true,"data":`), b, []byte(`}`)))
		g.fold[i] = geo.AppendFold(nil, c.Name)
	}
	place.Prepare(g.places)
	g.buildOrders()

	var w jsonw.Writer
	w.B = append(w.B, `{"success":true,"data":[`...)
	hi := min(rest.DefaultLimit, n)
	w.B = append(w.B, g.orders[orderName].page(0, hi)...)
	w.B = append(w.B, ']')
	g.firstPage = rest.NewStatic(append(rest.AppendMeta(w.B, n, rest.DefaultLimit, 0), '}'))

	if g.cache, err = newRecoCache(); err != nil {
		return nil, err
	}
	return g, nil
}

// placeOf is the engine's view of a city: its budgets, indexes, climate,
// language, first visa route of each kind and the tax program given.
func placeOf(c *geo.City, taxProgram string) (place.City, error) {
	band, ok := place.ParseBand(c.Climate.Band())
	if !ok {
		return place.City{}, fmt.Errorf("city %q: unknown climate band %q", c.ID, c.Climate.Band())
	}
	english, ok := place.ParseEnglish(c.EnglishProficiency)
	if !ok {
		return place.City{}, fmt.Errorf("city %q: unknown English band %q", c.ID, c.EnglishProficiency)
	}
	region := slices.Index(geo.Regions, c.Region)
	if region < 0 || region >= 16 {
		return place.City{}, fmt.Errorf("city %q: region %q is not one of the first 16", c.ID, c.Region)
	}
	first := func(names []string) string {
		if len(names) == 0 {
			return ""
		}
		return names[0]
	}
	return place.City{
		ID: c.ID, Name: c.Name,
		Single: linesOf(&c.Breakdown.Single), Family: linesOf(&c.Breakdown.Family), RentOutside: c.Rents.OneBedOutside,
		Safety: c.SafetyIndex, Healthcare: c.HealthcareIndex, InternetMbps: c.InternetMbps,
		ColdestHighC: c.Climate.AvgHighColdestC, WarmestHighC: c.Climate.AvgHighWarmestC, Band: band,
		Region: uint8(region), English: english,
		RetirementVisa: first(c.Visas.Retirement), NomadVisa: first(c.Visas.DigitalNomad),
		TaxProgram: taxProgram,
	}, nil
}

func linesOf(l *geo.Lines) place.Lines {
	return place.Lines{l.Rent, l.Groceries, l.EatingOut, l.Transport, l.Utilities, l.Internet, l.HealthInsurance}
}

// buildOrders pre-encodes the list in every sort order.
func (g *Handlers) buildOrders() {
	n := len(g.cities)
	byCost := func(desc bool) func(a, b int) int {
		return func(a, b int) int {
			d := g.cities[a].MonthlyCostUSD - g.cities[b].MonthlyCostUSD
			if desc {
				d = -d
			}
			if d != 0 {
				return d
			}
			return a - b
		}
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
			slices.SortFunc(idx, byCost(false))
		case orderCostDesc:
			slices.SortFunc(idx, byCost(true))
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
}

const recoCacheBytes = 32 << 20

func newRecoCache() (*ristretto.Cache[string, []byte], error) {
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
	return cache, nil
}

// Places is the engine's view of the cities, in id order. It is shared:
// callers must not change it.
func (g *Handlers) Places() []place.City { return g.places }

// CacheHits counts the recommendations answered from the cache.
func (g *Handlers) CacheHits() uint64 { return g.hits.Load() }

// CacheMisses counts the recommendations computed because the cache had
// no answer.
func (g *Handlers) CacheMisses() uint64 { return g.misses.Load() }

// WaitCache waits until every cached answer is stored (ristretto stores
// asynchronously).
func (g *Handlers) WaitCache() {
	if g.cache != nil {
		g.cache.Wait()
	}
}

// Close releases the recommendation cache.
func (g *Handlers) Close() {
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

// Query parameters

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

// parseClimate reads a comma-separated list of bands into a bit set of
// place.Band.
func parseClimate(v []byte) (uint8, bool) {
	var mask uint8
	for part := range bytes.SplitSeq(v, []byte{','}) {
		b, ok := place.ParseBand(bytesconv.String(part))
		if !ok {
			return 0, false
		}
		mask |= 1 << b
	}
	return mask, true
}

// parseNumber reads a finite number in (0, max].
func parseNumber(v []byte, max float64) (float64, bool) {
	x, err := strconv.ParseFloat(bytesconv.String(v), 64)
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
	climate   uint8 // bit set of place.Band; 0: any
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
			if f.region = slices.Index(geo.Regions, bytesconv.String(v)); f.region < 0 {
				c.Fail("region", "must be one of "+regionList)
				return false
			}
		case "q":
			if len(v) > 100 {
				c.Fail("q", "must be at most 100 bytes")
				return false
			}
			// A rune folds to at most as many bytes as it has: 100 fit.
			if f.qLen = len(geo.AppendFold(f.q[:0], bytesconv.String(v))); f.qLen == 0 {
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
		f.qLen > 0 && !bytes.Contains(g.fold[i], f.q[:f.qLen]),
		f.maxCost > 0 && float64(c.MonthlyCostUSD) > f.maxCost,
		c.SafetyIndex < f.minSafety,
		f.climate != 0 && f.climate&(1<<p.Band) == 0:
		return false
	}
	return true
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

// Detail

// CityID is the grammar of a city id, the {id} of /geo/cities/{id}.
var CityID = rest.NewPathParam("id", geo.IDPattern, geo.MaxIDLen, "must be a city id: a slug of the name and the country code, such as lisbon-pt")

func (g *Handlers) lookup(id []byte) (int, bool) {
	i, ok := g.byID[bytesconv.String(id)]
	return i, ok
}

func (g *Handlers) Get(c *rest.Ctx) {
	i, ok := g.lookup(c.Param("id"))
	if !ok {
		c.Error(errcode.NotFound, "no city with id "+strconv.Quote(clip(c.Param("id"))))
		return
	}
	c.SendStatic(g.details[i])
}

// Compare

// lineNames are the JSON names of the cost lines, in place.Lines order.
var lineNames = [place.NumLines]string{"rent", "groceries", "eatingOut", "transport", "utilities", "internet", "healthInsurance"}

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
	style place.Style
	rate  float64
	idx   [maxCompare]int // city indexes, idx[:n]
	n     int
}

// parseCompare reads the compare query. On a bad parameter it has sent
// 400 (404 for an unknown city) and returns false.
func (g *Handlers) parseCompare(c *rest.Ctx, q *compareQuery) bool {
	args := c.RC.QueryArgs()
	*q = compareQuery{style: place.Normal, rate: defaultWithdrawalRate}
	if v := args.Peek("style"); v != nil {
		var ok bool
		if q.style, ok = place.ParseStyle(bytesconv.String(v)); !ok {
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
	var buf [maxCompare]place.Compared
	entries := place.Compare(buf[:0], g.places, q.idx[:q.n], q.style, q.rate)
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
func (g *Handlers) writeCompared(w *jsonw.Writer, e, ref *place.Compared, text []byte) {
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
	for j := range place.NumLines {
		w.Key(lineNames[j])
		w.Int(int64(e.Lines[j]))
	}
	w.Key("total")
	w.Int(int64(e.Total))
	w.End()
	w.Key("ratioToFirst")
	w.Begin()
	for j := range place.NumLines {
		w.Key(lineNames[j])
		w.Fixed(e.Ratio[j], 3)
	}
	w.Key("total")
	w.Fixed(e.TotalRatio, 3)
	w.End()
	w.Key("goesFurther")
	w.Fixed(e.Further, 3)
	w.Key("summary")
	w.Bytes(place.AppendSummary(text, e, &g.places[e.City], &g.places[ref.City]))
	w.End()
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

const scoreDoc = "The score (0-100) is the sum of seven components, each reported in scoreBreakdown as whole points: " +
	"affordability (30: full when the household's cost is at most half the budget, falling linearly to 0 at the whole budget), " +
	"safety (20 x safetyIndex / 100), healthcare (20 x healthcareIndex / 100), " +
	"climate (15: when preferences.climate is given, every city in those bands earns it all; otherwise full for a coldest-month average high of 16 °C or more and a warmest-month high of 31 °C or less, one fifteenth less per degree outside), " +
	"internet (5 x internetMbps / 100, at most 5), english (5 for native, 4 very-high, 3 high, 2 moderate, 1 low, 0 very-low) " +
	"and visa (5 when the country has a dedicated retirement or digital-nomad route). " +
	"Cities rank by the unrounded score, then by cost, then by id. A city is tight when its cost is 90% of the budget or more."

// recoKeyLen is the length of a cache key: the query's key and the limit.
const recoKeyLen = place.KeyLen + 2

type geoWork struct {
	req     recoRequest
	results []place.Result
	reasons []place.Reason
	text    []byte
	out     jsonw.Writer // the response body being built
	key     [recoKeyLen]byte
}

var geoPool = sync.Pool{New: func() any {
	return &geoWork{
		results: make([]place.Result, 0, 256), reasons: make([]place.Reason, 0, 16),
		text: make([]byte, 0, 256), out: jsonw.Writer{B: make([]byte, 0, 32<<10)},
	}
}}

// cacheKey is the cache key of a query and a limit: two requests that mean the
// same (field order, whitespace, list order or repeats, a default given or
// left out) have the same key. The view never outlives the request:
// ristretto hashes keys and keeps only the hashes.
func (w *geoWork) cacheKey(q *place.Query, limit int) string {
	b := q.AppendKey(w.key[:0])
	b = append(b, byte(limit), byte(limit>>8))
	return bytesconv.String(b)
}

// canonical checks the cross-field rules and fills q. On a violation it
// has sent 400 and returns false.
func canonical(c *rest.Ctx, r *recoRequest, q *place.Query) bool {
	switch {
	case r.MonthlyBudgetUSD == 0 && r.PortfolioUSD == 0:
		c.FailMissing("monthlyBudgetUSD", "missing required field: monthlyBudgetUSD (or portfolioUSD)", "is required unless portfolioUSD is given")
		return false
	case r.MonthlyBudgetUSD > 0 && r.PortfolioUSD > 0:
		c.Fail("portfolioUSD", "give monthlyBudgetUSD or portfolioUSD, not both")
		return false
	case r.WithdrawalRate > 0 && r.PortfolioUSD == 0:
		c.Fail("withdrawalRate", "applies only with portfolioUSD")
		return false
	}
	*q = place.Query{Budget: r.MonthlyBudgetUSD, Household: r.HouseholdSize}
	if r.PortfolioUSD > 0 {
		rate := r.WithdrawalRate
		if rate == 0 {
			rate = defaultWithdrawalRate
		}
		q.Budget = r.PortfolioUSD * rate / 12
	}
	p := &r.Preferences
	for _, v := range p.Regions {
		q.Regions |= 1 << slices.Index(geo.Regions, v)
	}
	for _, v := range p.Climate {
		b, _ := place.ParseBand(v) // the schema admits band names only
		q.Bands |= 1 << b
	}
	q.MaxRent, q.MinSafety, q.MinHealthcare, q.MinInternetMbps = p.MaxRentUSD, p.MinSafety, p.MinHealthcare, p.MinInternetMbps
	q.English, _ = place.ParseEnglish(p.EnglishMin) // "" is AnyEnglish
	switch p.Visa {
	case "retirement":
		q.Visa = place.RetirementVisa
	case "digitalNomad":
		q.Visa = place.NomadVisa
	}
	q.TaxFriendly = p.TaxFriendly
	return true
}

func (g *Handlers) Recommend(c *rest.Ctx) {
	w := geoPool.Get().(*geoWork)
	defer geoPool.Put(w)
	if !rest.Decode(c, g.recoSchema, &w.req) {
		return
	}
	var q place.Query
	if !canonical(c, &w.req, &q) {
		return
	}
	key := w.cacheKey(&q, w.req.Limit)
	if g.cache != nil {
		if body, ok := g.cache.Get(key); ok {
			g.hits.Add(1)
			c.SendBody(fasthttp.StatusOK, body)
			return
		}
	}
	g.misses.Add(1)
	// The body is built in the pooled buffer and sent as an exact-size
	// copy: one allocation, which is also what the cache keeps.
	body := bytes.Clone(g.recommend(&q, w.req.Limit, w))
	if g.cache != nil {
		g.cache.Set(key, body, int64(len(body)))
	}
	c.SendBody(fasthttp.StatusOK, body)
}

// recommend returns the whole response body, built in w.out: the first
// limit cities the engine ranks, and the count of all that fit.
func (g *Handlers) recommend(q *place.Query, limit int, w *geoWork) []byte {
	w.results = place.Recommend(w.results[:0], q, g.places)
	out := &w.out
	out.Reset()
	out.B = append(out.B, `{"success":true,"data":`...)
	out.BeginArray()
	for k := range min(len(w.results), limit) {
		g.writeRecommendation(out, q, &w.results[k], k+1, w)
	}
	out.EndArray()
	out.B = append(rest.AppendMeta(out.B, len(w.results), limit, 0), '}')
	return out.B
}

func (g *Handlers) writeRecommendation(out *jsonw.Writer, q *place.Query, r *place.Result, rank int, w *geoWork) {
	c, p := &g.cities[r.City], &g.places[r.City]
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
	out.String(p.Band.String())
	out.Key("monthlyCostUSD")
	out.Int(int64(r.Cost))
	out.Key("rentUSD")
	out.Int(int64(r.Rent))
	out.Key("budgetShare")
	out.Fixed(r.Share, 3)
	out.Key("tight")
	out.Bool(r.Tight)
	writeScore(out, r)
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
	w.reasons = place.AppendReasons(w.reasons[:0], q, p, r)
	for _, why := range w.reasons {
		w.text = place.AppendReason(w.text[:0], why, q, p, r)
		out.Bytes(w.text)
	}
	out.EndArray()
	out.End()
}

// writeScore writes the score and its breakdown in whole points.
func writeScore(out *jsonw.Writer, r *place.Result) {
	pts, score := r.Points()
	out.Key("score")
	out.Int(int64(score))
	out.Key("scoreBreakdown")
	out.BeginArray()
	for j := range place.NumParts {
		out.Begin()
		out.Key("name")
		out.String(place.PartNames[j])
		out.Key("score")
		out.Int(int64(pts[j]))
		out.Key("max")
		out.Int(int64(place.PartMax[j]))
		out.End()
	}
	out.EndArray()
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

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	List, Get, Compare, Recommend *rest.Doc
}

func (g *Handlers) docs(cityItemDoc, compareDoc, recommendationDoc rest.Schema) Docs {
	notFound := rest.Err(errcode.NotFound, "no city has this id")
	return Docs{
		List: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			List:    true,
			Summary: "Cities with their cost of living",
			Desc: "The embedded city dataset (fiplan's own estimates from public statistics; see the dataset's method and sources), filtered, sorted and paged. " +
				"Every amount is USD per month. Filters combine with AND. Unknown or repeated query parameters answer 400. " +
				"Without a query the page carries a strong ETag and If-None-Match naming it answers 304.",
			NotModified: true,
			Data:        cityItemDoc,
			Query: append([]rest.Param{
				rest.Q("country", "string", "ISO 3166-1 alpha-2 code, any case: only cities in this country."),
				rest.Q("region", "string", "Only cities in this region: one of "+regionList+"."),
				rest.Q("q", "string", "Name search, case- and accent-insensitive: 'sao paulo' finds São Paulo. Up to 100 bytes."),
				rest.Q("maxMonthlyCost", "number", "Only cities whose monthlyCostUSD is at most this."),
				rest.Q("minSafety", "integer", "Only cities whose safetyIndex is at least this, 0-100."),
				rest.Q("climate", "string", "Only cities in these climate bands, comma separated: "+climateList+". cold: coldest-month average high below 5 °C; hot: coldest-month high 24 °C or more, or warmest-month high 38 °C or more; warm: coldest-month high 12 °C or more and warmest-month high 25 °C or more; temperate: the rest."),
				rest.Q("sort", "string", "name (default; accent-folded, as the ids), cost or index (the same order: the index is the cost relative to New York); a leading - sorts descending. Ties go by id."),
			}, rest.PageQuery...),
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "a query parameter is malformed, out of range, unknown or repeated; details name it")}},
		Get: &rest.Doc{
			Tag:         "geo",
			Status:      200,
			Summary:     "One city",
			Desc:        "One city by its id, a slug such as lisbon-pt. It carries a strong ETag; If-None-Match naming it answers 304.",
			Data:        cityItemDoc,
			NotModified: true,
			Errs:        []rest.ErrDoc{notFound}},
		Compare: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			Summary: "Compare 2 to 5 cities",
			Desc: "The cities side by side, in the order asked for, with each cost line's ratio to the first city, how many times further money goes in each than in the first, " +
				"and the FI number each needs (12 x monthly cost / withdrawalRate). Spending styles: " + styleDoc,
			Data: compareDoc,
			Query: []rest.Param{
				rest.Q("ids", "string", "2 to 5 city ids, comma separated, no repeats; the first is the reference."),
				rest.Q("style", "string", "lean, normal (default), fat or family; see the description."),
				rest.Q("withdrawalRate", "number", "Above 0, at most 0.2; default 0.04."),
			},
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "ids lists fewer than 2 or more than 5 ids, repeats one or holds a malformed one; or style, withdrawalRate or another parameter is bad"), rest.Err(errcode.NotFound, "an id names no city; the message names it")}},
		Recommend: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			List:    true,
			Summary: "Cities ranked for a budget and preferences",
			Desc: "Every city whose household cost fits the budget and that meets every preference, best first, with its score, a score breakdown and the reasons. " +
				"The budget is monthlyBudgetUSD, or portfolioUSD x withdrawalRate / 12: give exactly one of the two. " + scoreDoc +
				" meta.total counts every city that fits; data holds the first limit of them. Answers are cached: the same request (in any field order or spacing) answers the same bytes.",
			Body: g.recoSchema,
			Data: recommendationDoc,
			Errs: []rest.ErrDoc{rest.Err(errcode.Missing, "neither monthlyBudgetUSD nor portfolioUSD is given; VALIDATION_ERROR: both are, or withdrawalRate comes without portfolioUSD")}},
	}
}
