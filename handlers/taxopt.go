package handlers

import (
	"slices"
	"strconv"
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/schema"
)

// POST /tax/optimize: every candidate country, under its normal rules and
// under each special program a newcomer can join, ranked by after-tax
// income in US dollars.

type taxOptRequest struct {
	Country          string    `json:"country" schema:"required,minLen=2,maxLen=2" doc:"Where the person lives now (ISO 3166-1 alpha-2, a country of GET /api/v1/tax/countries): the income is in its currency, and it is the reference for gainUSD."`
	Income           taxIncome `json:"income" schema:"required" doc:"Yearly amounts in the currency of country; at least one part above 0. Also the mix of the withdrawals for fiNumber."`
	Candidates       []string  `json:"candidates" schema:"maxItems=250,minLen=2,maxLen=2" doc:"Country codes to compare (any case). Default: every country of GET /api/v1/tax/countries."`
	Year             int       `json:"year" schema:"min=1900,max=2200" doc:"Tax year to compare, where a country has it; otherwise, and by default, each country's latest."`
	MonthlyBudgetUSD float64   `json:"monthlyBudgetUSD" schema:"min=0,max=1e7,default=0" doc:"Monthly spending in US dollars: adds each suggestion's after-tax FI number. 0 or absent: none."`
	WithdrawalRate   float64   `json:"withdrawalRate" schema:"xmin=0,max=0.2,default=0.04" doc:"Yearly withdrawal as a fraction of the portfolio, for fiNumber."`
	DomesticIncome   []string  `json:"domesticIncome" schema:"maxItems=6,enum=@taxIncomePart" doc:"Income parts that would arise in the candidate country itself (a local job); the others count as foreign-source there. Decides which program rules apply."`
	Programs         bool      `json:"programs" schema:"default=true" doc:"Also rank each candidate's special programs. false: the normal rules only."`
}

var taxOptSchema = func() *schema.Schema[taxOptRequest] {
	_ = taxEnums
	return schema.New[taxOptRequest]()
}()

// taxOption is one ranked suggestion: a country under its normal rules or
// under one program.
type taxOption struct {
	sys                      *tax.System
	prog                     *taxProgram // nil: the normal rules
	year                     int
	gross, tax, net          float64 // in the country's currency
	grossUSD, taxUSD, netUSD float64
	fi, fiUSD, withdrawal    float64
	hasFI                    bool
}

type taxSkip struct {
	country, program, reason string
}

type taxOptWork struct {
	req     taxOptRequest
	cands   []*tax.System
	opts    []taxOption
	current taxOption
	skipped []taxSkip
	rg      tax.Regime
}

var taxOptPool = sync.Pool{New: func() any {
	return &taxOptWork{cands: make([]*tax.System, 0, 64), opts: make([]taxOption, 0, 128), skipped: make([]taxSkip, 0, 16)}
}}

// yearFor is the year compared in sys: the requested one where it has it,
// else its latest.
func yearFor(sys *tax.System, year int) int {
	if year != 0 {
		if _, err := sys.Year(year); err == nil {
			return year
		}
	}
	return sys.Latest()
}

func scaled(in *tax.Income, f float64) tax.Income {
	return tax.Income{Employment: in.Employment * f, SelfEmployment: in.SelfEmployment * f, Pension: in.Pension * f,
		Interest: in.Interest * f, Dividends: in.Dividends * f, CapitalGains: in.CapitalGains * f}
}

// evaluate fills o for the income in (in sys's currency) under rg (nil:
// the normal rules). usd converts sys's currency to US dollars; budget is
// the yearly spending in sys's currency (0: no FI number).
func evaluate(o *taxOption, in *tax.Income, rg *tax.Regime, usd, budget, wr float64) error {
	t, err := tax.Due(o.sys, o.year, in, o.sys.LocalRegion(o.year), rg)
	if err != nil {
		return err
	}
	o.gross, o.tax = in.Total(), t
	o.net = o.gross - t
	o.grossUSD, o.taxUSD, o.netUSD = o.gross*usd, t*usd, o.net*usd
	o.hasFI = false
	if budget > 0 {
		g, ok, err := tax.GrossFor(o.sys, o.year, in, o.sys.LocalRegion(o.year), rg, budget)
		if err != nil {
			return err
		}
		if ok {
			o.hasFI, o.withdrawal, o.fi = true, g, g/wr
			o.fiUSD = o.fi * usd
		}
	}
	return nil
}

func (t *taxAPI) optimize(c *Ctx) {
	w := taxOptPool.Get().(*taxOptWork)
	defer taxOptPool.Put(w)
	req := &w.req
	if !decode(c, taxOptSchema, req) {
		return
	}
	home, ok := t.s.taxes.ByCountry(req.Country)
	if !ok {
		c.Fail("country", "no tax parameters for "+strconv.Quote(req.Country)+"; supported: "+t.supported)
		return
	}
	in := req.Income.engine()
	if !(in.Total() > 0) {
		c.Fail("income", "at least one part must be above 0 to compare countries")
		return
	}
	w.cands = w.cands[:0]
	if len(req.Candidates) == 0 {
		w.cands = append(w.cands, t.s.taxes.Countries()...)
	}
	for i, cc := range req.Candidates {
		sys, ok := t.s.taxes.ByCountry(cc)
		if !ok {
			c.Fail("candidates["+itoa(i)+"]", "no tax parameters for "+strconv.Quote(cc)+"; supported: "+t.supported)
			return
		}
		if j := slices.Index(w.cands, sys); j >= 0 {
			c.Fail("candidates["+itoa(i)+"]", "repeats candidates["+itoa(j)+"]")
			return
		}
		w.cands = append(w.cands, sys)
	}
	fx := t.fx
	yearly := req.MonthlyBudgetUSD * 12
	domestic := domesticMask(req.DomesticIncome)
	w.opts, w.skipped = w.opts[:0], w.skipped[:0]

	// at prepares an option for sys and returns the income and the rates.
	at := func(o *taxOption, sys *tax.System) (inC tax.Income, usd, budget float64, ok bool) {
		f, ok1 := fx.Convert(1, home.Currency, sys.Currency)
		usd, ok2 := fx.Convert(1, sys.Currency, "USD")
		if !ok1 || !ok2 {
			return inC, 0, 0, false
		}
		*o = taxOption{sys: sys, year: yearFor(sys, req.Year)}
		if yearly > 0 {
			budget = yearly / usd
		}
		return scaled(&in, f), usd, budget, true
	}
	inC, usd, budget, ok := at(&w.current, home)
	if !ok {
		c.Internal(errNoRate(home.Currency))
		return
	}
	if err := evaluate(&w.current, &inC, nil, usd, budget, req.WithdrawalRate); err != nil {
		c.Internal(err)
		return
	}
	for _, sys := range w.cands {
		var o taxOption
		inC, usd, budget, ok := at(&o, sys)
		if !ok {
			w.skipped = append(w.skipped, taxSkip{country: sys.Country, reason: "no exchange rate for " + sys.Currency})
			continue
		}
		if err := evaluate(&o, &inC, nil, usd, budget, req.WithdrawalRate); err != nil {
			c.Internal(err)
			return
		}
		w.opts = append(w.opts, o)
		if !req.Programs || sys == home {
			continue
		}
		for _, tp := range t.byCountry[sys.Country] {
			switch {
			case tp.p.Status == program.StatusClosed:
				w.skipped = append(w.skipped, taxSkip{sys.Country, tp.p.ID, "closed to new entrants"})
				continue
			case !tp.calculable:
				w.skipped = append(w.skipped, taxSkip{sys.Country, tp.p.ID, tp.why})
				continue
			}
			tp.regime(&domestic, &w.rg)
			if !covers(&w.rg, &inC) {
				w.skipped = append(w.skipped, taxSkip{sys.Country, tp.p.ID, "its rules cover none of this income (see domesticIncome)"})
				continue
			}
			po := o
			po.prog = tp
			if err := evaluate(&po, &inC, &w.rg, usd, budget, req.WithdrawalRate); err != nil {
				c.Internal(err)
				return
			}
			w.opts = append(w.opts, po)
		}
	}
	slices.SortStableFunc(w.opts, compareOptions)

	out := c.Begin()
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
	if yearly > 0 {
		out.Float(req.MonthlyBudgetUSD)
	} else {
		out.Null()
	}
	out.Key("withdrawalRate")
	out.Float(req.WithdrawalRate)
	out.Key("current")
	t.writeOption(out, &w.current, home, -1, 0)
	out.Key("suggestions")
	out.BeginArray()
	for i := range w.opts {
		t.writeOption(out, &w.opts[i], home, i+1, w.current.netUSD)
	}
	out.EndArray()
	out.Key("skipped")
	out.BeginArray()
	for _, s := range w.skipped {
		out.Begin()
		out.Key("country")
		out.String(s.country)
		out.Key("program")
		out.StringOrNull(s.program)
		out.Key("reason")
		out.String(s.reason)
		out.End()
	}
	out.EndArray()
	out.End()
	c.Send(fasthttp.StatusOK)
}

// covers reports whether a rule of rg covers a part of in above 0.
func covers(rg *tax.Regime, in *tax.Income) bool {
	amounts := [tax.NumParts]float64{in.Employment, in.SelfEmployment, in.Pension, in.Interest, in.Dividends, in.CapitalGains}
	for i := range rg.Rules[:rg.N] {
		for p, on := range rg.Rules[i].Parts {
			if on && amounts[p] > 0 {
				return true
			}
		}
	}
	return false
}

type errNoRate string

func (e errNoRate) Error() string { return "no exchange rate for " + string(e) }

// compareOptions ranks by after-tax income in US dollars, best first; ties
// by country code, the normal rules before programs, then program id.
func compareOptions(a, b taxOption) int {
	switch {
	case a.netUSD > b.netUSD:
		return -1
	case a.netUSD < b.netUSD:
		return 1
	case a.sys.Country != b.sys.Country:
		if a.sys.Country < b.sys.Country {
			return -1
		}
		return 1
	case a.prog == nil || b.prog == nil:
		if a.prog == nil && b.prog != nil {
			return -1
		}
		if a.prog != nil && b.prog == nil {
			return 1
		}
		return 0
	case a.prog.p.ID < b.prog.p.ID:
		return -1
	case a.prog.p.ID > b.prog.p.ID:
		return 1
	}
	return 0
}

// writeOption writes one suggestion; rank < 0 writes the current situation
// (no rank, no gain).
func (t *taxAPI) writeOption(w *jsonw.Writer, o *taxOption, home *tax.System, rank int, currentUSD float64) {
	w.Begin()
	if rank > 0 {
		w.Key("rank")
		w.Int(int64(rank))
	}
	w.Key("country")
	w.String(o.sys.Country)
	w.Key("name")
	w.String(o.sys.Name)
	w.Key("currency")
	w.String(o.sys.Currency)
	w.Key("year")
	w.Int(int64(o.year))
	writeLocalTax(w, o.sys)
	w.Key("program")
	if o.prog == nil {
		w.Null()
	} else {
		p := &o.prog.p
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
	w.Key("grossIncome")
	w.Fixed(o.gross, 2)
	w.Key("totalTax")
	w.Fixed(o.tax, 2)
	w.Key("afterTaxIncome")
	w.Fixed(o.net, 2)
	w.Key("effectiveRate")
	if o.gross > 0 {
		w.Fixed(o.tax/o.gross, 6)
	} else {
		w.Int(0)
	}
	w.Key("grossIncomeUSD")
	w.Fixed(o.grossUSD, 2)
	w.Key("totalTaxUSD")
	w.Fixed(o.taxUSD, 2)
	w.Key("afterTaxIncomeUSD")
	w.Fixed(o.netUSD, 2)
	if rank > 0 {
		w.Key("gainUSD")
		w.Fixed(o.netUSD-currentUSD, 2)
	}
	w.Key("fiNumber")
	if o.hasFI {
		w.Fixed(o.fi, 2)
	} else {
		w.Null()
	}
	w.Key("fiNumberUSD")
	if o.hasFI {
		w.Fixed(o.fiUSD, 2)
	} else {
		w.Null()
	}
	w.Key("fiWithdrawal")
	if o.hasFI {
		w.Fixed(o.withdrawal, 2)
	} else {
		w.Null()
	}
	switch {
	case o.prog != nil:
		writeStrings(w, "eligibility", o.prog.p.Eligibility)
		writeStrings(w, "conditions", o.prog.conditions)
	case o.sys == home:
		writeStrings(w, "eligibility", nil)
		writeStrings(w, "conditions", nil)
	default:
		writeStrings(w, "eligibility", t.residence[o.sys.Country])
		writeStrings(w, "conditions", nil)
	}
	w.End()
}
