// Package tax serves the /tax routes: the countries the tax engine covers, one
// country's taxes on an income profile (optionally under a special
// program), the special programs, and a ranking of countries and programs
// by after-tax income (Optimize, over compute/tax's optimiser).
//
// Everything that depends only on the embedded datasets (the countries
// list, each program's JSON, each program's rules in engine form) is built
// once when the routes are made; a request only reads it.
package tax

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-json"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/data/taxtable"
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
	fx        Rates
	fxAsOf    string
	gate      *rest.Gate

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

// Rates is what the tax routes need of the exchange-rate table (data/fx).
type Rates interface {
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
func newTaxProgram(p program.Program, sys *tax.System, fx Rates) *taxProgram {
	tp := &taxProgram{p: p, conditions: []string{}}
	for _, r := range p.Rules {
		if r.Condition != "" {
			tp.conditions = append(tp.conditions, r.Condition)
		}
	}
	tp.offer = tp.p.Offer(sys, fx)
	return tp
}

// Config is what the tax routes read besides the request.
type Config struct {
	Taxes    *taxtable.Table
	Programs *program.Table
	// FX converts program amounts and optimize's incomes.
	FX Rates
	// Gate bounds the optimisations running at once (nil: no bound); a
	// request past it is refused with 503.
	Gate *rest.Gate
}

// New prepares the routes' state. v must define the tax and program enums.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	taxes, programs, fx := cfg.Taxes, cfg.Programs, cfg.FX
	t := &Handlers{taxes: taxes, byID: map[string]*taxProgram{}, byCountry: map[string][]*taxProgram{}, offers: map[string][]*tax.Offer{}, residence: map[string][]string{}, fx: fx, gate: cfg.Gate}
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
		writeCountry(&w, sys, ids[sys.Country], taxes.Wrappers(sys.Country))
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
