package geo

import (
	"bytes"
	"slices"
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/geo"
	geodata "fiplan/data/geo"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

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
const recoKeyLen = geo.KeyLen + 2

type geoWork struct {
	req     recoRequest
	results []geo.Result
	reasons []geo.Reason
	text    []byte
	out     jsonw.Writer // the response body being built
	key     [recoKeyLen]byte
}

var geoPool = sync.Pool{New: func() any {
	return &geoWork{
		results: make([]geo.Result, 0, 256), reasons: make([]geo.Reason, 0, 16),
		text: make([]byte, 0, 256), out: jsonw.Writer{B: make([]byte, 0, 32<<10)},
	}
}}

// cacheKey is the cache key of a query and a limit: two requests that mean the
// same (field order, whitespace, list order or repeats, a default given or
// left out) have the same key. The view never outlives the request:
// ristretto hashes keys and keeps only the hashes.
func (w *geoWork) cacheKey(q *geo.Query, limit int) string {
	b := q.AppendKey(w.key[:0])
	b = append(b, byte(limit), byte(limit>>8))
	return bytesconv.String(b)
}

// canonical checks the cross-field rules and fills q. On a violation it
// has sent 400 and returns false.
func canonical(c *rest.Ctx, r *recoRequest, q *geo.Query) bool {
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
	*q = geo.Query{Budget: r.MonthlyBudgetUSD, Household: r.HouseholdSize}
	if r.PortfolioUSD > 0 {
		rate := r.WithdrawalRate
		if rate == 0 {
			rate = defaultWithdrawalRate
		}
		q.Budget = r.PortfolioUSD * rate / 12
	}
	p := &r.Preferences
	for _, v := range p.Regions {
		q.Regions |= 1 << slices.Index(geodata.Regions, v)
	}
	for _, v := range p.Climate {
		b, _ := geo.ParseBand(v) // the schema admits band names only
		q.Bands |= 1 << b
	}
	q.MaxRent, q.MinSafety, q.MinHealthcare, q.MinInternetMbps = p.MaxRentUSD, p.MinSafety, p.MinHealthcare, p.MinInternetMbps
	q.English, _ = geo.ParseEnglish(p.EnglishMin) // "" is AnyEnglish
	switch p.Visa {
	case "retirement":
		q.Visa = geo.RetirementVisa
	case "digitalNomad":
		q.Visa = geo.NomadVisa
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
	var q geo.Query
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
func (g *Handlers) recommend(q *geo.Query, limit int, w *geoWork) []byte {
	w.results = geo.Recommend(w.results[:0], q, g.places)
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

func (g *Handlers) writeRecommendation(out *jsonw.Writer, q *geo.Query, r *geo.Result, rank int, w *geoWork) {
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
	w.reasons = geo.AppendReasons(w.reasons[:0], q, p, r)
	for _, why := range w.reasons {
		w.text = geo.AppendReason(w.text[:0], why, q, p, r)
		out.Bytes(w.text)
	}
	out.EndArray()
	out.End()
}

// writeScore writes the score and its breakdown in whole points.
func writeScore(out *jsonw.Writer, r *geo.Result) {
	pts, score := r.Points()
	out.Key("score")
	out.Int(int64(score))
	out.Key("scoreBreakdown")
	out.BeginArray()
	for j := range geo.NumParts {
		out.Begin()
		out.Key("name")
		out.String(geo.PartNames[j])
		out.Key("score")
		out.Int(int64(pts[j]))
		out.Key("max")
		out.Int(int64(geo.PartMax[j]))
		out.End()
	}
	out.EndArray()
}
