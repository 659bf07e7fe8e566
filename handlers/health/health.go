// Package health serves POST /portfolio-health: the health score of a
// portfolio sent in the request, with its recommendations. Nothing is
// stored.
package health

import (
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/health"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

type healthHolding struct {
	Name         string   `json:"name" schema:"required,minLen=1,maxLen=120" doc:"Your name for the holding, used in recommendations."`
	Value        float64  `json:"value" schema:"required,min=0,max=1e15" doc:"Market value, in the request's currency."`
	AssetClass   string   `json:"assetClass" schema:"required,enum=@assetClass"`
	ISIN         string   `json:"isin" schema:"maxLen=12,format=isin" doc:"ISO 6166 identifier, checked for shape and check digit. Informational."`
	ExpenseRatio *float64 `json:"expenseRatio" schema:"min=0,max=0.1" doc:"Yearly fund cost as a fraction (0.0095 = 0.95%). A stated ratio marks the holding as a pooled fund; leave it out for a directly held asset."`
	Region       string   `json:"region" schema:"enum=@region" doc:"Where an equity holding invests."`
	Currency     string   `json:"currency" schema:"maxLen=3,format=currency" doc:"ISO 4217 code. Informational."`
}

type healthRequest struct {
	Holdings            []healthHolding `json:"holdings" schema:"required,minItems=1,maxItems=200"`
	Currency            string          `json:"currency" schema:"maxLen=3,format=currency" doc:"ISO 4217 code of every amount, used to write amounts in recommendations. Default USD."`
	Age                 *float64        `json:"age" schema:"min=0,max=120"`
	AnnualExpenses      *float64        `json:"annualExpenses" schema:"xmin=0,max=1e12" doc:"Yearly spending: sizes the emergency fund and the FI number."`
	RiskTolerance       string          `json:"riskTolerance" schema:"enum=@riskTolerance"`
	TargetRetirementAge *float64        `json:"targetRetirementAge" schema:"min=0,max=120"`
	EmergencyFund       *float64        `json:"emergencyFund" schema:"min=0,max=1e15" doc:"Cash set aside outside the holdings. Default: the cash holdings."`
}

// Handlers serve the portfolio-health route.
type Handlers struct {
	healthSchema *schema.Schema[healthRequest]
	// Docs describes the routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	Health *rest.Doc
}

// New compiles the routes' declarations against v, which must define the
// assetClass, region, riskTolerance, component and recommendationKind
// enums and the isin and currency formats.
func New(v *schema.Vocabulary) (*Handlers, error) {
	h := &Handlers{}
	var err error
	if h.healthSchema, err = schema.Compile[healthRequest](v); err != nil {
		return nil, err
	}
	healthDoc, err := schema.CompileDoc[healthResponseDoc](v)
	if err != nil {
		return nil, err
	}
	h.Docs = Docs{
		Health: &rest.Doc{
			Tag:     "portfolio",
			Status:  200,
			Summary: "Portfolio health score",
			Desc:    "Scores a portfolio from 0 to 1000 in four components of 250 points and says what to do about it.\n\n" + health.Method,
			Body:    h.healthSchema,
			Data:    healthDoc},
	}
	return h, nil
}

type healthWork struct {
	req      healthRequest
	holdings []health.Holding
	result   health.Result
	text     []byte
	missing  [16]string
}

var healthPool = sync.Pool{New: func() any { return &healthWork{holdings: make([]health.Holding, 0, 32)} }}

// Health scores the portfolio in the body.
func (t *Handlers) Health(c *rest.Ctx) {
	w := healthPool.Get().(*healthWork)
	defer healthPool.Put(w)
	if !rest.Decode(c, t.healthSchema, &w.req) {
		return
	}
	req := &w.req
	p := health.Portfolio{Holdings: w.holdings[:0], Currency: req.Currency}
	for i := range req.Holdings {
		h := &req.Holdings[i]
		class, _ := health.ParseAssetClass(h.AssetClass)
		region, _ := health.ParseRegion(h.Region)
		x := health.Holding{Name: h.Name, Value: h.Value, AssetClass: class, ISIN: h.ISIN, Region: region, Currency: h.Currency}
		if h.ExpenseRatio != nil {
			x.ExpenseRatio, x.HasExpenseRatio = *h.ExpenseRatio, true
		}
		p.Holdings = append(p.Holdings, x)
	}
	w.holdings = p.Holdings
	ctx := &p.Context
	if req.Age != nil {
		ctx.Age, ctx.HasAge = *req.Age, true
	}
	if req.AnnualExpenses != nil {
		ctx.AnnualExpenses, ctx.HasAnnualExpenses = *req.AnnualExpenses, true
	}
	if req.TargetRetirementAge != nil {
		ctx.TargetRetirementAge, ctx.HasTargetRetirementAge = *req.TargetRetirementAge, true
	}
	if req.EmergencyFund != nil {
		ctx.EmergencyFund, ctx.HasEmergencyFund = *req.EmergencyFund, true
	}
	ctx.RiskTolerance, _ = health.ParseRiskTolerance(req.RiskTolerance)
	health.Score(&p, &w.result)
	writeHealth(c.Begin(), w)
	c.Send(fasthttp.StatusOK)
}

func writeHealth(out *jsonw.Writer, w *healthWork) {
	r := &w.result
	out.Begin()
	out.Key("score")
	out.Int(int64(r.Score))
	out.Key("components")
	out.BeginArray()
	for i := range r.Components {
		cp := &r.Components[i]
		out.Begin()
		out.Key("name")
		out.String(cp.Name)
		out.Key("score")
		out.Int(int64(cp.Score))
		out.Key("max")
		out.Int(int64(cp.Max))
		out.End()
	}
	out.EndArray()
	out.Key("recommendations")
	out.BeginArray()
	for _, rec := range r.Recommendations() {
		out.Begin()
		out.Key("priority")
		out.Int(int64(rec.Priority))
		out.Key("title")
		w.text = health.AppendTitle(w.text[:0], &rec)
		out.Bytes(w.text)
		out.Key("detail")
		w.text = health.AppendDetail(w.text[:0], &rec)
		out.Bytes(w.text)
		out.Key("kind")
		out.String(rec.Kind.String())
		out.Key("component")
		out.String(rec.Component.String())
		out.Key("impact")
		out.Int(int64(rec.Impact))
		out.End()
	}
	out.EndArray()
	out.Key("missing")
	out.BeginArray()
	for _, m := range r.Missing.AppendNames(w.missing[:0]) {
		out.String(m)
	}
	out.EndArray()
	m := &r.Metrics
	out.Key("metrics")
	out.Begin()
	out.Key("total")
	out.Fixed(m.Total, 2)
	out.Key("hhi")
	out.Fixed(m.HHI, 0)
	out.Key("largestExposure")
	out.Fixed(m.LargestExposure, 4)
	out.Key("expenseRatio")
	out.Fixed(m.ExpenseRatio, 5)
	out.Key("annualCost")
	out.Fixed(m.AnnualCost, 2)
	out.Key("growthShare")
	out.Fixed(m.GrowthShare, 4)
	out.Key("emergencyMonths")
	out.Fixed(m.EmergencyMonths, 1)
	out.Key("fiProgress")
	out.Fixed(m.FIProgress, 4)
	out.End()
	out.End()
}

// Documentation of the response.

type healthComponentDoc struct {
	Name  string `json:"name" schema:"required,enum=@component"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type healthRecDoc struct {
	Priority  int    `json:"priority" schema:"required" doc:"1 is the most valuable to act on."`
	Title     string `json:"title" schema:"required"`
	Detail    string `json:"detail" schema:"required" doc:"What to do, quantified where possible."`
	Kind      string `json:"kind" schema:"required,enum=@recommendationKind"`
	Component string `json:"component" schema:"required,enum=@component"`
	Impact    int    `json:"impact" schema:"required" doc:"Estimated score points gained by acting."`
}

type healthMetricsDoc struct {
	Total           float64 `json:"total"`
	HHI             float64 `json:"hhi" doc:"Look-through Herfindahl-Hirschman index, 0..10000."`
	LargestExposure float64 `json:"largestExposure" doc:"Largest single look-through exposure, as a share."`
	ExpenseRatio    float64 `json:"expenseRatio" doc:"Value-weighted yearly cost."`
	AnnualCost      float64 `json:"annualCost"`
	GrowthShare     float64 `json:"growthShare" doc:"Share in equity, real estate, crypto and commodities."`
	EmergencyMonths float64 `json:"emergencyMonths"`
	FIProgress      float64 `json:"fiProgress" doc:"Portfolio / (25 x annual expenses), capped at 10; 0 when expenses are unknown."`
}

type healthResponseDoc struct {
	Score           int                  `json:"score" schema:"required" doc:"0..1000, the sum of the components."`
	Components      []healthComponentDoc `json:"components" schema:"required" doc:"Exactly four, 250 points each."`
	Recommendations []healthRecDoc       `json:"recommendations" schema:"required" doc:"Ordered by impact; empty only at 1000."`
	Missing         []string             `json:"missing" schema:"required" doc:"Inputs that would make the score more exact."`
	Metrics         healthMetricsDoc     `json:"metrics" schema:"required"`
}
