package handlers

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// The /tax routes (issue #7): the countries the tax engine covers, one
// country's taxes on an income profile (optionally under a special
// program), the special programs, and a ranking of countries and programs
// by after-tax income (taxopt.go).
//
// Everything that depends only on the embedded datasets (the countries
// list, each program's JSON, each program's rules in engine form) is built
// once when the routes are made; a request only reads it.

// taxAPI holds the precomputed state of the /tax routes.
type taxAPI struct {
	s         *Server
	countries []byte // the JSON array of GET /tax/countries
	programs  []*taxProgram
	byID      map[string]*taxProgram
	byCountry map[string][]*taxProgram
	offers    map[string][]*tax.Offer // byCountry's offers, for optimize
	supported string                  // "DE, FR, ..." for error messages
	// eligibility of the normal regime of a country one moves to
	residence map[string][]string
	fx        rates
	fxAsOf    string
}

// rates is what the tax routes need of the exchange-rate table (data/fx).
type rates interface {
	Convert(amount float64, from, to string) (float64, bool)
	AsOf() string
}

// taxProgram is one special program with what the engine needs of it.
type taxProgram struct {
	p    program.Program
	json []byte // its API object
	// offer is the program in engine form; offer.Why says why it cannot be
	// calculated.
	offer      tax.Offer
	conditions []string // the rules' conditions the person must meet
}

var partByName = func() map[string]tax.Part {
	m := map[string]tax.Part{}
	for p := tax.Part(0); p < tax.NumParts; p++ {
		m[p.String()] = p
	}
	return m
}()

// newTaxProgram converts a program's rules for the engine.
func newTaxProgram(p program.Program, sys *tax.System, fx rates) *taxProgram {
	tp := &taxProgram{p: p, conditions: []string{}}
	for _, r := range p.Rules {
		if r.Condition != "" {
			tp.conditions = append(tp.conditions, r.Condition)
		}
	}
	tp.offer = tp.p.Offer(sys, fx)
	return tp
}

// newTaxAPI prepares the routes' state; fx converts program amounts and
// optimize's incomes (nil: no conversions, and optimize is not served).
func newTaxAPI(s *Server, fx rates) *taxAPI {
	t := &taxAPI{s: s, byID: map[string]*taxProgram{}, byCountry: map[string][]*taxProgram{}, offers: map[string][]*tax.Offer{}, residence: map[string][]string{}, fx: fx}
	if fx != nil {
		t.fxAsOf = fx.AsOf()
	}
	t.supported = strings.Join(s.taxes.Codes(), ", ")
	ids := map[string][]string{}
	for _, p := range s.programs.All() {
		sys, _ := s.taxes.ByCountry(p.Country)
		tp := newTaxProgram(p, sys, fx)
		b, err := json.MarshalNoEscape(programView{Program: &tp.p, Calculable: tp.offer.Why == "", CalculableNote: tp.offer.Why})
		if err != nil {
			panic("cannot encode program " + p.ID + ": " + err.Error()) // static data, checked by tests
		}
		tp.json = b
		t.programs = append(t.programs, tp)
		t.byID[p.ID] = tp
		t.byCountry[p.Country] = append(t.byCountry[p.Country], tp)
		t.offers[p.Country] = append(t.offers[p.Country], &tp.offer)
		ids[p.Country] = append(ids[p.Country], p.ID)
	}
	w := jsonw.Writer{}
	w.BeginArray()
	for _, sys := range s.taxes.Countries() {
		writeCountry(&w, sys, ids[sys.Country])
		t.residence[sys.Country] = []string{"Tax residence in " + sys.Name + " under its domestic rules, and the right to live there."}
	}
	w.EndArray()
	t.countries = w.B
	return t
}

// programView is a program as the API shows it.
type programView struct {
	*program.Program
	Calculable     bool   `json:"calculable"`
	CalculableNote string `json:"calculableNote,omitempty"`
}

func writeStrings(w *jsonw.Writer, key string, list []string) {
	w.Key(key)
	w.BeginArray()
	for _, s := range list {
		w.String(s)
	}
	w.EndArray()
}

func writeCountry(w *jsonw.Writer, sys *tax.System, programs []string) {
	w.Begin()
	w.Key("code")
	w.String(sys.Country)
	w.Key("name")
	w.String(sys.Name)
	w.Key("currency")
	w.String(sys.Currency)
	w.Key("years")
	w.BeginArray()
	for _, y := range sys.Years() {
		w.Int(int64(y))
	}
	w.EndArray()
	w.Key("latestYear")
	w.Int(int64(sys.Latest()))
	w.Key("regions")
	w.BeginArray()
	for _, r := range sys.Regions {
		w.Begin()
		w.Key("code")
		w.String(r.Code)
		w.Key("name")
		w.String(r.Name)
		w.End()
	}
	w.EndArray()
	writeLocalTax(w, sys)
	w.Key("modelled")
	w.Begin()
	notes := slices.Clone(sys.Notes)
	for _, y := range sys.Years() {
		yr, _ := sys.Year(y)
		for _, n := range yr.Notes {
			notes = append(notes, strconv.Itoa(y)+": "+n)
		}
	}
	writeStrings(w, "notes", notes)
	w.Key("rules")
	w.BeginArray()
	latest, _ := sys.Year(sys.Latest())
	for i := range latest.Rules {
		r := &latest.Rules[i]
		w.Begin()
		w.Key("id")
		w.String(r.ID)
		w.Key("label")
		w.String(r.Label)
		w.Key("category")
		w.String(r.Category.String())
		writeStrings(w, "regions", nonNil(r.Regions))
		writeStrings(w, "exceptRegions", nonNil(r.ExceptRegions))
		w.End()
	}
	w.EndArray()
	w.End()
	writeStrings(w, "notModelled", nonNil(sys.NotModelled))
	writeStrings(w, "programs", nonNil(programs))
	w.End()
}

// writeLocalTax writes how comparisons treat the country's sub-national
// income tax: localTax, null when the country file says nothing.
func writeLocalTax(w *jsonw.Writer, sys *tax.System) {
	w.Key("localTax")
	lt := &sys.LocalTax
	if lt.Note == "" {
		w.Null()
		return
	}
	w.Begin()
	w.Key("region")
	w.StringOrNull(lt.Region)
	w.Key("note")
	w.String(lt.Note)
	w.End()
}

// GET /tax/countries

func (t *taxAPI) listCountries(c *Ctx) {
	c.Begin().Raw(t.countries)
	n := len(t.s.taxes.Codes())
	c.SendList(fasthttp.StatusOK, n, n, 0)
}

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
	Country        string    `json:"country" schema:"required,minLen=2,maxLen=2" doc:"ISO 3166-1 alpha-2 code of a country of GET /api/v1/tax/countries (any case)."`
	Year           int       `json:"year" schema:"min=1900,max=2200" doc:"Tax year: the calendar year it begins in (UK 2024 = 2024/25). Default: the country's latest."`
	Region         string    `json:"region" schema:"maxLen=16" doc:"A region code of the country (GET /api/v1/tax/countries): adds sub-national tax, on its own lines and in regionalTax."`
	Income         taxIncome `json:"income" schema:"required" doc:"Yearly amounts in the country's currency, each 0 or more; absent parts are 0."`
	Program        string    `json:"program" schema:"maxLen=64" doc:"Id of a special program of the same country (GET /api/v1/tax/programs?country=..) to apply, assuming the person qualifies."`
	DomesticIncome []string  `json:"domesticIncome" schema:"maxItems=6,enum=@taxIncomePart" doc:"With program: the income parts that arise in the country itself; the others are taken as foreign-source. Program rules cover foreign, domestic or all income. Default: none (all income foreign, as for someone who moves with their income)."`
}

var taxCalcSchema = func() *schema.Schema[taxCalcRequest] {
	_ = taxEnums
	return schema.New[taxCalcRequest]()
}()

type taxCalcWork struct {
	req taxCalcRequest
	res tax.Result
	rg  tax.Regime
}

var taxCalcPool = sync.Pool{New: func() any { return &taxCalcWork{} }}

// system resolves country, year and region, or sends the 400 naming the
// field and returns nil.
func (t *taxAPI) system(c *Ctx, country string, year *int, region *string) *tax.System {
	sys, ok := t.s.taxes.ByCountry(country)
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

// program resolves a program id for sys, or sends the 400 and returns nil.
func (t *taxAPI) program(c *Ctx, path, id string, sys *tax.System) *taxProgram {
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

func domesticMask(parts []string) (m [tax.NumParts]bool) {
	for _, name := range parts {
		m[partByName[name]] = true
	}
	return m
}

func (t *taxAPI) calculate(c *Ctx) {
	w := taxCalcPool.Get().(*taxCalcWork)
	defer taxCalcPool.Put(w)
	req := &w.req
	if !decode(c, taxCalcSchema, req) {
		return
	}
	sys := t.system(c, req.Country, &req.Year, &req.Region)
	if sys == nil {
		return
	}
	in := req.Income.engine()
	if req.Program == "" {
		if err := tax.Calculate(sys, req.Year, &in, req.Region, &w.res); err != nil {
			c.Internal(err)
			return
		}
		writeTaxResult(c.Begin(), &w.res, nil, nil)
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
	writeTaxResult(c.Begin(), &w.res, tp, &eff)
	c.Send(fasthttp.StatusOK)
}

func writeTaxResult(w *jsonw.Writer, r *tax.Result, tp *taxProgram, eff *tax.RegimeEffect) {
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
		w.End()
	}
	w.EndArray()
	w.Key("truncated")
	w.Bool(r.Truncated)
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
	w.End()
}

// GET /tax/programs, GET /tax/programs/{id}

func (t *taxAPI) listPrograms(c *Ctx) {
	args := c.RC.QueryArgs()
	country := args.Peek("country")
	if country != nil && !isCountryCode(country) {
		c.Fail("country", "must be an ISO 3166-1 alpha-2 code such as PT")
		return
	}
	var status program.Status
	if v := args.Peek("status"); v != nil {
		for _, st := range program.Statuses {
			if string(st) == string(v) {
				status = st
			}
		}
		if status == "" {
			c.Fail("status", "must be one of: open, closed, changed")
			return
		}
	}
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	w := c.Begin()
	w.BeginArray()
	total := 0
	for _, tp := range t.programs {
		if country != nil && !strings.EqualFold(tp.p.Country, b2s(country)) || status != "" && tp.p.Status != status {
			continue
		}
		if total >= offset && total < offset+limit {
			w.Raw(tp.json)
		}
		total++
	}
	w.EndArray()
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

func isCountryCode(b []byte) bool {
	if len(b) != 2 {
		return false
	}
	for _, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
			return false
		}
	}
	return true
}

func (t *taxAPI) getProgram(c *Ctx) {
	tp := t.byID[b2s(c.Param("id"))]
	if tp == nil {
		c.Error(CodeNotFound, "no such program")
		return
	}
	c.Begin().Raw(tp.json)
	c.Send(fasthttp.StatusOK)
}

// taxRoutes are the /tax routes (issue #7).
func taxRoutes(s *Server) []*rest.Route {
	t := newTaxAPI(s, s.fx)
	return []*rest.Route{
		rest.Get(v1+"/tax/countries", rest.User, t.listCountries, &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Countries and tax years the calculator covers",
			Desc: "Every country with tax parameters, sorted by code: its currency, supported tax years (a year is the calendar year the tax year begins in), " +
				"regions with their own tax, what the calculation models (its assumptions and the rules it computes) and, honestly, what it leaves out, " +
				"and the ids of its special programs. The whole list in one page: meta.limit is the total.",
			Data: taxCountrySchema}),
		rest.Post(v1+"/tax/calculate", rest.User, t.calculate, &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "One country's taxes on an income profile",
			Desc:    taxCalcDesc,
			Body:    taxCalcSchema,
			Data:    taxCalcResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country, year, region or program is not one the tax tables know (the program must be of the same country and calculable); "+
				"details name the field and say what is valid")}}),
		rest.Get(v1+"/tax/programs", rest.User, t.listPrograms, &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Special tax programs",
			Desc: "Expat, retiree and new-resident regimes (flat pensioner regimes, lump-sum regimes, impatriate reliefs, non-dom and territorial rules), sorted by id, " +
				"each with its eligibility, status, dated changes, sources and the machine-readable rules POST /api/v1/tax/calculate applies. " +
				"`calculable` says whether the calculator can apply it (its country has tax parameters and its rules convert).",
			Query: append([]rest.Param{
				rest.Q("country", "string", "Only this country's programs (ISO 3166-1 alpha-2, any case)."),
				rest.Q("status", "string", "Only programs with this status: open, closed or changed."),
			}, rest.PageQuery...),
			Data: programSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country is not a two-letter code, status is not open, closed or changed, or limit/offset is out of range")}}),
		rest.Get(v1+"/tax/programs/{id}", rest.User, t.getProgram, &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "One special tax program",
			Desc:    "A program by id, such as it-pensioner-7.",
			Data:    programSchema,
			Errs:    []rest.ErrDoc{rest.Err(CodeNotFound, "no program with this id")}}),
		rest.Post(v1+"/tax/optimize", rest.Pro, t.optimize, &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "Rank countries and programs by after-tax income (pro)",
			Desc:    taxOptDesc,
			Body:    taxOptSchema,
			Data:    taxOptResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country or a candidate (details name candidates[i]) is not in the tax tables, a candidate names a region its country does not have, "+
				"a candidate repeats another, or the income is all 0")}}),
	}
}
