package account

import (
	"math"

	"github.com/valyala/fasthttp"

	"fiplan/compute/portfolio"
	"fiplan/handlers/rest"

	gojson "github.com/goccy/go-json"
)

// summaryDoc describes GET /assets/summary for the OpenAPI document.
func summaryDoc(data rest.Schema) *rest.Doc {
	return &rest.Doc{
		Tag:     "assets",
		Status:  200,
		Summary: "Totals and allocation of your assets",
		Desc:    "Total value in the base currency of your settings; allocation by category, currency, region and account type (value and share, largest first); the value-weighted expense ratio; the unrealised gain where the cost basis is known. Amounts in other currencies are converted with the embedded reference exchange rates, whose date is in `exchangeRates.asOf`.",
		Data:    data}
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
func (s *Handlers) holdings(user string) ([]portfolio.Holding, error) {
	var dst []portfolio.Holding
	var isin, region, account string
	var basis, ratio float64
	err := s.db.Assets(user, func(doc []byte) error {
		isin, region, account, basis, ratio = "", "", "", math.NaN(), math.NaN()
		h := holding{ISIN: &isin, Region: &region, AccountType: &account, CostBasis: &basis, ExpenseRatio: &ratio}
		if err := gojson.UnmarshalOf(doc, &h); err != nil {
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

func (s *Handlers) Summary(c *rest.Ctx) {
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
	base, err := s.base(c.Principal.User, &st)
	if err != nil {
		c.Storage(err)
		return
	}
	sum := portfolio.Summarize(hs, base, s.fx)
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
