package main

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/compute/plan"
	"fiplan/compute/tax"
	"fiplan/data/taxtable"
)

// A household body (partner, accounts, a statutory or the partner's
// pension, conversions, tax) is answered the way a plain Go service would
// answer it with the same engine: encoding/json decodes it, compute/plan
// runs the household (compute/household, the tax rules and the wrappers
// of data/taxtable, and the baseline run in the conventional order), and
// encoding/json writes the summary and every row with its accounts, income,
// tax and residence, rounded as fiplan rounds them. It leaves out what
// fiplan adds around the rows (the summary's tax block and the notes) and
// refuses scenarios, backtests and Monte Carlo with household fields.

type refPartner struct {
	Age              int      `json:"age"`
	LifeExpectancy   *int     `json:"lifeExpectancy"`
	AnnualIncome     *float64 `json:"annualIncome"`
	IncomeGrowthRate *float64 `json:"incomeGrowthRate"`
	RetirementAge    *int     `json:"retirementAge"`
}

type refAccount struct {
	ID                   string   `json:"id"`
	Type                 string   `json:"type"`
	Owner                string   `json:"owner"`
	Balance              float64  `json:"balance"`
	CostBasis            *float64 `json:"costBasis"`
	AnnualContribution   *float64 `json:"annualContribution"`
	EmployerContribution *float64 `json:"employerContribution"`
}

type refTax struct {
	Country string `json:"country"`
	Year    int    `json:"year"`
	Filing  string `json:"filing"`
}

type refHouseholdFields struct {
	Partner     *refPartner  `json:"partner"`
	Accounts    []refAccount `json:"accounts"`
	Conversions *struct {
		UpToRate float64 `json:"upToRate"`
	} `json:"conversions"`
	Tax *refTax `json:"tax"`
}

type refHouseTax struct {
	IncomeTax           float64 `json:"incomeTax"`
	SocialContributions float64 `json:"socialContributions"`
	CapitalTax          float64 `json:"capitalTax"`
	Penalties           float64 `json:"penalties"`
	Total               float64 `json:"total"`
}

type refAccountYear struct {
	ID            string  `json:"id"`
	StartBalance  float64 `json:"startBalance"`
	Contributions float64 `json:"contributions"`
	Growth        float64 `json:"growth"`
	Withdrawals   float64 `json:"withdrawals"`
	Conversions   float64 `json:"conversions"`
	EndBalance    float64 `json:"endBalance"`
}

type refHouseYear struct {
	refYear
	Tax        *refHouseTax `json:"tax,omitempty"`
	PartnerAge *int         `json:"partnerAge,omitempty"`
	Income     struct {
		Employment float64 `json:"employment"`
		Pensions   float64 `json:"pensions"`
		Yield      float64 `json:"yield,omitempty"`
		Spousal    float64 `json:"spousal,omitempty"`
		Survivor   float64 `json:"survivor,omitempty"`
	} `json:"income"`
	Accounts            []refAccountYear `json:"accounts"`
	Residence           string           `json:"residence,omitempty"`
	OverLimit           float64          `json:"overLimit,omitempty"`
	RequiredWithdrawals float64          `json:"requiredWithdrawals,omitempty"`
	Conversions         float64          `json:"conversions,omitempty"`
	Shortfall           float64          `json:"shortfall,omitempty"`
}

type refBridge struct {
	FromAge  int      `json:"fromAge"`
	ToAge    int      `json:"toAge"`
	Accounts []string `json:"accounts"`
}

type refHousePlan struct {
	Currency string `json:"currency"`
	refPlan
	Projections []refHouseYear `json:"projections"`
	LifetimeTax float64        `json:"lifetimeTax"`
	Bridge      []refBridge    `json:"bridge"`
	Baseline    struct {
		LifetimeTax       float64 `json:"lifetimeTax"`
		LifetimeTaxPV     float64 `json:"lifetimeTaxPV"`
		DepletionAge      *int    `json:"depletionAge"`
		EndBalanceReal    float64 `json:"endBalanceReal"`
		AfterTaxEndWealth float64 `json:"afterTaxEndWealth"`
	} `json:"baseline"`
}

type refHouseEnvelope struct {
	Success bool         `json:"success"`
	Data    refHousePlan `json:"data"`
}

// isHousehold reports whether the body asks for a household plan.
func (r *refRequest) isHousehold() bool {
	if r.Partner != nil || len(r.Accounts) > 0 || r.Conversions != nil || r.Tax != nil {
		return true
	}
	for _, p := range r.Pensions {
		if p.Owner == "partner" || (p.Kind != "" && p.Kind != "generic") {
			return true
		}
	}
	return false
}

// refHouseholds runs household bodies.
type refHouseholds struct{ taxes *taxtable.Table }

func newRefHouseholds() (*refHouseholds, error) {
	t, err := taxtable.Embedded()
	if err != nil {
		return nil, fmt.Errorf("cannot load the tax rules: %w", err)
	}
	return &refHouseholds{taxes: t}, nil
}

// serve answers a household body.
func (h *refHouseholds) serve(w http.ResponseWriter, req *refRequest) {
	p, err := h.plan(req)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, refError{Error: err.Error(), Code: "VALIDATION_ERROR"})
		return
	}
	in := plan.Inputs{Wrappers: h.taxes.Wrappers, Systems: h.system,
		Convert: func(amount float64, from, to string) (float64, bool) { return amount, from == to }}
	var res plan.Result
	if err := plan.Run(p, &in, &plan.Options{Step: 1, Window: 30, MaxContribution: 1e9, MaxWithdrawalRate: 0.2}, &res); err != nil {
		writeJSON(w, http.StatusBadRequest, refError{Error: err.Error(), Code: "VALIDATION_ERROR"})
		return
	}
	out := refHousePlanOf(&res.Plans[0], res.Taxed)
	out.Currency = res.Currency
	writeJSON(w, http.StatusOK, refHouseEnvelope{Success: true, Data: out})
}

func (h *refHouseholds) system(cc string) *tax.System {
	sys, _ := h.taxes.ByCountry(cc)
	return sys
}

// plan builds the household plan of req.
func (h *refHouseholds) plan(req *refRequest) (*plan.Plan, error) {
	switch {
	case len(req.Scenarios) > 0 || req.Historical != nil:
		return nil, errors.New("the reference answers household plans without scenarios and backtests")
	case len(req.Accounts) > household.MaxAccounts:
		return nil, fmt.Errorf("at most %d accounts", household.MaxAccounts)
	}
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = req.CurrentAge, req.AnnualIncome, req.AnnualExpenses
	in.StartYear = time.Now().Year()
	if req.StartYear != nil {
		in.StartYear = *req.StartYear
	}
	pens := req.Pensions
	req.Pensions = nil
	req.refParams.apply(&in)
	hh := &plan.Household{}
	if q := req.Partner; q != nil {
		pp := household.Person{Age: q.Age, LifeExpectancy: 95}
		if q.LifeExpectancy != nil {
			pp.LifeExpectancy = *q.LifeExpectancy
		}
		if q.AnnualIncome != nil {
			pp.Income = *q.AnnualIncome
		}
		if q.IncomeGrowthRate != nil {
			pp.IncomeGrowth = *q.IncomeGrowthRate
		}
		if q.RetirementAge != nil {
			pp.RetirementAge = *q.RetirementAge
		}
		hh.Partner = &pp
	}
	for _, a := range req.Accounts {
		x := household.Account{ID: a.ID, Type: a.Type, Balance: a.Balance, CostBasis: -1}
		if a.Owner == "partner" {
			x.Owner = 1
		}
		for _, f := range [...]struct {
			dst *float64
			v   *float64
		}{{&x.CostBasis, a.CostBasis}, {&x.Contribution, a.AnnualContribution}, {&x.Employer, a.EmployerContribution}} {
			if f.v != nil {
				*f.dst = *f.v
			}
		}
		hh.Accounts = append(hh.Accounts, x)
	}
	for _, x := range pens {
		owner := 0
		if x.Owner == "partner" {
			owner = 1
		}
		hh.Pensions = append(hh.Pensions, household.Pension{Owner: owner, FromAge: x.FromAge, Amount: x.Amount,
			Indexed: x.InflationLinked == nil || *x.InflationLinked, Kind: x.Kind})
	}
	if c := req.Conversions; c != nil {
		hh.Convert, hh.ConvertUpTo = true, c.UpToRate
	}
	p := &plan.Plan{Base: in, Household: hh}
	if t := req.Tax; t != nil {
		sys, ok := h.taxes.ByCountry(t.Country)
		if !ok {
			return nil, fmt.Errorf("no tax rules for %q", t.Country)
		}
		hh.Filing = t.Filing
		p.Tax = &plan.Tax{System: sys, Year: t.Year, Withdrawal: sys.Withdrawal.Part}
	}
	return p, nil
}

// refHousePlanOf is plan pr's summary and rows.
func refHousePlanOf(pr *plan.PlanResult, taxed bool) refHousePlan {
	h := pr.Household
	out := refHousePlan{refPlan: refPlanOf("", pr.Summary, nil), LifetimeTax: round(h.LifetimeTax, 2), Bridge: []refBridge{}}
	out.FINumber = round(pr.FINumber, 2)
	out.Baseline.LifetimeTax = round(h.Baseline.LifetimeTax, 2)
	out.Baseline.DepletionAge = optional(h.Baseline.DepletionAge, h.Baseline.DepletionAge >= 0)
	out.Baseline.EndBalanceReal = round(h.Baseline.EndReal, 2)
	out.Baseline.LifetimeTaxPV = round(h.Baseline.LifetimeTaxPV, 2)
	out.Baseline.AfterTaxEndWealth = round(h.Baseline.AfterTaxEnd, 2)
	for _, b := range h.Bridges {
		rb := refBridge{FromAge: b.FromAge, ToAge: b.ToAge, Accounts: []string{}}
		for _, i := range b.Accounts {
			rb.Accounts = append(rb.Accounts, h.IDs[i])
		}
		out.Bridge = append(out.Bridge, rb)
	}
	rows := refPlanOf("", pr.Summary, pr.Rows).Projections
	out.Projections = make([]refHouseYear, len(rows))
	for i := range rows {
		x, y := &h.Extra[i], &out.Projections[i]
		y.refYear = rows[i]
		if taxed {
			t := x.Tax
			y.Tax = &refHouseTax{IncomeTax: round(t.Income, 2), SocialContributions: round(t.Social, 2), CapitalTax: round(t.Capital, 2),
				Penalties: round(t.Penalties, 2), Total: round(t.Total, 2)}
		}
		y.PartnerAge = optional(x.PartnerAge, x.PartnerAge >= 0)
		y.Income.Employment, y.Income.Pensions = round(x.Employment, 2), round(x.Pensions, 2)
		y.Income.Yield, y.Income.Spousal, y.Income.Survivor = round(x.Yield, 2), round(x.Spousal, 2), round(x.Survivor, 2)
		for k, a := range h.Accounts(i) {
			y.Accounts = append(y.Accounts, refAccountYear{ID: h.IDs[k], StartBalance: round(a.Start, 2), Contributions: round(a.Contributions, 2),
				Growth: round(a.Growth, 2), Withdrawals: round(a.Withdrawals, 2), Conversions: round(a.Conversions, 2), EndBalance: round(a.End, 2)})
		}
		y.Residence = x.Residence
		y.OverLimit, y.RequiredWithdrawals = round(x.OverLimit, 2), round(x.Required, 2)
		y.Conversions, y.Shortfall = round(x.Converted, 2), round(x.Short, 2)
	}
	return out
}
