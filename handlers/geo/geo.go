// Package geo serves the /geo routes: the city list and detail, the
// comparison of cities and the recommendations for a budget.
package geo

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/goccy/go-json"

	"fiplan/compute/geo"
	geodata "fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// The /geo routes serve the embedded city dataset.
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
// Compare and recommendations are computed by compute/geo over the
// cities converted once at start (placeOf); the handlers parse, call the
// engine and write its results. Recommendation response bodies are kept in
// a ristretto cache keyed by the canonical binary form of the request.

// Handlers is the dataset prepared for serving. It is read-only after New,
// except for the cache.
type Handlers struct {
	cities    []geodata.City // id order
	places    []geo.City     // the engine's view of cities, same order, prepared
	byID      map[string]int
	fold      [][][]byte // per city, geodata.AppendFold of the name and of each alias that folds differently, for q
	items     [][]byte   // each city's JSON
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
	geodata.City
	ClimateBand string `json:"climateBand" schema:"required,enum=cold|temperate|warm|hot" doc:"From the average highs of the coldest and warmest month: cold (coldest below 5 °C), hot (coldest 24 °C or more, or warmest 38 °C or more), warm (coldest 12 °C or more and warmest 25 °C or more), else temperate."`
}

// Config is what the /geo routes read besides the request.
type Config struct {
	Cities *geodata.Table
	// Programs name the special tax program a city's country offers
	// newcomers (nil: none).
	Programs *program.Table
}

// New prepares the cities for serving; v must define the geoRegion,
// climateBand and englishBand enums. Close releases the cache.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	cities, programs := cfg.Cities, cfg.Programs
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
	g.places = make([]geo.City, n)
	g.fold = make([][][]byte, n)
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
		g.fold[i] = foldsOf(c)
	}
	geo.Prepare(g.places)
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

// foldsOf is the folded name of a city and of each alias that folds to
// something else, the forms the list's q is matched against.
func foldsOf(c *geodata.City) [][]byte {
	out := [][]byte{geodata.AppendFold(nil, c.Name)}
	for _, a := range c.Aliases {
		f := geodata.AppendFold(nil, a)
		if !slices.ContainsFunc(out, func(g []byte) bool { return bytes.Equal(f, g) }) {
			out = append(out, f)
		}
	}
	return out
}

// placeOf is the engine's view of a city: its budgets, indexes, climate,
// language, first visa route of each kind and the tax program given.
func placeOf(c *geodata.City, taxProgram string) (geo.City, error) {
	band, ok := geo.ParseBand(c.Climate.Band())
	if !ok {
		return geo.City{}, fmt.Errorf("city %q: unknown climate band %q", c.ID, c.Climate.Band())
	}
	english, ok := geo.ParseEnglish(c.EnglishProficiency)
	if !ok {
		return geo.City{}, fmt.Errorf("city %q: unknown English band %q", c.ID, c.EnglishProficiency)
	}
	region := slices.Index(geodata.Regions, c.Region)
	if region < 0 || region >= 16 {
		return geo.City{}, fmt.Errorf("city %q: region %q is not one of the first 16", c.ID, c.Region)
	}
	first := func(names []string) string {
		if len(names) == 0 {
			return ""
		}
		return names[0]
	}
	return geo.City{
		ID: c.ID, Name: c.Name,
		Single: linesOf(&c.Breakdown.Single), Family: linesOf(&c.Breakdown.Family), RentOutside: c.Rents.OneBedOutside,
		Safety: c.SafetyIndex, Healthcare: c.HealthcareIndex, InternetMbps: c.InternetMbps,
		ColdestHighC: c.Climate.AvgHighColdestC, WarmestHighC: c.Climate.AvgHighWarmestC, Band: band,
		Region: uint8(region), English: english,
		RetirementVisa: first(c.Visas.Retirement), NomadVisa: first(c.Visas.DigitalNomad),
		TaxProgram: taxProgram,
	}, nil
}

func linesOf(l *geodata.Lines) geo.Lines {
	return geo.Lines{l.Rent, l.Groceries, l.EatingOut, l.Transport, l.Utilities, l.Internet, l.HealthInsurance}
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
func (g *Handlers) Places() []geo.City { return g.places }

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
	regionList  = strings.Join(geodata.Regions, ", ")
	climateList = strings.Join(geodata.ClimateBands, ", ")
)

// parseClimate reads a comma-separated list of bands into a bit set of
// geo.Band.
func parseClimate(v []byte) (uint8, bool) {
	var mask uint8
	for part := range bytes.SplitSeq(v, []byte{','}) {
		b, ok := geo.ParseBand(bytesconv.String(part))
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
