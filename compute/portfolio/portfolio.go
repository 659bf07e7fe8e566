// Package portfolio summarises a person's holdings in one base currency:
// the total value, the allocation by category, currency, region and account
// type, the value-weighted expense ratio and the unrealised gain.
//
// The package is a pure engine: exchange rates come in as data (Rates), so
// the same holdings and rates always give the same summary. Money is
// rounded to the cent and shares to six decimals, as the API shows them;
// every sum is taken over the unrounded amounts.
package portfolio

import (
	"cmp"
	"math"
	"slices"
)

// Rates converts an amount between two currencies (ISO 4217 codes); it
// reports false when it has no rate for one of them. The caller fills it
// from its exchange-rate table.
type Rates interface {
	Convert(amount float64, from, to string) (float64, bool)
}

// Unspecified is the allocation key of the holdings without a region or an
// account type.
const Unspecified = "unspecified"

// Holding is one asset as the summary and the FI score read it.
type Holding struct {
	Name     string
	Category string // an asset class, such as equity
	ISIN     string // "" when none
	Value    float64
	Currency string // of Value and CostBasis
	// CostBasis is what the holding cost; HasCostBasis says it is known.
	CostBasis    float64
	HasCostBasis bool
	// ExpenseRatio is the yearly fund cost as a fraction; HasExpenseRatio
	// says it is stated.
	ExpenseRatio    float64
	HasExpenseRatio bool
	Region          string // "" when not stated
	AccountType     string // "" when not stated
}

// ValueIn is the holding's value in base. A currency the rates lack, or a
// conversion that is not a finite number, counts as 0 rather than as a
// wrong number (stored currencies are checked against the rate table when
// written, so this only happens when the table loses a currency).
func (h *Holding) ValueIn(base string, fx Rates) float64 {
	return in(fx, h.Value, h.Currency, base)
}

func in(fx Rates, x float64, cur, base string) float64 {
	v, ok := fx.Convert(x, cur, base)
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// Share is one key of an allocation: its value in the base currency and
// its fraction of the total (0 when the total is 0).
type Share struct {
	Key   string
	Value float64
	Share float64
}

// Rate is the rate of a currency the holdings are in: units of it per unit
// of the base currency.
type Rate struct {
	Currency string
	Rate     float64
}

// Summary is the holdings summarised in Currency.
type Summary struct {
	Currency string
	Assets   int
	Total    float64
	// Allocations, largest value first, ties by key.
	ByCategory, ByCurrency, ByRegion, ByAccountType []Share
	// ExpenseRatio is value-weighted over the holdings that state one;
	// HasExpenseRatio is false when none does (or their value is 0).
	ExpenseRatio    float64
	HasExpenseRatio bool
	// ExpenseRatioCoverage is the share of the total value whose expense
	// ratio is stated.
	ExpenseRatioCoverage float64
	// CostBasis and UnrealisedGain are over the holdings with a known cost
	// basis; HasCostBasis is false when none has one.
	CostBasis, UnrealisedGain float64
	HasCostBasis              bool
	CostBasisCoverage         float64
	// Rates holds the rate of each currency of ByCurrency, in its order,
	// where the rates have one.
	Rates []Rate
}

// Summarize summarises hs in the currency base, converting with fx.
func Summarize(hs []Holding, base string, fx Rates) *Summary {
	out := &Summary{Currency: base, Assets: len(hs), Rates: []Rate{}}
	var byCat, byCur, byRegion, byAcct tally
	var total, erValue, erWeighted, cbValue, cb float64
	for i := range hs {
		h := &hs[i]
		v := h.ValueIn(base, fx)
		total += v
		byCat.add(h.Category, v)
		byCur.add(h.Currency, v)
		byRegion.add(orUnspecified(h.Region), v)
		byAcct.add(orUnspecified(h.AccountType), v)
		if h.HasExpenseRatio {
			erValue += v
			erWeighted += v * h.ExpenseRatio
		}
		if h.HasCostBasis {
			out.HasCostBasis = true
			cbValue += v
			cb += in(fx, h.CostBasis, h.Currency, base)
		}
	}
	total, erValue, erWeighted, cbValue, cb = Capped(total), Capped(erValue), Capped(erWeighted), Capped(cbValue), Capped(cb)
	out.Total = Money(total)
	out.ByCategory, out.ByCurrency = byCat.shares(total), byCur.shares(total)
	out.ByRegion, out.ByAccountType = byRegion.shares(total), byAcct.shares(total)
	if erValue > 0 {
		if er := Fraction(erWeighted / erValue); finite(er) {
			out.ExpenseRatio, out.HasExpenseRatio = er, true
		}
	}
	if out.HasCostBasis {
		out.CostBasis, out.UnrealisedGain = Money(cb), Money(cbValue-cb)
	}
	if total > 0 {
		out.ExpenseRatioCoverage = Fraction(erValue / total)
		out.CostBasisCoverage = Fraction(cbValue / total)
	}
	for _, sh := range out.ByCurrency {
		if r, ok := fx.Convert(1, base, sh.Key); ok && finite(r) {
			out.Rates = append(out.Rates, Rate{Currency: sh.Key, Rate: r})
		}
	}
	return out
}

// Money rounds to the cent; an amount too large to round stays as it is,
// infinities become the largest float64 and NaN 0.
func Money(x float64) float64 { return round(x, 100) }

// Fraction rounds a share or rate to six decimals, as Money does to cents.
func Fraction(x float64) float64 { return round(x, 1e6) }

func round(x, unit float64) float64 {
	x = Capped(x)
	if y := math.Round(x*unit) / unit; finite(y) {
		return y
	}
	return x
}

// Capped is x with infinities capped at the largest float64 and NaN as 0.
func Capped(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	}
	return x
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func orUnspecified(s string) string {
	if s == "" {
		return Unspecified
	}
	return s
}

// tally sums values by key. A person has few distinct keys per allocation,
// so a slice searched linearly beats a map.
type tally []Share

func (t *tally) add(key string, v float64) {
	for i := range *t {
		if (*t)[i].Key == key {
			(*t)[i].Value += v
			return
		}
	}
	*t = append(*t, Share{Key: key, Value: v})
}

// shares rounds the sums, adds each one's fraction of total and sorts them
// largest first (by the rounded value), ties by key.
func (t tally) shares(total float64) []Share {
	out := make([]Share, len(t))
	for i, s := range t {
		v, sh := Capped(s.Value), 0.0
		if total > 0 {
			sh = v / total
		}
		out[i] = Share{Key: s.Key, Value: Money(v), Share: Fraction(sh)}
	}
	slices.SortFunc(out, func(a, b Share) int {
		if c := cmp.Compare(b.Value, a.Value); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}
