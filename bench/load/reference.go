package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"time"

	"fiplan/compute/fi"
	"fiplan/data/history"
)

// The reference server answers POST /api/v1/calculator the way a plain Go
// service would: net/http, the request decoded with encoding/json into the
// calculator's request shape, the same engine (compute/fi), the response
// built as structs and encoded with encoding/json, numbers rounded to the
// same places as fiplan's. It validates only what the engine needs, so it
// is a kind reference: fiplan's schema checks cost more.

type refParams struct {
	CurrentSavings      *float64     `json:"currentSavings"`
	ExpectedReturn      *float64     `json:"expectedReturn"`
	InflationRate       *float64     `json:"inflationRate"`
	WithdrawalRate      *float64     `json:"withdrawalRate"`
	IncomeGrowthRate    *float64     `json:"incomeGrowthRate"`
	RetirementExpenses  *float64     `json:"retirementExpenses"`
	LifeExpectancy      *int         `json:"lifeExpectancy"`
	TargetRetirementAge *int         `json:"targetRetirementAge"`
	AnnualContribution  *float64     `json:"annualContribution"`
	ExpenseRatio        *float64     `json:"expenseRatio"`
	StockShare          *float64     `json:"stockShare"`
	WithdrawalStrategy  string       `json:"withdrawalStrategy"`
	Pensions            []refPension `json:"pensions"`
	Events              []refEvent   `json:"events"`
}

type refPension struct {
	FromAge         int     `json:"fromAge"`
	Amount          float64 `json:"amount"`
	InflationLinked *bool   `json:"inflationLinked"`
	Owner           string  `json:"owner"`
	Kind            string  `json:"kind"`
}

type refEvent struct {
	Age     int     `json:"age"`
	Amount  float64 `json:"amount"`
	Nominal bool    `json:"nominal"`
	Label   string  `json:"label"`
}

type refScenario struct {
	Name           string   `json:"name"`
	CurrentAge     *int     `json:"currentAge"`
	AnnualIncome   *float64 `json:"annualIncome"`
	AnnualExpenses *float64 `json:"annualExpenses"`
	refParams
}

type refRequest struct {
	Currency       string  `json:"currency"`
	CurrentAge     int     `json:"currentAge"`
	AnnualIncome   float64 `json:"annualIncome"`
	AnnualExpenses float64 `json:"annualExpenses"`
	StartYear      *int    `json:"startYear"`
	refParams
	refHouseholdFields
	Scenarios  []refScenario `json:"scenarios"`
	Historical *struct {
		Years int `json:"years"`
	} `json:"historical"`
}

func (p *refParams) apply(in *fi.Input) {
	setF := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	setF(&in.CurrentSavings, p.CurrentSavings)
	setF(&in.ExpectedReturn, p.ExpectedReturn)
	setF(&in.InflationRate, p.InflationRate)
	setF(&in.WithdrawalRate, p.WithdrawalRate)
	setF(&in.IncomeGrowthRate, p.IncomeGrowthRate)
	setF(&in.RetirementExpenses, p.RetirementExpenses)
	setF(&in.Fee, p.ExpenseRatio)
	setF(&in.StockShare, p.StockShare)
	if p.LifeExpectancy != nil {
		in.LifeExpectancy = *p.LifeExpectancy
	}
	if p.TargetRetirementAge != nil {
		in.TargetRetirementAge = *p.TargetRetirementAge
	}
	if p.AnnualContribution != nil {
		in.FixedContribution, in.Contribution = true, *p.AnnualContribution
	}
	if p.WithdrawalStrategy != "" {
		in.Strategy, _ = fi.ParseStrategy(p.WithdrawalStrategy)
	}
	if len(p.Pensions) > 0 {
		in.NumPensions = 0
		for _, x := range p.Pensions {
			in.AddPension(fi.Pension{FromAge: x.FromAge, Amount: x.Amount, Indexed: x.InflationLinked == nil || *x.InflationLinked})
		}
	}
	if len(p.Events) > 0 {
		in.NumEvents = 0
		for _, x := range p.Events {
			in.AddEvent(fi.Event{Age: x.Age, Amount: x.Amount, Nominal: x.Nominal})
		}
	}
}

type refYear struct {
	Year           int     `json:"year"`
	Age            int     `json:"age"`
	StartBalance   float64 `json:"startBalance"`
	Contributions  float64 `json:"contributions"`
	Growth         float64 `json:"growth"`
	Withdrawals    float64 `json:"withdrawals"`
	Events         float64 `json:"events"`
	Pension        float64 `json:"pension"`
	EndBalance     float64 `json:"endBalance"`
	RealEndBalance float64 `json:"realEndBalance"`
	FIProgress     float64 `json:"fiProgress"`
	Retired        bool    `json:"retired"`
}

type refPlan struct {
	Name             string    `json:"name,omitempty"`
	FINumber         float64   `json:"fiNumber"`
	YearsToFI        *int      `json:"yearsToFI"`
	FIAge            *int      `json:"fiAge"`
	FIYear           *int      `json:"fiYear"`
	SavingsRate      float64   `json:"savingsRate"`
	LeanFINumber     float64   `json:"leanFINumber"`
	FatFINumber      float64   `json:"fatFINumber"`
	CoastFINumber    float64   `json:"coastFINumber"`
	CoastAge         int       `json:"coastAge"`
	BaristaIncome    float64   `json:"baristaIncome"`
	RetirementAge    *int      `json:"retirementAge"`
	RunsOut          bool      `json:"runsOut"`
	DepletionAge     *int      `json:"depletionAge"`
	FinalBalance     float64   `json:"finalBalance"`
	FinalBalanceReal float64   `json:"finalBalanceReal"`
	GuardrailCuts    int       `json:"guardrailCuts"`
	GuardrailRaises  int       `json:"guardrailRaises"`
	Projections      []refYear `json:"projections"`
}

type refBacktest struct {
	Dataset              string   `json:"dataset"`
	Currency             string   `json:"currency"` // the US dollar: the reference replays the record as published
	WindowYears          int      `json:"windowYears"`
	DataFrom             int      `json:"dataFrom"`
	DataTo               int      `json:"dataTo"`
	From                 int      `json:"from"`
	To                   int      `json:"to"`
	StartMonths          string   `json:"startMonths"`
	WithdrawalTiming     string   `json:"withdrawalTiming"`
	Periods              int      `json:"periods"`
	FirstStartYear       *int     `json:"firstStartYear"`
	FirstStartMonth      *int     `json:"firstStartMonth"`
	LastStartYear        *int     `json:"lastStartYear"`
	LastStartMonth       *int     `json:"lastStartMonth"`
	SuccessRate          *float64 `json:"successRate"`
	WorstStartYear       *int     `json:"worstStartYear"`
	WorstStartMonth      *int     `json:"worstStartMonth"`
	WorstFailed          bool     `json:"worstFailed"`
	WorstFailYear        *int     `json:"worstFailYear"`
	WorstYearsLasted     int      `json:"worstYearsLasted"`
	MedianEndBalanceReal float64  `json:"medianEndBalanceReal"`
}

type refResult struct {
	Currency string `json:"currency"`
	refPlan
	Scenarios  []refPlan    `json:"scenarios"`
	Historical *refBacktest `json:"historical,omitempty"`
}

type refEnvelope struct {
	Success bool      `json:"success"`
	Data    refResult `json:"data"`
}

type refError struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Code    string `json:"code"`
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

func optional(v int, ok bool) *int {
	if !ok {
		return nil
	}
	return &v
}

func refPlanOf(name string, s fi.Summary, rows []fi.Year) refPlan {
	p := refPlan{
		Name: name, FINumber: round(s.FINumber, 2),
		YearsToFI: optional(s.YearsToFI, s.YearsToFI >= 0), FIAge: optional(s.FIAge, s.FIAge >= 0), FIYear: optional(s.FIYear, s.FIYear >= 0),
		SavingsRate: round(s.SavingsRate, 4), LeanFINumber: round(s.LeanFINumber, 2), FatFINumber: round(s.FatFINumber, 2),
		CoastFINumber: round(s.CoastFINumber, 2), CoastAge: s.CoastAge, BaristaIncome: round(s.BaristaIncome, 2),
		RetirementAge: optional(s.RetirementAge, s.RetirementAge >= 0), RunsOut: s.RunsOut,
		DepletionAge: optional(s.DepletionAge, s.DepletionAge >= 0), FinalBalance: round(s.FinalBalance, 2),
		FinalBalanceReal: round(s.FinalReal, 2), GuardrailCuts: s.GuardrailCuts, GuardrailRaises: s.GuardrailRaise,
		Projections: make([]refYear, len(rows)),
	}
	for i, r := range rows {
		p.Projections[i] = refYear{
			Year: r.Year, Age: r.Age, StartBalance: round(r.StartBalance, 2), Contributions: round(r.Contributions, 2),
			Growth: round(r.Growth, 2), Withdrawals: round(r.Withdrawals, 2), Events: round(r.Events, 2),
			Pension: round(r.Pension, 2), EndBalance: round(r.EndBalance, 2), RealEndBalance: round(r.RealEndBalance, 2),
			FIProgress: round(r.FIProgress, 4), Retired: r.Retired,
		}
	}
	return p
}

// refCalculator is the reference handler.
type refCalculator struct {
	history    fi.Series
	households *refHouseholds
}

func (h *refCalculator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/v1/calculator" {
		writeJSON(w, http.StatusNotFound, refError{Error: "no such route", Code: "ENDPOINT_NOT_FOUND"})
		return
	}
	var req refRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, refError{Error: err.Error(), Code: "VALIDATION_ERROR"})
		return
	}
	if err := req.check(); err != nil {
		writeJSON(w, http.StatusBadRequest, refError{Error: err.Error(), Code: "VALIDATION_ERROR"})
		return
	}
	if req.isHousehold() {
		h.households.serve(w, &req)
		return
	}
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = req.CurrentAge, req.AnnualIncome, req.AnnualExpenses
	in.StartYear = time.Now().Year()
	if req.StartYear != nil {
		in.StartYear = *req.StartYear
	}
	req.refParams.apply(&in)
	s, rows := fi.Project(&in, nil)
	out := refEnvelope{Success: true, Data: refResult{Currency: "USD", refPlan: refPlanOf("", s, rows), Scenarios: make([]refPlan, 0, len(req.Scenarios))}}
	if req.Currency != "" {
		out.Data.Currency = req.Currency
	}
	for i := range req.Scenarios {
		sc := &req.Scenarios[i]
		x := in
		if sc.CurrentAge != nil {
			x.CurrentAge = *sc.CurrentAge
		}
		if sc.AnnualIncome != nil {
			x.AnnualIncome = *sc.AnnualIncome
		}
		if sc.AnnualExpenses != nil {
			x.AnnualExpenses = *sc.AnnualExpenses
		}
		sc.refParams.apply(&x)
		s, rows := fi.Project(&x, nil)
		out.Data.Scenarios = append(out.Data.Scenarios, refPlanOf(sc.Name, s, rows))
	}
	if hq := req.Historical; hq != nil {
		window := hq.Years
		if window == 0 {
			window = 30
		}
		var bt fi.BacktestResult
		if s.RetirementAge == in.CurrentAge {
			bt = fi.Backtest(&in, h.history, window) // retired today: the drawdown
		} else {
			// the whole plan over its horizon, or the years sent
			window = fi.PlanWindow(&in, hq.Years)
			for window > 1 && fi.Windows(h.history, window) == 0 {
				window--
			}
			bt = fi.PlanBacktest(&in, h.history, window)
		}
		var rate *float64
		if bt.Drawdowns > 0 || bt.Periods == 0 {
			r := round(bt.SuccessRate, 4)
			rate = &r
		}
		first, last := h.history.Years[0], h.history.Years[len(h.history.Years)-1]
		out.Data.Historical = &refBacktest{
			Dataset: "annual", Currency: "USD", WindowYears: window, DataFrom: first, DataTo: last,
			From: first, To: last, StartMonths: "all", WithdrawalTiming: "start-of-year",
			Periods: bt.Periods, FirstStartYear: optional(first, bt.Periods > 0), LastStartYear: optional(last-window+1, bt.Periods > 0), SuccessRate: rate, WorstStartYear: optional(bt.WorstStartYear, bt.Periods > 0),
			WorstFailed: bt.WorstFailed, WorstFailYear: optional(bt.WorstFailYear, bt.WorstFailed),
			WorstYearsLasted: bt.WorstYearsLasted, MedianEndBalanceReal: round(bt.MedianEndBalance, 2),
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// check is the least validation that keeps the engine inside its domain.
func (r *refRequest) check() error {
	switch {
	case r.CurrentAge < 18 || r.CurrentAge > 100:
		return errors.New("currentAge must be within 18..100")
	case r.AnnualIncome < 0 || r.AnnualExpenses <= 0:
		return errors.New("annualIncome must be >= 0 and annualExpenses > 0")
	case len(r.Scenarios) > fi.MaxScenarios:
		return fmt.Errorf("at most %d scenarios", fi.MaxScenarios)
	case r.LifeExpectancy != nil && *r.LifeExpectancy <= r.CurrentAge:
		return errors.New("lifeExpectancy must be greater than currentAge")
	case r.Historical != nil && r.Historical.Years != 0 && (r.Historical.Years < 5 || r.Historical.Years > 60):
		return errors.New("historical.years must be within 5..60")
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client may have gone
}

// startReference serves the reference calculator on a loopback port.
func startReference() (*http.Server, string, error) {
	h, err := history.Embedded()
	if err != nil {
		return nil, "", fmt.Errorf("cannot load the return history: %w", err)
	}
	hh, err := newRefHouseholds()
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("cannot listen for the reference server: %w", err)
	}
	srv := &http.Server{Handler: &refCalculator{history: fi.Series(h), households: hh}, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends at Close
	return srv, ln.Addr().String(), nil
}
