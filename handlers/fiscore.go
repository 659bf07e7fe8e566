package handlers

import (
	"math"

	"github.com/valyala/fasthttp"

	"fiplan/compute/fi"
	"fiplan/compute/health"
	"fiplan/handlers/schema"
)

// The FI score: 0-1000 from the caller's stored profile, settings and
// assets. Three components:
//
//   - fiProgress (400): net worth against the FI number (annual expenses
//     divided by the withdrawal rate), linear, full at 100%;
//   - portfolioHealth (400): the portfolio-health score (0-1000) of the
//     stored assets, scaled by 0.4;
//   - timeToFI (200): from the calculator's years to FI with today's net
//     worth and saving: full when already FI, falling linearly to 0 at 40
//     years or more (or never).
//
// A component whose inputs are missing scores 0 and says what is missing.
const (
	progressMax = 400
	healthMax   = 400
	timeMax     = 200
	timeHorizon = 40.0 // years to FI at which timeToFI reaches 0
)

type scoreComponent struct {
	Name  string `json:"name" schema:"required"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type scoreRecommendation struct {
	Priority int    `json:"priority" schema:"required"`
	Title    string `json:"title" schema:"required"`
	Detail   string `json:"detail" schema:"required"`
}

type scoreHealth struct {
	Score           int                   `json:"score" schema:"required" doc:"The portfolio-health score, 0-1000."`
	Components      []scoreComponent      `json:"components" schema:"required"`
	Recommendations []scoreRecommendation `json:"recommendations" schema:"required" doc:"The three most valuable, best first."`
}

type scoreInputs struct {
	Age                 *int     `json:"age" schema:"required,nullable"`
	AnnualIncome        *float64 `json:"annualIncome" schema:"required,nullable" doc:"In the base currency."`
	AnnualExpenses      *float64 `json:"annualExpenses" schema:"required,nullable" doc:"In the base currency."`
	TargetRetirementAge *int     `json:"targetRetirementAge" schema:"required,nullable"`
	RiskTolerance       *string  `json:"riskTolerance" schema:"required,nullable"`
	ExpectedReturn      float64  `json:"expectedReturn" schema:"required" doc:"From your settings."`
	InflationRate       float64  `json:"inflationRate" schema:"required"`
	WithdrawalRate      float64  `json:"withdrawalRate" schema:"required"`
	Assets              int      `json:"assets" schema:"required"`
	ExchangeRatesAsOf   string   `json:"exchangeRatesAsOf" schema:"required"`
}

type missingInput struct {
	Field string `json:"field" schema:"required" doc:"Where to set it, such as profile.annualExpenses."`
	Why   string `json:"why" schema:"required"`
}

type fiScoreData struct {
	Score           int              `json:"score" schema:"required" doc:"0-1000: the sum of the components."`
	Components      []scoreComponent `json:"components" schema:"required"`
	Currency        string           `json:"currency" schema:"required" doc:"The base currency of your settings."`
	NetWorth        float64          `json:"netWorth" schema:"required" doc:"The value of your assets."`
	FINumber        *float64         `json:"fiNumber" schema:"required,nullable" doc:"Annual expenses / withdrawal rate; null without annual expenses."`
	Progress        *float64         `json:"progress" schema:"required,nullable" doc:"Net worth / FI number."`
	YearsToFI       *int             `json:"yearsToFI" schema:"required,nullable" doc:"0 when already FI; null when never within the horizon or unknown."`
	FIAge           *int             `json:"fiAge" schema:"required,nullable"`
	PortfolioHealth *scoreHealth     `json:"portfolioHealth" schema:"required,nullable" doc:"null without assets."`
	Inputs          scoreInputs      `json:"inputs" schema:"required" doc:"What the score was computed from."`
	Missing         []missingInput   `json:"missing" schema:"required" doc:"What would make the score more exact; empty when nothing is missing."`
}

var fiScoreDoc = schema.Doc[fiScoreData]()

func fiScoreRoute(s *Server) *route {
	return &route{method: "GET", path: v1 + "/fi-score", access: User, tag: "fi", status: 200,
		summary: "Your FI score from your stored profile and assets",
		desc: "A 0-1000 score in three parts: `fiProgress` (400 points: net worth against the FI number, annual expenses / withdrawal rate), `portfolioHealth` (400 points: the POST /portfolio-health score of your stored assets × 0.4) and `timeToFI` (200 points: full when already FI, falling linearly to 0 at " +
			itoa(int(timeHorizon)) + " or more years to FI, from the calculator's timeline with your net worth, income, expenses and settings). " +
			"Amounts are converted to your settings' base currency with the embedded reference exchange rates. A part whose inputs are missing scores 0; `missing` says what to add. Works with an API key.",
		data: fiScoreDoc,
		h:    s.fiScore}
}

func (s *Server) fiScore(c *Ctx) {
	user := c.Principal.User
	var p profile
	if err := profileRes.read(s.db, user, &p); err != nil {
		c.Storage(err)
		return
	}
	st, err := s.settings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	hs, err := s.holdings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusOK, s.scoreFI(&p, &st, hs))
}

func (s *Server) scoreFI(p *profile, st *settingsDoc, hs []holding) *fiScoreData {
	base := st.BaseCurrency
	year := s.now().UTC().Year()
	out := &fiScoreData{Currency: base, Missing: []missingInput{}}
	in := &out.Inputs
	in.ExpectedReturn, in.InflationRate, in.WithdrawalRate = st.ExpectedReturn, st.InflationRate, st.WithdrawalRate
	in.Assets, in.ExchangeRatesAsOf = len(hs), s.fx.AsOf()
	in.TargetRetirementAge, in.RiskTolerance = p.TargetRetirementAge, p.RiskTolerance
	if age, ok := p.age(year); ok {
		in.Age = &age
	}
	if p.AnnualIncome != nil {
		v := roundMoney(inBase(s.fx, *p.AnnualIncome, p.Currency, base))
		in.AnnualIncome = &v
	}
	if p.AnnualExpenses != nil {
		v := roundMoney(inBase(s.fx, *p.AnnualExpenses, p.Currency, base))
		in.AnnualExpenses = &v
	}
	miss := func(field, why string) { out.Missing = append(out.Missing, missingInput{field, why}) }

	var worth float64
	values := make([]float64, len(hs)) // in the base currency
	for i := range hs {
		values[i] = inBase(s.fx, hs[i].Value, hs[i].Currency, base)
		worth += values[i]
	}
	out.NetWorth = roundMoney(worth)

	// fiProgress
	progress := 0
	if in.AnnualExpenses != nil && *in.AnnualExpenses > 0 {
		fiNum := roundMoney(*in.AnnualExpenses / st.WithdrawalRate)
		ratio := roundShare(worth / fiNum)
		out.FINumber, out.Progress = &fiNum, &ratio
		progress = int(math.Round(progressMax * math.Min(1, ratio)))
	} else {
		miss("profile.annualExpenses", "needed for the FI number: fiProgress and timeToFI score 0 without it")
	}

	// portfolioHealth
	healthPts := 0
	if len(hs) == 0 {
		miss("assets", "add your assets (POST /api/v1/assets): portfolioHealth scores 0 without them")
	} else {
		h := scoreHealthOf(p, in, hs, values, base)
		out.PortfolioHealth = h
		healthPts = int(math.Round(float64(h.Score) * healthMax / 1000))
	}

	// timeToFI
	timePts := 0
	if in.Age == nil {
		miss("profile.currentAge", "or profile.birthYear: needed for the years to FI; timeToFI scores 0 without it")
	}
	if in.AnnualIncome == nil {
		miss("profile.annualIncome", "take-home pay: without it no saving is assumed")
	}
	if in.Age != nil && in.AnnualExpenses != nil && *in.AnnualExpenses > 0 {
		x := fi.Defaults()
		x.CurrentAge = min(max(*in.Age, 18), 100)
		x.StartYear = year
		x.AnnualExpenses = *in.AnnualExpenses
		if in.AnnualIncome != nil {
			x.AnnualIncome = *in.AnnualIncome
		}
		x.CurrentSavings = worth
		x.ExpectedReturn, x.InflationRate, x.WithdrawalRate = st.ExpectedReturn, st.InflationRate, st.WithdrawalRate
		sum, _ := fi.Project(&x, nil)
		if sum.YearsToFI >= 0 {
			y, a := sum.YearsToFI, sum.FIAge
			out.YearsToFI, out.FIAge = &y, &a
			timePts = int(math.Round(timeMax * math.Max(0, 1-float64(y)/timeHorizon)))
		}
	}
	if p.RiskTolerance == nil && len(hs) > 0 {
		miss("profile.riskTolerance", "makes the risk-alignment part of portfolioHealth exact")
	}

	out.Components = []scoreComponent{
		{"fiProgress", progress, progressMax},
		{"portfolioHealth", healthPts, healthMax},
		{"timeToFI", timePts, timeMax},
	}
	out.Score = progress + healthPts + timePts
	return out
}

func scoreHealthOf(p *profile, in *scoreInputs, hs []holding, values []float64, base string) *scoreHealth {
	port := health.Portfolio{Holdings: make([]health.Holding, 0, len(hs)), Currency: base}
	for i := range hs {
		h := &hs[i]
		class, _ := health.ParseAssetClass(h.Category)
		x := health.Holding{Name: h.Name, Value: values[i], AssetClass: class, Currency: base}
		if h.ISIN != nil {
			x.ISIN = *h.ISIN
		}
		if h.Region != nil {
			x.Region, _ = health.ParseRegion(*h.Region)
		}
		if h.ExpenseRatio != nil {
			x.ExpenseRatio, x.HasExpenseRatio = *h.ExpenseRatio, true
		}
		port.Holdings = append(port.Holdings, x)
	}
	ctx := &port.Context
	if in.Age != nil {
		ctx.Age, ctx.HasAge = float64(*in.Age), true
	}
	if in.AnnualExpenses != nil && *in.AnnualExpenses > 0 {
		ctx.AnnualExpenses, ctx.HasAnnualExpenses = *in.AnnualExpenses, true
	}
	if p.TargetRetirementAge != nil {
		ctx.TargetRetirementAge, ctx.HasTargetRetirementAge = float64(*p.TargetRetirementAge), true
	}
	if p.RiskTolerance != nil {
		ctx.RiskTolerance, _ = health.ParseRiskTolerance(*p.RiskTolerance)
	}
	var r health.Result
	health.Score(&port, &r)
	out := &scoreHealth{Score: r.Score, Recommendations: []scoreRecommendation{}}
	for _, cp := range r.Components {
		out.Components = append(out.Components, scoreComponent{cp.Name, cp.Score, cp.Max})
	}
	var text []byte
	for i, rec := range r.Recommendations() {
		if i == 3 {
			break
		}
		text = health.AppendTitle(text[:0], &rec)
		title := string(text)
		text = health.AppendDetail(text[:0], &rec)
		out.Recommendations = append(out.Recommendations, scoreRecommendation{rec.Priority, title, string(text)})
	}
	return out
}
