package tax

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/tax"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

// POST /tax/optimize: every candidate country, under its normal rules and
// under each special program a newcomer can join, ranked by after-tax
// income in US dollars.

type taxOptRequest struct {
	Country          string    `json:"country" schema:"required,minLen=2,maxLen=2" doc:"Where the person lives now (ISO 3166-1 alpha-2, a country of GET /api/v1/tax/countries): the income is in its currency, and it is the reference for gainUSD."`
	Income           taxIncome `json:"income" schema:"required" doc:"Yearly amounts in the currency of country; at least one part above 0. Also the mix of the withdrawals for fiNumber."`
	Candidates       []string  `json:"candidates" schema:"maxItems=250,minLen=2,maxLen=19" doc:"What to compare, any case: a country code (DE), taxed as its localTax says, or a country and one of its regions (GB-SCT, CA-ON, DK-FRB, JP-13; see regions in GET /api/v1/tax/countries), taxed in that region. A region the tables do not have for the country (US-PR, CH-LU: Puerto Rico and Lucerne are not modelled) is a VALIDATION_ERROR naming candidates[i]. Default: every country of GET /api/v1/tax/countries."`
	Year             int       `json:"year" schema:"min=1900,max=2200" doc:"Tax year to compare, where a country has it; otherwise, and by default, each country's latest."`
	MonthlyBudgetUSD float64   `json:"monthlyBudgetUSD" schema:"min=0,max=1e7,default=0" doc:"Monthly spending in US dollars: adds each suggestion's after-tax FI number. 0 or absent: none."`
	WithdrawalRate   float64   `json:"withdrawalRate" schema:"xmin=0,max=0.2,default=0.04" doc:"Yearly withdrawal as a fraction of the portfolio, for fiNumber."`
	DomesticIncome   []string  `json:"domesticIncome" schema:"maxItems=6,enum=@taxIncomePart" doc:"Income parts that would arise in the candidate country itself (a local job); the others count as foreign-source there. Decides which program rules apply."`
	Programs         bool      `json:"programs" schema:"default=true" doc:"Also rank each candidate's special programs. false: the normal rules only."`
}

type taxOptWork struct {
	req taxOptRequest
	q   tax.Query
	r   tax.Ranking
}

var taxOptPool = sync.Pool{New: func() any {
	w := &taxOptWork{}
	w.q.Candidates = make([]tax.Candidate, 0, 64)
	w.r.Options, w.r.Skipped = make([]tax.Option, 0, 128), make([]tax.Skip, 0, 16)
	return w
}}

func (t *Handlers) Optimize(c *rest.Ctx) {
	w := taxOptPool.Get().(*taxOptWork)
	defer taxOptPool.Put(w)
	req := &w.req
	if !rest.Decode(c, t.optSchema, req) || !t.optQuery(c, req, &w.q) {
		return
	}
	if !t.gate.Enter(c) {
		return
	}
	defer t.gate.Leave(c)
	if err := tax.Optimize(&w.q, t.fx, &w.r); err != nil {
		c.Internal(err)
		return
	}
	t.writeRanking(c.Begin(), req, &w.r)
	c.Send(fasthttp.StatusOK)
}

// optQuery fills q from req, or sends the 400 naming the field and returns
// false.
func (t *Handlers) optQuery(c *rest.Ctx, req *taxOptRequest, q *tax.Query) bool {
	home, ok := t.taxes.ByCountry(req.Country)
	if !ok {
		c.Fail("country", "no tax parameters for "+strconv.Quote(req.Country)+"; supported: "+t.supported)
		return false
	}
	in := req.Income.engine()
	if !(in.Total() > 0) {
		c.Fail("income", "at least one part must be above 0 to compare countries")
		return false
	}
	*q = tax.Query{Home: home, Income: in, Year: req.Year, BudgetUSD: req.MonthlyBudgetUSD * 12,
		WithdrawalRate: req.WithdrawalRate, Domestic: domesticMask(req.DomesticIncome), Programs: req.Programs,
		Candidates: q.Candidates[:0]}
	if len(req.Candidates) == 0 {
		for _, sys := range t.taxes.Countries() {
			q.Candidates = append(q.Candidates, tax.Candidate{System: sys, Offers: t.offers[sys.Country]})
		}
	}
	for i, code := range req.Candidates {
		cand, msg := t.candidate(code)
		if msg == "" {
			if j := slices.IndexFunc(q.Candidates, cand.Same); j >= 0 {
				msg = "repeats candidates[" + strconv.Itoa(j) + "]"
			}
		}
		if msg != "" {
			c.Fail("candidates["+strconv.Itoa(i)+"]", msg)
			return false
		}
		q.Candidates = append(q.Candidates, cand)
	}
	return true
}

// candidate resolves a candidate code, a country (DE) or a country and one
// of its regions (GB-SCT, any case); msg says why it cannot.
func (t *Handlers) candidate(code string) (c tax.Candidate, msg string) {
	cc, region, hasRegion := strings.Cut(code, "-")
	if !hasRegion {
		cc = code
	}
	sys, ok := t.taxes.ByCountry(cc)
	if !ok {
		return c, "no tax parameters for " + strconv.Quote(cc) + "; supported: " + t.supported
	}
	c = tax.Candidate{System: sys, Offers: t.offers[sys.Country]}
	if !hasRegion {
		return c, ""
	}
	for _, r := range sys.Regions {
		if strings.EqualFold(r.Code, region) {
			c.Region = r.Code
			return c, ""
		}
	}
	if len(sys.Regions) == 0 {
		return c, sys.Country + " has no regions with their own tax in the tables; give the country alone"
	}
	codes := make([]string, len(sys.Regions))
	for i, r := range sys.Regions {
		codes[i] = sys.Country + "-" + r.Code
	}
	return c, "unknown region " + strconv.Quote(region) + " for " + sys.Country + "; known: " + strings.Join(codes, ", ")
}

// writeRanking writes the response data of POST /tax/optimize.
func (t *Handlers) writeRanking(out *jsonw.Writer, req *taxOptRequest, r *tax.Ranking) {
	home := r.Current.System
	out.Begin()
	out.Key("country")
	out.String(home.Country)
	out.Key("currency")
	out.String(home.Currency)
	out.Key("year")
	if req.Year == 0 {
		out.Null()
	} else {
		out.Int(int64(req.Year))
	}
	out.Key("fxAsOf")
	out.String(t.fxAsOf)
	out.Key("monthlyBudgetUSD")
	if req.MonthlyBudgetUSD > 0 {
		out.Float(req.MonthlyBudgetUSD)
	} else {
		out.Null()
	}
	out.Key("withdrawalRate")
	out.Float(req.WithdrawalRate)
	out.Key("current")
	t.writeOption(out, &r.Current, home, -1, 0)
	out.Key("suggestions")
	out.BeginArray()
	for i := range r.Options {
		t.writeOption(out, &r.Options[i], home, i+1, r.Current.NetUSD)
	}
	out.EndArray()
	out.Key("skipped")
	out.BeginArray()
	for _, s := range r.Skipped {
		out.Begin()
		out.Key("country")
		out.String(s.Country)
		out.Key("program")
		out.StringOrNull(s.Program)
		out.Key("reason")
		out.String(s.Reason)
		out.End()
	}
	out.EndArray()
	out.End()
}

// writeOption writes one suggestion; rank < 0 writes the current situation
// (no rank, no gain).
func (t *Handlers) writeOption(w *jsonw.Writer, o *tax.Option, home *tax.System, rank int, currentUSD float64) {
	var tp *taxProgram // nil: the normal rules
	if o.Offer != nil {
		tp = t.byID[o.Offer.ID]
	}
	w.Begin()
	if rank > 0 {
		w.Key("rank")
		w.Int(int64(rank))
	}
	w.Key("country")
	w.String(o.System.Country)
	w.Key("name")
	w.String(o.System.Name)
	w.Key("currency")
	w.String(o.System.Currency)
	w.Key("year")
	w.Int(int64(o.Year))
	writeOptionLocalTax(w, o)
	writeProgramRef(w, tp)
	w.Key("grossIncome")
	w.Fixed(o.Gross, 2)
	w.Key("totalTax")
	w.Fixed(o.Tax, 2)
	w.Key("afterTaxIncome")
	w.Fixed(o.Net, 2)
	w.Key("effectiveRate")
	if o.Gross > 0 {
		w.Fixed(o.Tax/o.Gross, 6)
	} else {
		w.Int(0)
	}
	w.Key("grossIncomeUSD")
	w.Fixed(o.GrossUSD, 2)
	w.Key("totalTaxUSD")
	w.Fixed(o.TaxUSD, 2)
	w.Key("afterTaxIncomeUSD")
	w.Fixed(o.NetUSD, 2)
	if rank > 0 {
		w.Key("gainUSD")
		w.Fixed(o.NetUSD-currentUSD, 2)
	}
	moneyOrNull(w, "fiNumber", o.FI, o.HasFI)
	moneyOrNull(w, "fiNumberUSD", o.FIUSD, o.HasFI)
	moneyOrNull(w, "fiWithdrawal", o.Withdrawal, o.HasFI)
	switch {
	case tp != nil:
		writeStrings(w, "eligibility", tp.p.Eligibility)
		writeStrings(w, "conditions", tp.conditions)
	case o.System == home:
		writeStrings(w, "eligibility", nil)
		writeStrings(w, "conditions", nil)
	default:
		writeStrings(w, "eligibility", t.residence[o.System.Country])
		writeStrings(w, "conditions", nil)
	}
	w.End()
}

// writeProgramRef writes the program of a suggestion: null for the normal
// rules.
func writeProgramRef(w *jsonw.Writer, tp *taxProgram) {
	w.Key("program")
	if tp == nil {
		w.Null()
		return
	}
	p := &tp.p
	w.Begin()
	w.Key("id")
	w.String(p.ID)
	w.Key("name")
	w.String(p.Name)
	w.Key("kind")
	w.String(string(p.Kind))
	w.Key("status")
	w.String(string(p.Status))
	w.Key("durationYears")
	if p.DurationYears == nil {
		w.Null()
	} else {
		w.Int(int64(*p.DurationYears))
	}
	w.End()
}

// moneyOrNull writes key with v to the cent, or null when !ok.
func moneyOrNull(w *jsonw.Writer, key string, v float64, ok bool) {
	w.Key(key)
	if ok {
		w.Fixed(v, 2)
	} else {
		w.Null()
	}
}

// writeOptionLocalTax writes an option's localTax: its country's, or, for a
// candidate taxed in another region it named, that region.
func writeOptionLocalTax(w *jsonw.Writer, o *tax.Option) {
	if o.Region == o.System.LocalTax.Region {
		writeLocalTax(w, o.System)
		return
	}
	name := o.Region
	for _, r := range o.System.Regions {
		if r.Code == o.Region {
			name = r.Name
		}
	}
	w.Key("localTax")
	w.Begin()
	w.Key("region")
	w.String(o.Region)
	w.Key("note")
	w.String("Taxed at the rates of " + name + ", the region the candidate names.")
	w.End()
}
