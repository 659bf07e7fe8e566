package handlers

import (
	"math"
	"sync"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/category"
	"fiplan/compute/portfolio"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Summary and categorisation of the caller's assets.

type share struct {
	Key   string  `json:"key" schema:"required"`
	Value float64 `json:"value" schema:"required" doc:"In the base currency."`
	Share float64 `json:"share" schema:"required" doc:"Fraction of the total value (0 when the total is 0)."`
}

type rateUsed struct {
	Currency string  `json:"currency" schema:"required"`
	Rate     float64 `json:"rate" schema:"required" doc:"Units of this currency per unit of the base currency."`
}

type fxInfo struct {
	AsOf   string     `json:"asOf" schema:"required" doc:"Date of the reference rates (YYYY-MM-DD)."`
	Source string     `json:"source" schema:"required"`
	Rates  []rateUsed `json:"rates" schema:"required" doc:"The rate of each currency the assets are held in."`
}

type summaryData struct {
	Currency             string   `json:"currency" schema:"required" doc:"The base currency of your settings; every amount is in it."`
	Assets               int      `json:"assets" schema:"required"`
	TotalValue           float64  `json:"totalValue" schema:"required"`
	ByCategory           []share  `json:"byCategory" schema:"required"`
	ByCurrency           []share  `json:"byCurrency" schema:"required" doc:"Keyed by the currency an asset is held in."`
	ByRegion             []share  `json:"byRegion" schema:"required" doc:"\"unspecified\" for assets without a region."`
	ByAccountType        []share  `json:"byAccountType" schema:"required" doc:"\"unspecified\" for assets without an account type."`
	ExpenseRatio         *float64 `json:"expenseRatio" schema:"required,nullable" doc:"Value-weighted over the assets with a stated ratio; null when none has one."`
	ExpenseRatioCoverage float64  `json:"expenseRatioCoverage" schema:"required" doc:"Share of the total value whose expense ratio is stated."`
	CostBasis            *float64 `json:"costBasis" schema:"required,nullable" doc:"Sum over the assets with a known cost basis; null when none."`
	UnrealisedGain       *float64 `json:"unrealisedGain" schema:"required,nullable" doc:"Value minus cost basis over the same assets."`
	CostBasisCoverage    float64  `json:"costBasisCoverage" schema:"required" doc:"Share of the total value whose cost basis is known."`
	ExchangeRates        fxInfo   `json:"exchangeRates" schema:"required"`
}

// holding is what the summary and the FI score read of a stored asset.
type holding struct {
	Name         string   `json:"name"`
	Category     string   `json:"category"`
	ISIN         *string  `json:"isin"`
	Value        float64  `json:"value"`
	Currency     string   `json:"currency"`
	CostBasis    *float64 `json:"costBasis"`
	ExpenseRatio *float64 `json:"expenseRatio"`
	Region       *string  `json:"region"`
	AccountType  *string  `json:"accountType"`
}

// holdings reads the user's assets. The optional fields decode into
// targets reused from asset to asset (cleared first: "" and NaN mark an
// absent field, which JSON cannot hold), so an asset costs only its strings.
func (s *Server) holdings(user string) ([]portfolio.Holding, error) {
	var dst []portfolio.Holding
	var isin, region, account string
	var basis, ratio float64
	err := s.db.Assets(user, func(doc []byte) error {
		isin, region, account, basis, ratio = "", "", "", math.NaN(), math.NaN()
		h := holding{ISIN: &isin, Region: &region, AccountType: &account, CostBasis: &basis, ExpenseRatio: &ratio}
		if err := json.Unmarshal(doc, &h); err != nil {
			return err
		}
		x := portfolio.Holding{Name: h.Name, Category: h.Category, Value: h.Value, Currency: h.Currency,
			ISIN: deref(h.ISIN), Region: deref(h.Region), AccountType: deref(h.AccountType)}
		if h.CostBasis != nil && !math.IsNaN(*h.CostBasis) {
			x.CostBasis, x.HasCostBasis = *h.CostBasis, true
		}
		if h.ExpenseRatio != nil && !math.IsNaN(*h.ExpenseRatio) {
			x.ExpenseRatio, x.HasExpenseRatio = *h.ExpenseRatio, true
		}
		dst = append(dst, x)
		return nil
	})
	return dst, err
}

func (s *Server) assetSummary(c *Ctx) {
	st, err := s.settings(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	hs, err := s.holdings(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	sum := portfolio.Summarize(hs, st.BaseCurrency, s.fx)
	c.JSON(fasthttp.StatusOK, newSummaryData(sum, s.fx.AsOf(), s.fx.Dataset()))
}

// newSummaryData is the response data of a summary.
func newSummaryData(sum *portfolio.Summary, asOf, dataset string) *summaryData {
	out := &summaryData{Currency: sum.Currency, Assets: sum.Assets, TotalValue: sum.Total,
		ByCategory: shares(sum.ByCategory), ByCurrency: shares(sum.ByCurrency),
		ByRegion: shares(sum.ByRegion), ByAccountType: shares(sum.ByAccountType),
		ExpenseRatioCoverage: sum.ExpenseRatioCoverage, CostBasisCoverage: sum.CostBasisCoverage,
		ExchangeRates: fxInfo{AsOf: asOf, Source: dataset, Rates: make([]rateUsed, len(sum.Rates))}}
	if sum.HasExpenseRatio {
		out.ExpenseRatio = &sum.ExpenseRatio
	}
	if sum.HasCostBasis {
		out.CostBasis, out.UnrealisedGain = &sum.CostBasis, &sum.UnrealisedGain
	}
	for i, r := range sum.Rates {
		out.ExchangeRates.Rates[i] = rateUsed(r)
	}
	return out
}

func shares(in []portfolio.Share) []share {
	out := make([]share, len(in))
	for i, s := range in {
		out[i] = share(s)
	}
	return out
}

// Categorisation

type categorizeItem struct {
	Name   string `json:"name" schema:"required,minLen=1,maxLen=200"`
	ISIN   string `json:"isin" schema:"maxLen=12,format=isin"`
	Ticker string `json:"ticker" schema:"maxLen=20"`
}

type categorizeRequest struct {
	Items []categorizeItem `json:"items" schema:"required,minItems=1,maxItems=100"`
}

type categorized struct {
	Name       string  `json:"name" schema:"required"`
	Category   string  `json:"category" schema:"required,enum=@assetClass"`
	Confidence float64 `json:"confidence" schema:"required" doc:"0 to 1: a known ticker 0.95, a name keyword 0.7-0.9, an ISIN prefix alone 0.4-0.6, nothing 0.2."`
	Basis      string  `json:"basis" schema:"required,enum=ticker|keyword|isin|none" doc:"The evidence that decided."`
	Reason     string  `json:"reason" schema:"required"`
}

type categorizeData struct {
	Items []categorized `json:"items" schema:"required" doc:"One per requested item, in request order."`
}

var (
	categorizeSchema = func() *schema.Schema[categorizeRequest] {
		_ = healthSchema // registers format=isin and the assetClass enum
		return schema.New[categorizeRequest]()
	}()
	categorizeDoc = func() rest.Schema { _ = healthSchema; return schema.Doc[categorizeData]() }()
	summaryDoc    = schema.Doc[summaryData]()
)

var basisNames = [...]string{category.None: "none", category.Ticker: "ticker", category.Keyword: "keyword", category.ISIN: "isin"}

type categorizeWork struct {
	req  categorizeRequest
	text []byte
}

var categorizePool = sync.Pool{New: func() any { return new(categorizeWork) }}

func (s *Server) categorize(c *Ctx) {
	w := categorizePool.Get().(*categorizeWork)
	defer categorizePool.Put(w)
	if !decode(c, categorizeSchema, &w.req) {
		return
	}
	out := c.Begin()
	out.Begin()
	out.Key("items")
	out.BeginArray()
	for i := range w.req.Items {
		it := &w.req.Items[i]
		g := category.Of(it.Name, it.ISIN, it.Ticker)
		writeGuess(out, it.Name, g, &w.text)
	}
	out.EndArray()
	out.End()
	c.Send(fasthttp.StatusOK)
}

func writeGuess(out *jsonw.Writer, name string, g category.Guess, text *[]byte) {
	out.Begin()
	out.Key("name")
	out.String(name)
	out.Key("category")
	out.String(g.Category)
	out.Key("confidence")
	out.Fixed(g.Confidence, 2)
	out.Key("basis")
	out.String(basisNames[g.Rule])
	out.Key("reason")
	*text = category.AppendReason((*text)[:0], g)
	out.Bytes(*text)
	out.End()
}

func portfolioRoutes(s *Server) []*rest.Route {
	return []*rest.Route{
		rest.Get(v1+"/assets/summary", rest.User, s.assetSummary, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			Summary: "Totals and allocation of your assets",
			Desc:    "Total value in the base currency of your settings; allocation by category, currency, region and account type (value and share, largest first); the value-weighted expense ratio; the unrealised gain where the cost basis is known. Amounts in other currencies are converted with the embedded reference exchange rates, whose date is in `exchangeRates.asOf`.",
			Data:    summaryDoc}),
		rest.Post(v1+"/assets/categorize", rest.User, s.categorize, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			Summary: "Suggest a category for each holding",
			Desc:    "For up to 100 items `{name, isin?, ticker?}` answers a category, a confidence and the reason. Evidence, strongest first: a well-known ticker; a keyword in the name (\"bond\", \"treasury\", \"gold\", \"bitcoin\", \"REIT\", \"money market\", ...); the ISIN prefix (XS and EU for bonds; IE and LU, the UCITS fund domiciles; other countries for a listed share). Nothing is stored.",
			Body:    categorizeSchema,
			Data:    categorizeDoc}),
	}
}
