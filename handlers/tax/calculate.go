package tax

import (
	"strconv"
	"strings"
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/tax"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

// POST /tax/calculate

type taxIncome struct {
	Employment     float64 `json:"employment" schema:"min=0,max=1e12,default=0" doc:"Gross wages."`
	SelfEmployment float64 `json:"selfEmployment" schema:"min=0,max=1e12,default=0" doc:"Net profit from self-employment."`
	Pension        float64 `json:"pension" schema:"min=0,max=1e12,default=0" doc:"Pensions and annuities."`
	Interest       float64 `json:"interest" schema:"min=0,max=1e12,default=0"`
	Dividends      float64 `json:"dividends" schema:"min=0,max=1e12,default=0"`
	CapitalGains   float64 `json:"capitalGains" schema:"min=0,max=1e12,default=0" doc:"Realised gains, net of losses."`
}

func (in *taxIncome) engine() tax.Income {
	return tax.Income{Employment: in.Employment, SelfEmployment: in.SelfEmployment, Pension: in.Pension,
		Interest: in.Interest, Dividends: in.Dividends, CapitalGains: in.CapitalGains}
}

type taxCalcRequest struct {
	Country        string     `json:"country" schema:"required,minLen=2,maxLen=2" doc:"ISO 3166-1 alpha-2 code of a country of GET /api/v1/tax/countries (any case)."`
	Year           int        `json:"year" schema:"min=1900,max=2200" doc:"Tax year: the calendar year it begins in (UK 2024 = 2024/25). Default: the country's latest."`
	Region         string     `json:"region" schema:"maxLen=16" doc:"A region code of the country (GET /api/v1/tax/countries): adds sub-national tax, on its own lines and in regionalTax. Default: where the country's income tax has a local part, the region its localTax names (GET /api/v1/tax/countries), and data.region says which was applied; a year that does not model that region is refused on region, naming the regions it models. A joint return whose default region has no joint rules is taxed without one (data.region null)."`
	Income         taxIncome  `json:"income" schema:"required" doc:"Yearly amounts in the country's currency, each 0 or more; absent parts are 0."`
	Program        string     `json:"program" schema:"maxLen=64" doc:"Id of a special program of the same country (GET /api/v1/tax/programs?country=..) to apply, assuming the person qualifies."`
	DomesticIncome []string   `json:"domesticIncome" schema:"maxItems=6,enum=@taxIncomePart" doc:"With program: the income parts that arise in the country itself; the others are taken as foreign-source. Program rules cover foreign, domestic or all income. Default: none (all income foreign, as for someone who moves with their income)."`
	Filing         string     `json:"filing" schema:"enum=single|joint,default=single" doc:"single: one person's return. joint: a couple's joint return (US married filing jointly) on income plus partnerIncome, where the country (and region) models one: GET /api/v1/tax/countries says which; elsewhere each person is taxed alone, with a request each."`
	PartnerIncome  *taxIncome `json:"partnerIncome" doc:"With filing joint: the partner's yearly income, the same parts as income (absent: none). The return taxes the couple's combined income; the partner's wages and self-employment profit also count apart where a contribution has a ceiling per earner (US Social Security). Not allowed with filing single."`
	Age            int        `json:"age" schema:"min=0,max=130" doc:"The person's age at the end of the tax year, for age-dependent rules (the US additional standard deduction and deduction for seniors at 65; in Sweden, from 67, the förhöjt grundavdrag of those who had turned 66 when the year began). 0 or absent: unknown, taken as under every age threshold."`
	PartnerAge     int        `json:"partnerAge" schema:"min=0,max=130" doc:"With filing joint: the partner's age at the end of the tax year (0 or absent: unknown)."`
	Explain        bool       `json:"explain" doc:"true: add trace, the rules that fired."`
}

type taxCalcWork struct {
	req taxCalcRequest
	res tax.Result
	rg  tax.Regime
}

var taxCalcPool = sync.Pool{New: func() any { return &taxCalcWork{} }}

// system resolves country, year and region, or sends the 400 naming the
// field and returns nil.
func (t *Handlers) system(c *rest.Ctx, country string, year *int, region *string) *tax.System {
	sys, ok := t.taxes.ByCountry(country)
	if !ok {
		c.Fail("country", "no tax parameters for "+strconv.Quote(country)+"; supported: "+t.supported)
		return nil
	}
	if *year == 0 {
		*year = sys.Latest()
	} else if _, err := sys.Year(*year); err != nil {
		c.Fail("year", sys.Country+" supports the tax years "+joinInts(sys.Years()))
		return nil
	}
	if *region == "" {
		return sys
	}
	for _, r := range sys.Regions {
		if strings.EqualFold(r.Code, *region) {
			*region = r.Code
			if !sys.Covers(*year, r.Code) {
				c.Fail("region", sys.Country+" models region "+r.Code+" only in other tax years than "+strconv.Itoa(*year))
				return nil
			}
			return sys
		}
	}
	if len(sys.Regions) == 0 {
		c.Fail("region", sys.Country+" has no regions")
		return nil
	}
	codes := make([]string, len(sys.Regions))
	for i, r := range sys.Regions {
		codes[i] = r.Code
	}
	c.Fail("region", "unknown region "+strconv.Quote(*region)+" for "+sys.Country+"; known: "+strings.Join(codes, ", "))
	return nil
}

func joinInts(v []int) string {
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// defaultRegion taxes a request without a region where the country's
// income tax has a local part in the region its localTax names. It sends
// the 400 naming region and reports false when the year does not model
// that region. A joint return stays without a region where the year has
// a joint return but the region's rules say nothing of one: the region's
// tax would not apply to a couple.
func defaultRegion(c *rest.Ctx, req *taxCalcRequest, sys *tax.System) bool {
	def := sys.LocalTax.Region
	if req.Region != "" || def == "" {
		return true
	}
	if req.Filing == "joint" && sys.HasJoint(req.Year) && !sys.HasJointIn(req.Year, def) {
		return true
	}
	if !sys.Covers(req.Year, def) {
		c.Fail("region", sys.DefaultRegionMissing(req.Year))
		return false
	}
	req.Region = def
	return true
}

// program resolves a program id for sys, or sends the 400 and returns nil.
func (t *Handlers) program(c *rest.Ctx, path, id string, sys *tax.System) *taxProgram {
	tp := t.byID[id]
	switch {
	case tp == nil:
		c.Fail(path, "unknown program "+strconv.Quote(id)+"; GET /api/v1/tax/programs lists them")
	case tp.p.Country != sys.Country:
		c.Fail(path, id+" is a program of "+tp.p.Country+", not of "+sys.Country)
	case tp.offer.Why != "":
		c.Fail(path, id+" cannot be calculated: "+tp.offer.Why)
	default:
		return tp
	}
	return nil
}

// income is the request's return for the engine: the person's income, or on
// a joint return the couple's, with their ages. It sends the 400 naming the
// field and reports false when the filing does not fit the request or the
// country.
func income(c *rest.Ctx, req *taxCalcRequest, sys *tax.System) (tax.Income, bool) {
	in := req.Income.engine()
	in.Age = req.Age
	if req.Filing != "joint" {
		switch {
		case req.PartnerIncome != nil:
			c.Fail("partnerIncome", "partnerIncome needs filing joint; with filing single each person is taxed alone, with a request each")
		case req.PartnerAge != 0:
			c.Fail("partnerAge", "partnerAge needs filing joint")
		default:
			return in, true
		}
		return in, false
	}
	if !sys.HasJointIn(req.Year, req.Region) {
		where := sys.Country + " " + strconv.Itoa(req.Year)
		if req.Region != "" && sys.HasJoint(req.Year) {
			where += " in region " + req.Region
		}
		c.Fail("filing", where+" has no rules for a joint return; tax each person alone with filing single")
		return in, false
	}
	in.Joint, in.PartnerAge = true, req.PartnerAge
	if p := req.PartnerIncome; p != nil {
		in.Employment += p.Employment
		in.SelfEmployment += p.SelfEmployment
		in.Pension += p.Pension
		in.Interest += p.Interest
		in.Dividends += p.Dividends
		in.CapitalGains += p.CapitalGains
		in.PartnerEmployment, in.PartnerSelfEmployment = p.Employment, p.SelfEmployment
	}
	return in, true
}

func domesticMask(parts []string) (m [tax.NumParts]bool) {
	for _, name := range parts {
		m[partByName[name]] = true
	}
	return m
}

func (t *Handlers) Calculate(c *rest.Ctx) {
	w := taxCalcPool.Get().(*taxCalcWork)
	defer taxCalcPool.Put(w)
	req := &w.req
	if !rest.Decode(c, t.calcSchema, req) {
		return
	}
	sys := t.system(c, req.Country, &req.Year, &req.Region)
	if sys == nil || !defaultRegion(c, req, sys) {
		return
	}
	in, ok := income(c, req, sys)
	if !ok {
		return
	}
	if req.Program == "" {
		if err := tax.Calculate(sys, req.Year, &in, req.Region, &w.res); err != nil {
			c.Internal(err)
			return
		}
		writeTaxResult(c.Begin(), &w.res, nil, nil, traceOf(req.Explain, sys))
		c.Send(fasthttp.StatusOK)
		return
	}
	tp := t.program(c, "program", req.Program, sys)
	if tp == nil {
		return
	}
	domestic := domesticMask(req.DomesticIncome)
	tp.offer.Regime(&domestic, &w.rg)
	eff, err := tax.ApplyRegime(sys, req.Year, &in, req.Region, &w.rg, &w.res)
	if err != nil {
		c.Internal(err)
		return
	}
	writeTaxResult(c.Begin(), &w.res, tp, &eff, traceOf(req.Explain, sys))
	c.Send(fasthttp.StatusOK)
}

// traceOf is the system whose documents a trace cites when the request
// asks to explain, else nil: no trace.
func traceOf(explain bool, sys *tax.System) *tax.System {
	if explain {
		return sys
	}
	return nil
}

func writeTaxResult(w *jsonw.Writer, r *tax.Result, tp *taxProgram, eff *tax.RegimeEffect, trace *tax.System) {
	w.Begin()
	w.Key("country")
	w.String(r.Country)
	w.Key("year")
	w.Int(int64(r.Year))
	w.Key("currency")
	w.String(r.Currency)
	w.Key("region")
	w.StringOrNull(r.Region)
	w.Key("grossIncome")
	w.Fixed(r.GrossIncome, 2)
	w.Key("incomeTax")
	w.Fixed(r.IncomeTax, 2)
	w.Key("socialContributions")
	w.Fixed(r.SocialContributions, 2)
	w.Key("capitalTax")
	w.Fixed(r.CapitalTax, 2)
	if r.Region != "" {
		w.Key("regionalTax")
		w.Fixed(r.RegionalTax, 2)
	}
	w.Key("totalTax")
	w.Fixed(r.TotalTax, 2)
	w.Key("afterTaxIncome")
	w.Fixed(r.GrossIncome-r.TotalTax, 2)
	w.Key("effectiveRate")
	w.Fixed(r.EffectiveRate, 6)
	w.Key("marginalRate")
	w.Fixed(r.MarginalRate, 6)
	w.Key("marginalPart")
	w.String(r.MarginalPart.String())
	writeBreakdown(w, r)
	w.Key("truncated")
	w.Bool(r.Truncated)
	writeRuleTotals(w, r)
	writeProgram(w, r, tp, eff)
	if trace != nil {
		WriteTrace(w, trace, r)
	}
	w.End()
}

// writeBreakdown writes the result's lines, one per rule applied.
func writeBreakdown(w *jsonw.Writer, r *tax.Result) {
	w.Key("breakdown")
	w.BeginArray()
	for _, l := range r.Breakdown() {
		w.Begin()
		w.Key("rule")
		w.String(l.Rule)
		w.Key("kind")
		w.String(l.Kind.String())
		w.Key("category")
		w.String(l.Category.String())
		writeLine(w, &l)
		w.End()
	}
	w.EndArray()
}

// writeLine writes a breakdown line's label, layer, base, rate and amount.
func writeLine(w *jsonw.Writer, l *tax.Line) {
	w.Key("label")
	w.String(l.Label)
	if l.Layer != "" {
		w.Key("layer")
		w.String(l.Layer)
	}
	w.Key("base")
	w.Fixed(l.Base, 2)
	w.Key("rate")
	w.Fixed(l.Rate, 6)
	w.Key("amount")
	w.Fixed(l.Amount, 2)
}

// writeRuleTotals writes the totals per rule.
func writeRuleTotals(w *jsonw.Writer, r *tax.Result) {
	w.Key("rules")
	w.BeginArray()
	for _, x := range r.RuleTotals() {
		w.Begin()
		w.Key("rule")
		w.String(x.Rule)
		w.Key("label")
		w.String(x.Label)
		w.Key("category")
		w.String(x.Category.String())
		w.Key("taxable")
		w.Fixed(x.Taxable, 2)
		w.Key("amount")
		w.Fixed(x.Amount, 2)
		w.End()
	}
	w.EndArray()
}

// writeProgram writes the special regime applied and what it saved, or
// null.
func writeProgram(w *jsonw.Writer, r *tax.Result, tp *taxProgram, eff *tax.RegimeEffect) {
	w.Key("program")
	if tp == nil {
		w.Null()
	} else {
		w.Begin()
		w.Key("id")
		w.String(tp.p.ID)
		w.Key("name")
		w.String(tp.p.Name)
		w.Key("status")
		w.String(string(tp.p.Status))
		w.Key("totalTaxWithout")
		w.Fixed(eff.Without, 2)
		w.Key("saving")
		w.Fixed(eff.Without-r.TotalTax, 2)
		w.Key("relievedIncome")
		w.Fixed(eff.Relieved, 2)
		w.Key("programTax")
		w.Fixed(eff.Tax, 2)
		writeStrings(w, "eligibility", tp.p.Eligibility)
		writeStrings(w, "conditions", tp.conditions)
		w.End()
	}
}
