// Package plans serves a user's saved plans: a name and a calculator body
// kept under an id, read and rewritten with entity tags, run through the
// calculator, and checked in once a year against the balances of the day.
package plans

import (
	"time"

	"fiplan/compute/fiscore"
	"fiplan/compute/plan"
	"fiplan/data/store"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// MaxPlans caps the plans of one user.
const MaxPlans = 100

// Calculator is what the plans need of the calculator (handlers/calculator):
// its check of a body, its answer, and the figures of a check-in.
type Calculator interface {
	// Validate checks body as a calculator request; on a refusal r holds
	// it with each path prefixed by prefix.
	Validate(body []byte, prefix string, r *schema.Result) bool
	// Answer answers c with the calculator's answer for body, charged and
	// gated as POST /calculator.
	Answer(c *rest.Ctx, body []byte)
	// CheckIn computes body with a backtest and reads the check-in from
	// it, charged and gated as POST /calculator; ok is false when it has
	// answered.
	CheckIn(c *rest.Ctx, body []byte) (ci plan.CheckIn, currency string, window int, ok bool)
	// Path runs body, a saved plan's input, from its own start
	// (startYear when it names none) and returns the portfolio it expects
	// at the start of each year and its FI number, each in that year's
	// money; found is false when the input no longer runs. It is not
	// charged apart and does not answer c.
	Path(c *rest.Ctx, body []byte, startYear int) (p store.PlanWatch, found bool)
	// FIFigures runs body without backtest or Monte Carlo and writes the
	// FI number, FI age and starting portfolio of its run into p,
	// returning their currency; ok is false when it has answered.
	FIFigures(c *rest.Ctx, body []byte, p *fiscore.Plan) (currency string, ok bool)
	// AnswerOptimized answers c with the calculator's answer for body
	// with optimize as its optimize field, checked with its own paths.
	AnswerOptimized(c *rest.Ctx, body, optimize []byte)
}

// Handlers serve the plan routes.
type Handlers struct {
	db   store.Store
	calc Calculator
	now  func() time.Time
	// data is the version of the embedded data (Config.DataVersion).
	data string

	inSchema      *schema.Schema[planIn]
	putSchema     *schema.Schema[planPut]
	checkInSchema *schema.Schema[checkInRequest]
	writes        *owned.Docs[savedPlan, planIn, *savedPlan]

	// Docs describes the routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	List, Create, Get, Put, Patch, Delete, Run, CheckIn, Optimize *rest.Doc
}

// Config is what the plan routes need.
type Config struct {
	DB   store.Store
	Calc Calculator
	Now  func() time.Time
	// Answer is the calculator's documentation, whose answer POST
	// /plans/{id}/run gives.
	Answer *rest.Doc
	// OptimizeBody declares the body of POST /plans/{id}/optimize: the
	// calculator's optimize field.
	OptimizeBody rest.Schema
	// DataVersion names the embedded data the calculator runs on
	// (embed.Version): a plan whose watch was computed with another is
	// computed again by Recheck.
	DataVersion string
}

// New compiles the routes' declarations against v.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	s := &Handlers{db: cfg.DB, calc: cfg.Calc, now: cfg.Now, data: cfg.DataVersion}
	var err error
	if s.inSchema, err = schema.Compile[planIn](v); err != nil {
		return nil, err
	}
	if s.putSchema, err = schema.Compile[planPut](v); err != nil {
		return nil, err
	}
	if s.checkInSchema, err = schema.Compile[checkInRequest](v); err != nil {
		return nil, err
	}
	s.writes = s.planWrites()
	planDoc, err := schema.CompileDoc[savedPlan](v)
	if err != nil {
		return nil, err
	}
	checkInDoc, err := schema.CompileDoc[checkInData](v)
	if err != nil {
		return nil, err
	}
	s.docs(planDoc, checkInDoc, cfg.Answer)
	s.optimizeDoc(cfg.OptimizeBody, cfg.Answer)
	return s, nil
}

// CheckMonthDay is why s is not a date of the year, MM-DD, or "".
func CheckMonthDay(s string) string {
	if t, err := time.Parse("01-02", s); err != nil || t.Format("01-02") != s {
		return "must be a date of the year, MM-DD, such as 03-31"
	}
	return ""
}
