// Package taxes serves the /tax routes: the countries the tax engine covers, one
// country's taxes on an income profile (optionally under a special
// program), the special programs, and a ranking of countries and programs
// by after-tax income (Optimize, over compute/tax's optimiser).
//
// Everything that depends only on the embedded datasets (the countries
// list, each program's JSON, each program's rules in engine form) is built
// once when the routes are made; a request only reads it.
package taxes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/data/taxtable"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Handlers holds the precomputed state of the /tax routes.
type Handlers struct {
	taxes     *taxtable.Table
	countries *rest.Static // the whole response to GET /tax/countries
	// programsPage is the whole response to GET /tax/programs without a query.
	programsPage *rest.Static
	programs     []*taxProgram
	byID         map[string]*taxProgram
	byCountry    map[string][]*taxProgram
	offers       map[string][]*tax.Offer // byCountry's offers, for optimize
	supported    string                  // "DE, FR, ..." for error messages
	// eligibility of the normal regime of a country one moves to
	residence map[string][]string
	fx        rates
	fxAsOf    string
	// Gate bounds the optimisations running at once (nil: no bound); a
	// request past it is refused with 503.
	Gate *rest.Gate

	calcSchema         *schema.Schema[taxCalcRequest]
	optSchema          *schema.Schema[taxOptRequest]
	countrySchema      rest.Schema
	calcResponseSchema rest.Schema
	programSchema      rest.Schema
	optResponseSchema  rest.Schema

	// Docs describes the routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	Countries, Calculate, Programs, Program, Optimize *rest.Doc
}

// rates is what the tax routes need of the exchange-rate table (data/fx).
type rates interface {
	Convert(amount float64, from, to string) (float64, bool)
	AsOf() string
}

// taxProgram is one special program with what the engine needs of it.
type taxProgram struct {
	p    program.Program
	json []byte       // its API object
	page *rest.Static // the whole response to GET /tax/programs/{id}
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

// New prepares the routes' state; fx converts program amounts and
// optimize's incomes. v must define the tax and program enums.
func New(v *schema.Vocabulary, taxes *taxtable.Table, programs *program.Table, fx rates) (*Handlers, error) {
	t := &Handlers{taxes: taxes, byID: map[string]*taxProgram{}, byCountry: map[string][]*taxProgram{}, offers: map[string][]*tax.Offer{}, residence: map[string][]string{}, fx: fx}
	if fx != nil {
		t.fxAsOf = fx.AsOf()
	}
	if err := t.compile(v); err != nil {
		return nil, err
	}
	t.supported = strings.Join(taxes.Codes(), ", ")
	ids := map[string][]string{}
	for _, p := range programs.All() {
		sys, _ := taxes.ByCountry(p.Country)
		tp := newTaxProgram(p, sys, fx)
		b, err := json.Marshal(programView{Program: &tp.p, Calculable: tp.offer.Why == "", CalculableNote: tp.offer.Why})
		if err != nil {
			return nil, fmt.Errorf("cannot encode program %q: %w", p.ID, err)
		}
		tp.json = b
		tp.page = rest.NewStatic(slices.Concat([]byte(`{"success":true,"data":`), b, []byte(`}`)))
		t.programs = append(t.programs, tp)
		t.byID[p.ID] = tp
		t.byCountry[p.Country] = append(t.byCountry[p.Country], tp)
		t.offers[p.Country] = append(t.offers[p.Country], &tp.offer)
		ids[p.Country] = append(ids[p.Country], p.ID)
	}
	w := jsonw.Writer{}
	w.BeginArray()
	for _, sys := range taxes.Countries() {
		writeCountry(&w, sys, ids[sys.Country])
		t.residence[sys.Country] = []string{"Tax residence in " + sys.Name + " under its domestic rules, and the right to live there."}
	}
	w.EndArray()
	n := len(taxes.Codes())
	t.countries = rest.NewStatic(append(rest.AppendMeta(slices.Concat([]byte(`{"success":true,"data":`), w.B), n, n, 0), '}'))
	t.programsPage = rest.NewStatic(t.firstProgramsPage())
	t.Docs = t.docs()
	return t, nil
}

// compile compiles the routes' declarations against v.
func (t *Handlers) compile(v *schema.Vocabulary) (err error) {
	if t.calcSchema, err = schema.Compile[taxCalcRequest](v); err != nil {
		return err
	}
	if t.optSchema, err = schema.Compile[taxOptRequest](v); err != nil {
		return err
	}
	if t.countrySchema, err = schema.CompileDoc[taxCountryDoc](v); err != nil {
		return err
	}
	if t.calcResponseSchema, err = schema.CompileDoc[taxCalcDoc](v); err != nil {
		return err
	}
	if t.programSchema, err = schema.CompileDoc[programDoc](v); err != nil {
		return err
	}
	t.optResponseSchema, err = schema.CompileDoc[taxOptDoc](v)
	return err
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
		writeStrings(w, "regions", r.Regions)
		writeStrings(w, "exceptRegions", r.ExceptRegions)
		w.End()
	}
	w.EndArray()
	w.End()
	writeStrings(w, "notModelled", sys.NotModelled)
	writeStrings(w, "programs", programs)
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

func (t *Handlers) Countries(c *rest.Ctx) {
	c.SendStatic(t.countries)
}

// firstProgramsPage is the response to GET /tax/programs without a query:
// the first DefaultLimit programs.
func (t *Handlers) firstProgramsPage() []byte {
	var w jsonw.Writer
	w.B = append(w.B, `{"success":true,"data":`...)
	w.BeginArray()
	for _, tp := range t.programs[:min(rest.DefaultLimit, len(t.programs))] {
		w.Raw(tp.json)
	}
	w.EndArray()
	return append(rest.AppendMeta(w.B, len(t.programs), rest.DefaultLimit, 0), '}')
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

func (t *Handlers) Programs(c *rest.Ctx) {
	args := c.RC.QueryArgs()
	if args.Len() == 0 {
		c.SendStatic(t.programsPage)
		return
	}
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
		if country != nil && !strings.EqualFold(tp.p.Country, bytesconv.String(country)) || status != "" && tp.p.Status != status {
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

// ProgramID is the grammar of a program id, the {id} of /tax/programs/{id}.
var ProgramID = rest.NewPathParam("id", program.IDPattern, program.MaxIDLen, "must be a program id: the country code and a slug, such as pt-nhr")

func (t *Handlers) Program(c *rest.Ctx) {
	tp := t.byID[bytesconv.String(c.Param("id"))]
	if tp == nil {
		c.Error(errcode.NotFound, "no such program")
		return
	}
	c.SendStatic(tp.page)
}

// docs describes the /tax routes.
func (t *Handlers) docs() Docs {
	return Docs{
		Countries: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Countries and tax years the calculator covers",
			Desc: "Every country with tax parameters, sorted by code: its currency, supported tax years (a year is the calendar year the tax year begins in), " +
				"regions with their own tax, what the calculation models (its assumptions and the rules it computes) and, honestly, what it leaves out, " +
				"and the ids of its special programs. The whole list in one page: meta.limit is the total. " +
				"It carries a strong ETag; If-None-Match naming it answers 304.",
			NotModified: true,
			Data:        t.countrySchema},
		Calculate: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "One country's taxes on an income profile",
			Desc:    taxCalcDesc,
			Body:    t.calcSchema,
			Data:    t.calcResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country, year, region or program is not one the tax tables know (the program must be of the same country and calculable); "+
				"details name the field and say what is valid")}},
		Programs: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Special tax programs",
			Desc: "Expat, retiree and new-resident regimes (flat pensioner regimes, lump-sum regimes, impatriate reliefs, non-dom and territorial rules), sorted by id, " +
				"each with its eligibility, status, dated changes, sources and the machine-readable rules POST /api/v1/tax/calculate applies. " +
				"`calculable` says whether the calculator can apply it (its country has tax parameters and its rules convert). " +
				"Without a query the page carries a strong ETag and If-None-Match naming it answers 304.",
			NotModified: true,
			Query: append([]rest.Param{
				rest.Q("country", "string", "Only this country's programs (ISO 3166-1 alpha-2, any case)."),
				rest.Q("status", "string", "Only programs with this status: open, closed or changed."),
			}, rest.PageQuery...),
			Data: t.programSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country is not a two-letter code, status is not open, closed or changed, or limit/offset is out of range")}},
		Program: &rest.Doc{
			Tag:         "tax",
			Status:      200,
			Summary:     "One special tax program",
			Desc:        "A program by id, such as it-pensioner-7. It carries a strong ETag; If-None-Match naming it answers 304.",
			Data:        t.programSchema,
			NotModified: true,
			Errs:        []rest.ErrDoc{rest.Err(errcode.NotFound, "no program with this id")}},
		Optimize: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "Rank countries and programs by after-tax income (pro)",
			Desc:    taxOptDesc,
			Body:    t.optSchema,
			Data:    t.optResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country or a candidate (details name candidates[i]) is not in the tax tables, a candidate names a region its country does not have, "+
				"a candidate repeats another, or the income is all 0"),
				rest.Err(errcode.Unavailable, "as many optimisations as the server runs at once are running; retryAfter and Retry-After say when to retry (nothing is queued)")}},
	}
}

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
	if !t.Gate.Enter(c) {
		return
	}
	defer t.Gate.Leave()
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

// The /tax responses, declared for the OpenAPI document; the writers of
// the handlers above produce them, and tests validate real responses
// against these declarations.

type taxRegionDoc struct {
	Code string `json:"code" schema:"required" doc:"The value for the region field of POST /api/v1/tax/calculate."`
	Name string `json:"name" schema:"required"`
}

type taxRuleInfoDoc struct {
	ID            string   `json:"id" schema:"required"`
	Label         string   `json:"label" schema:"required"`
	Category      string   `json:"category" schema:"required,enum=@taxCategory"`
	Regions       []string `json:"regions" schema:"required" doc:"The rule applies only in these regions (empty: everywhere)."`
	ExceptRegions []string `json:"exceptRegions" schema:"required" doc:"The rule does not apply in these regions."`
}

type taxLocalTaxDoc struct {
	Region *string `json:"region" schema:"required,nullable" doc:"The region (see regions) whose sub-national tax POST /api/v1/tax/optimize counts for the country; null: none is counted."`
	Note   string  `json:"note" schema:"required" doc:"What comparisons count and leave out of the country's sub-national income tax."`
}

type taxModelledDoc struct {
	Notes []string         `json:"notes" schema:"required" doc:"What the calculation assumes (household, schemes, treatment of each income part); year-specific notes start with the year."`
	Rules []taxRuleInfoDoc `json:"rules" schema:"required" doc:"The taxes, contributions and levies computed for the latest year, in order."`
}

type taxCountryDoc struct {
	Code        string          `json:"code" schema:"required" doc:"ISO 3166-1 alpha-2."`
	Name        string          `json:"name" schema:"required"`
	Currency    string          `json:"currency" schema:"required" doc:"ISO 4217: every amount of the country's calculations."`
	Years       []int           `json:"years" schema:"required" doc:"Supported tax years, ascending; a year is the calendar year the tax year begins in."`
	LatestYear  int             `json:"latestYear" schema:"required" doc:"The default year of POST /api/v1/tax/calculate."`
	Regions     []taxRegionDoc  `json:"regions" schema:"required" doc:"Regions with their own sub-national tax; empty when none is modelled."`
	LocalTax    *taxLocalTaxDoc `json:"localTax" schema:"required,nullable" doc:"How POST /api/v1/tax/optimize treats sub-national income tax; null where the country has none or it needs no comment."`
	Modelled    taxModelledDoc  `json:"modelled" schema:"required"`
	NotModelled []string        `json:"notModelled" schema:"required" doc:"What the calculation leaves out."`
	Programs    []string        `json:"programs" schema:"required" doc:"Ids of the country's special programs (GET /api/v1/tax/programs/{id})."`
}

type taxLineDoc struct {
	Rule     string  `json:"rule" schema:"required" doc:"Id of the rule (see GET /api/v1/tax/countries) or of the program the line belongs to."`
	Kind     string  `json:"kind" schema:"required,enum=@taxLineKind" doc:"band: tax on one bracket (amount is the tax); deduction, nilRate: an allowance taken from the base or charged at 0% (amount is the amount allowed); relief, credit: a reduction of the tax (amount is negative); program: an effect of the special program (base is the income it takes out of the normal rules, amount its own tax on it)."`
	Category string  `json:"category" schema:"required,enum=@taxCategory" doc:"The result field the rule feeds: income (incomeTax), social (socialContributions), capital (capitalTax), regional (regionalTax)."`
	Label    string  `json:"label" schema:"required"`
	Layer    string  `json:"layer,omitempty" doc:"The slice of income a band works on, where income is stacked (savings or dividends on top of other income)."`
	Base     float64 `json:"base" schema:"required"`
	Rate     float64 `json:"rate" schema:"required" doc:"A fraction; the average rate for a band given by a statutory formula; the exempt fraction for a partly exempt program line."`
	Amount   float64 `json:"amount" schema:"required"`
}

type taxRuleTotalDoc struct {
	Rule     string  `json:"rule" schema:"required"`
	Label    string  `json:"label" schema:"required"`
	Category string  `json:"category" schema:"required,enum=@taxCategory"`
	Taxable  float64 `json:"taxable" schema:"required" doc:"The rule's base after deductions (for a program: the income it takes out of the normal rules)."`
	Amount   float64 `json:"amount" schema:"required"`
}

type taxProgramEffectDoc struct {
	ID              string   `json:"id" schema:"required"`
	Name            string   `json:"name" schema:"required"`
	Status          string   `json:"status" schema:"required,enum=open|closed|changed"`
	TotalTaxWithout float64  `json:"totalTaxWithout" schema:"required" doc:"totalTax under the normal rules alone."`
	Saving          float64  `json:"saving" schema:"required" doc:"totalTaxWithout - totalTax; negative when the program costs more (a lump sum above the normal tax)."`
	RelievedIncome  float64  `json:"relievedIncome" schema:"required" doc:"Income the program takes out of the normal rules."`
	ProgramTax      float64  `json:"programTax" schema:"required" doc:"The program's own tax (flat rates, lump sum, minimum top-up), included in incomeTax."`
	Eligibility     []string `json:"eligibility" schema:"required" doc:"Who qualifies: the calculation assumes the person does."`
	Conditions      []string `json:"conditions" schema:"required" doc:"Conditions of the program's rules that the calculation cannot check."`
}

type taxCalcDoc struct {
	Country             string               `json:"country" schema:"required"`
	Year                int                  `json:"year" schema:"required"`
	Currency            string               `json:"currency" schema:"required" doc:"ISO 4217 currency of every amount."`
	Region              *string              `json:"region" schema:"required,nullable"`
	GrossIncome         float64              `json:"grossIncome" schema:"required"`
	IncomeTax           float64              `json:"incomeTax" schema:"required" doc:"National (US: federal) income tax after the credits every resident single person gets, plus a program's own tax."`
	SocialContributions float64              `json:"socialContributions" schema:"required" doc:"Employee social insurance and earner levies."`
	CapitalTax          float64              `json:"capitalTax" schema:"required" doc:"Tax on capital income taxed apart from other income."`
	RegionalTax         float64              `json:"regionalTax,omitempty" doc:"Sub-national tax; present when a region was given."`
	TotalTax            float64              `json:"totalTax" schema:"required" doc:"The sum of the four."`
	AfterTaxIncome      float64              `json:"afterTaxIncome" schema:"required" doc:"grossIncome - totalTax."`
	EffectiveRate       float64              `json:"effectiveRate" schema:"required" doc:"totalTax / grossIncome (0 without income)."`
	MarginalRate        float64              `json:"marginalRate" schema:"required" doc:"Extra total tax per unit of extra income in marginalPart."`
	MarginalPart        string               `json:"marginalPart" schema:"required,enum=@taxIncomePart" doc:"The largest income part."`
	Breakdown           []taxLineDoc         `json:"breakdown" schema:"required" doc:"Line by line: a program's lines first, then each rule's deductions, bands, reliefs and credits."`
	Truncated           bool                 `json:"truncated" schema:"required" doc:"The breakdown was cut at its line limit; the totals are complete."`
	Rules               []taxRuleTotalDoc    `json:"rules" schema:"required" doc:"Each rule's total, in order."`
	Program             *taxProgramEffectDoc `json:"program" schema:"required,nullable" doc:"What the program changed; null without one."`
}

// Programs, as data/program declares them.

type programMoneyDoc struct {
	Amount   float64 `json:"amount" schema:"required"`
	Currency string  `json:"currency" schema:"required"`
}

type programAppliesToDoc struct {
	Incomes []string `json:"incomes" schema:"required,enum=@taxIncomePart"`
	Scope   string   `json:"scope" schema:"required,enum=@programScope"`
}

type programChangeDoc struct {
	Date        string `json:"date" schema:"required" doc:"YYYY, YYYY-MM or YYYY-MM-DD."`
	Description string `json:"description" schema:"required"`
}

type programSourceDoc struct {
	Publisher string `json:"publisher" schema:"required"`
	Title     string `json:"title" schema:"required"`
	Reference string `json:"reference,omitempty" doc:"The legal text or section."`
	Year      int    `json:"year" schema:"required"`
	URL       string `json:"url,omitempty"`
}

type programRuleDoc struct {
	Type        string   `json:"type" schema:"required,enum=@programRuleType" doc:"flat: the covered income is taxed at rate instead of the normal rules (up to incomeCap); exempt: not taxed; partialExempt: fraction of the covered income between incomeFloor and incomeCap is exempt, at most reliefCap; lumpSum: amount a year replaces the tax on the covered income; minimumTax: the program's tax is at least amount."`
	Rate        float64  `json:"rate,omitempty"`
	Fraction    float64  `json:"fraction,omitempty"`
	Amount      float64  `json:"amount,omitempty"`
	Currency    string   `json:"currency,omitempty" doc:"Of amount, incomeFloor, incomeCap and reliefCap."`
	IncomeFloor float64  `json:"incomeFloor,omitempty"`
	IncomeCap   float64  `json:"incomeCap,omitempty"`
	ReliefCap   float64  `json:"reliefCap,omitempty"`
	Incomes     []string `json:"incomes" schema:"required,enum=@taxIncomePart"`
	Scope       string   `json:"scope" schema:"required,enum=@programScope" doc:"Income from abroad (foreign), from the country itself (domestic) or both (all)."`
	Condition   string   `json:"condition,omitempty" doc:"A qualification the calculator cannot check."`
}

type programDoc struct {
	ID             string              `json:"id" schema:"required"`
	Country        string              `json:"country" schema:"required" doc:"ISO 3166-1 alpha-2."`
	Name           string              `json:"name" schema:"required"`
	Summary        string              `json:"summary" schema:"required"`
	Kind           string              `json:"kind" schema:"required,enum=@programKind"`
	Rate           *float64            `json:"rate" schema:"required,nullable" doc:"The single rate of the regime where one applies (a fraction), else null."`
	LumpSum        *programMoneyDoc    `json:"lumpSum" schema:"required,nullable" doc:"The yearly amount of a lump-sum regime, else null."`
	DurationYears  *int                `json:"durationYears" schema:"required,nullable" doc:"Years the regime lasts for a person; null when it has no fixed length."`
	Eligibility    []string            `json:"eligibility" schema:"required"`
	AppliesTo      programAppliesToDoc `json:"appliesTo" schema:"required"`
	Status         string              `json:"status" schema:"required,enum=open|closed|changed" doc:"open: admits new entrants; changed: admits them, on recently changed rules (see changes); closed: only people already in it keep it."`
	StatusAsOf     string              `json:"statusAsOf" schema:"required" doc:"The date (YYYY-MM-DD) the status was last checked against the authority's rules."`
	Changes        []programChangeDoc  `json:"changes" schema:"required"`
	Sources        []programSourceDoc  `json:"sources" schema:"required"`
	Rules          []programRuleDoc    `json:"rules" schema:"required" doc:"The machine-readable effects POST /api/v1/tax/calculate applies with program."`
	Notes          string              `json:"notes,omitempty" doc:"What could not be verified."`
	Calculable     bool                `json:"calculable" schema:"required" doc:"POST /api/v1/tax/calculate can apply it: its country has tax parameters and its rules convert."`
	CalculableNote string              `json:"calculableNote,omitempty" doc:"Why it cannot be calculated."`
}

// Optimize.

type taxOptProgramDoc struct {
	ID            string `json:"id" schema:"required"`
	Name          string `json:"name" schema:"required"`
	Kind          string `json:"kind" schema:"required,enum=@programKind"`
	Status        string `json:"status" schema:"required,enum=open|changed" doc:"Closed programs are not suggested."`
	DurationYears *int   `json:"durationYears" schema:"required,nullable" doc:"How long the regime lasts; null when it has no fixed length."`
}

type taxOptionDoc struct {
	Rank              int               `json:"rank,omitempty" doc:"1 is the best; absent on current."`
	Country           string            `json:"country" schema:"required"`
	Name              string            `json:"name" schema:"required"`
	Currency          string            `json:"currency" schema:"required" doc:"Of grossIncome, totalTax, afterTaxIncome, fiNumber and fiWithdrawal."`
	Year              int               `json:"year" schema:"required" doc:"The tax year compared."`
	LocalTax          *taxLocalTaxDoc   `json:"localTax" schema:"required,nullable" doc:"Which region's sub-national income tax totalTax counts, and what it leaves out (as in GET /api/v1/tax/countries)."`
	Program           *taxOptProgramDoc `json:"program" schema:"required,nullable" doc:"The special program; null for the country's normal rules."`
	GrossIncome       float64           `json:"grossIncome" schema:"required" doc:"The income converted to the country's currency."`
	TotalTax          float64           `json:"totalTax" schema:"required"`
	AfterTaxIncome    float64           `json:"afterTaxIncome" schema:"required"`
	EffectiveRate     float64           `json:"effectiveRate" schema:"required"`
	GrossIncomeUSD    float64           `json:"grossIncomeUSD" schema:"required"`
	TotalTaxUSD       float64           `json:"totalTaxUSD" schema:"required"`
	AfterTaxIncomeUSD float64           `json:"afterTaxIncomeUSD" schema:"required" doc:"What the ranking sorts on."`
	GainUSD           float64           `json:"gainUSD,omitempty" doc:"afterTaxIncomeUSD - current.afterTaxIncomeUSD: the yearly gain of the move (negative: a loss). Absent on current."`
	FINumber          *float64          `json:"fiNumber" schema:"required,nullable" doc:"With monthlyBudgetUSD: the portfolio whose withdrawals, after this country's tax, cover the budget (fiWithdrawal / withdrawalRate); else null."`
	FINumberUSD       *float64          `json:"fiNumberUSD" schema:"required,nullable"`
	FIWithdrawal      *float64          `json:"fiWithdrawal" schema:"required,nullable" doc:"The gross yearly withdrawal, in the stated income's mix, that leaves 12 x monthlyBudgetUSD after tax."`
	Eligibility       []string          `json:"eligibility" schema:"required" doc:"What the person must still check: the program's eligibility, or tax residence and the right to live there for a move under the normal rules; empty for the current country."`
	Conditions        []string          `json:"conditions" schema:"required" doc:"Conditions of the program's rules the calculation cannot check."`
}

type taxSkipDoc struct {
	Country string  `json:"country" schema:"required"`
	Program *string `json:"program" schema:"required,nullable" doc:"null: the whole country was skipped."`
	Reason  string  `json:"reason" schema:"required"`
}

type taxOptDoc struct {
	Country          string         `json:"country" schema:"required"`
	Currency         string         `json:"currency" schema:"required" doc:"Of the income sent."`
	Year             *int           `json:"year" schema:"required,nullable" doc:"The year asked for; each suggestion says the year it used."`
	FXAsOf           string         `json:"fxAsOf" schema:"required" doc:"Date (YYYY-MM-DD) of the exchange rates used for every conversion."`
	MonthlyBudgetUSD *float64       `json:"monthlyBudgetUSD" schema:"required,nullable"`
	WithdrawalRate   float64        `json:"withdrawalRate" schema:"required"`
	Current          taxOptionDoc   `json:"current" schema:"required" doc:"Staying: the current country under its normal rules."`
	Suggestions      []taxOptionDoc `json:"suggestions" schema:"required" doc:"Every candidate under its normal rules and under each program a newcomer can join, best first."`
	Skipped          []taxSkipDoc   `json:"skipped" schema:"required" doc:"Candidates and programs left out of the ranking, and why."`
}

const taxCalcDesc = "One country's taxes on a yearly income profile, with a line-by-line breakdown. " +
	"The calculation is for a resident single person with no dependants and applies what every such person gets " +
	"(personal allowance, standard deduction or basic credits); GET /api/v1/tax/countries lists, per country, what is modelled and what is not.\n\n" +
	"`program` applies a special regime of the same country, assuming the person qualifies: the response repeats its eligibility and the conditions of its rules. " +
	"Each program rule covers income parts from a source (foreign, domestic or all); the income here has no source, so `domesticIncome` names the parts that arise in the country itself " +
	"and all others count as foreign-source (the default, as for someone who moves with their pension, investments or remote work). " +
	"Each covered part belongs to the first rule that covers it and leaves the normal rules as the rule says: all of it (exempt, lumpSum), up to the cap (flat), " +
	"or the exempt fraction (partialExempt); the program adds its own tax (flat rate, lump sum, minimum top-up) to incomeTax. " +
	"Income tax, capital and regional rules then run on the income left to them; social contributions stay those of the whole income (programs relieve tax, not social insurance). " +
	"The breakdown opens with lines of kind `program`, and `data.program` reports the tax without the program and the saving."

const taxOptDesc = "Ranks where the stated income is taxed least: every candidate country under its normal rules, and under each of its special programs " +
	"that admits newcomers (status open or changed) and that the calculator can apply, best first by after-tax income in US dollars " +
	"(ties: by country code, the normal rules first). `current` is staying where you live now; each suggestion's gainUSD is its after-tax income less current's.\n\n" +
	"Method. The income (in the currency of `country`) is converted into each candidate's currency at the reference rates of `fxAsOf`, " +
	"taxed there as POST /api/v1/tax/calculate does (resident single person, the requested year where the country has it, else its latest), " +
	"in the region named by the country's localTax (none when it names none: then only national tax is counted, and localTax.note says what is left out), " +
	"and the results are converted to US dollars at the same rates. A program is applied as in calculate, with every income part foreign-source " +
	"except those named in `domesticIncome` (as for someone who moves with their pension, investments or remote work); programs of the current country are not suggested, " +
	"since they are for people who move there. The calculation assumes the person qualifies: each suggestion lists the eligibility and conditions to check.\n\n" +
	"After-tax FI number (with monthlyBudgetUSD): the budget is converted to the candidate's currency, B = 12 x budget. Withdrawals are taxed as income with the stated income's mix " +
	"(its parts scaled together): the gross yearly withdrawal G solves G - tax(G x mix) = B, found by bracketed regula falsi to the cent, " +
	"and fiNumber = G / withdrawalRate. State the mix your withdrawals will have (pension, interest, dividends, capital gains); " +
	"taxing a whole withdrawal as gains or dividends overstates the tax on the part that returns capital.\n\n" +
	"Not modelled: cost of living (see /api/v1/geo), the current country's continued taxing rights (US citizens are taxed on worldwide income wherever they live; " +
	"treaties often leave government pensions and some other income taxable at source), exit taxes, wealth and property taxes, and withholding at source."
