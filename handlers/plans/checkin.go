package plans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/compute/plan"
	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// A check-in runs the saved plan from this year: the stored input with
// its ages advanced by the years since its start, its savings replaced by
// the check-in's, and its scenarios and goals left out. The calculator
// computes it (CheckIn) and compute/plan reads the figures; this file
// rewrites the input and writes the answer.

// maxBalances and maxBalance bound a check-in's balances, as the
// calculator bounds accounts and savings.
const (
	maxBalances = 12
	maxBalance  = 1e11
)

var accountID = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// today is the check-in's money: one sum, or balances by account id.
type today struct {
	savings  *float64
	balances map[string]float64
}

// readToday reads the check-in's body. On a failure it has answered.
func (s *Handlers) readToday(c *rest.Ctx) (t today, ok bool) {
	var req checkInRequest
	if !rest.Decode(c, s.checkInSchema, &req) {
		return t, false
	}
	switch {
	case req.CurrentSavings != nil && req.Balances != nil:
		c.Fail("balances", "send balances or currentSavings, not both")
		return t, false
	case req.CurrentSavings == nil && req.Balances == nil:
		c.FailMissing("currentSavings", "missing required field: currentSavings or balances", "is required unless balances are sent")
		return t, false
	case req.CurrentSavings != nil:
		t.savings = req.CurrentSavings
		return t, true
	}
	d := json.NewDecoder(bytes.NewReader(req.Balances))
	d.UseNumber()
	var raw map[string]any
	if err := d.Decode(&raw); err != nil {
		c.Fail("balances", "must be an object of account ids and amounts")
		return t, false
	}
	if len(raw) > maxBalances {
		c.Fail("balances", "must hold at most "+strconv.Itoa(maxBalances)+" accounts")
		return t, false
	}
	t.balances = make(map[string]float64, len(raw))
	for _, id := range sortedKeys(raw) {
		if !accountID.MatchString(id) {
			c.Fail("balances."+id, "is not an account id: 1 to 32 characters of a-z, 0-9 and -")
			return t, false
		}
		n, isNum := raw[id].(json.Number)
		x, err := n.Float64()
		if !isNum || err != nil || x < 0 || x > maxBalance {
			c.Fail("balances."+id, "must be a number from 0 to 1e11")
			return t, false
		}
		t.balances[id] = x
	}
	return t, true
}

// advance moves m's age field key, when it is below age, to age.
func advance(m map[string]any, key string, age int) {
	if n, ok := m[key].(json.Number); ok {
		if v, err := n.Int64(); err == nil && int(v) < age {
			m[key] = age
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// rebase is the plan's input run from year with today's money: a
// calculator body and the savings it runs from. A balance naming no
// account of the plan, or currentSavings for a plan of accounts, is the
// caller's error, which field and msg name; an input that cannot be read
// is err.
func rebase(p *savedPlan, t today, year int) (body []byte, savings float64, field, msg string, err error) {
	d := json.NewDecoder(bytes.NewReader(p.Input))
	d.UseNumber()
	var in map[string]any
	if err := d.Decode(&in); err != nil {
		return nil, 0, "", "", err
	}
	start := p.CreatedAt.Year()
	if n, ok := in["startYear"].(json.Number); ok {
		if v, err := n.Int64(); err == nil {
			start = int(v)
		}
	}
	age := 0
	if n, ok := in["currentAge"].(json.Number); ok {
		v, _ := n.Int64()
		age = int(v)
	}
	age += max(0, year-start)
	in["currentAge"], in["startYear"] = age, year
	advance(in, "targetRetirementAge", age)
	// A partner ages with the plan: their age moves on by the same years,
	// and a retirement age already passed moves to today.
	if q, ok := in["partner"].(map[string]any); ok {
		if n, ok := q["age"].(json.Number); ok {
			if v, err := n.Int64(); err == nil {
				q["age"] = int(v) + max(0, year-start)
				advance(q, "retirementAge", int(v)+max(0, year-start))
			}
		}
	}
	delete(in, "scenarios")
	delete(in, "goals")
	accounts, hasAccounts := in["accounts"].([]any)
	switch {
	case hasAccounts && t.savings != nil:
		return nil, 0, "currentSavings", "the plan keeps its money in accounts: send balances by account id", nil
	case hasAccounts:
		seen := map[string]bool{}
		for _, a := range accounts {
			acc, ok := a.(map[string]any)
			if !ok {
				continue
			}
			id, _ := acc["id"].(string)
			if b, ok := t.balances[id]; ok {
				acc["balance"] = b
				seen[id] = true
			}
			if n, ok := acc["balance"].(json.Number); ok {
				v, _ := n.Float64()
				savings += v
			} else if v, ok := acc["balance"].(float64); ok {
				savings += v
			}
		}
		for _, id := range sortedKeys(t.balances) {
			if !seen[id] {
				return nil, 0, "balances." + id, "is not an account of the plan", nil
			}
		}
	case t.savings != nil:
		savings = *t.savings
		in["currentSavings"] = savings
	default:
		for _, b := range t.balances {
			savings += b
		}
		in["currentSavings"] = savings
	}
	body, err = json.Marshal(in)
	return body, savings, "", "", err
}

// CheckIn answers what the plan lets the caller spend this year and its
// success rates from today.
func (s *Handlers) CheckIn(c *rest.Ctx) {
	t, ok := s.readToday(c)
	if !ok {
		return
	}
	var p savedPlan
	if !s.load(c, &p) {
		return
	}
	year := s.now().Year()
	body, savings, field, msg, err := rebase(&p, t, year)
	switch {
	case err != nil:
		c.Internal(err)
		return
	case field != "":
		c.Fail(field, msg)
		return
	}
	if r := c.Result(); !s.calc.Validate(body, "input.", r) {
		why := r.Error
		if len(r.Details) > 0 {
			why = r.Details[0].Path + " " + r.Details[0].Message
		}
		age, err := ageOf(body)
		if err != nil {
			c.Internal(err)
			return
		}
		c.Error(errcode.Conflict, "the saved plan cannot be run from "+strconv.Itoa(year)+", at age "+strconv.Itoa(age)+": "+why+"; change the plan first")
		return
	}
	ci, currency, window, ok := s.calc.CheckIn(c, body)
	if !ok {
		return
	}
	expected, _, found := s.expected(c, &p, year)
	evs, err := s.guardrailEvent(c.Principal.User, &p, &ci, currency)
	if err != nil {
		c.Internal(err)
		return
	}
	more, err := store.Track(c.Principal.User, p.ID, p.Name, ci.Year, currency, savings, expected, found, ci.FINumber, s.now())
	if err != nil {
		c.Internal(err)
		return
	}
	if evs = append(evs, more...); len(evs) > 0 {
		if _, err := s.db.Emit(evs, s.now().UTC().Truncate(time.Second)); err != nil {
			c.Storage(err)
			return
		}
	}
	c.JSON(fasthttp.StatusOK, answer(&p, &ci, currency, window, savings))
}

// ageOf is the currentAge of a rebased body, for a message.
func ageOf(body []byte) (int, error) {
	var v struct {
		CurrentAge int `json:"currentAge"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return 0, fmt.Errorf("cannot read the rebased plan's currentAge: %w", err)
	}
	return v.CurrentAge, nil
}

func answer(p *savedPlan, ci *plan.CheckIn, currency string, window int, savings float64) *checkInData {
	a := &checkInData{PlanID: p.ID, Year: ci.Year, Age: ci.Age, Currency: currency, Savings: cents(savings),
		Strategy: ci.Strategy.String(), Retired: ci.Retired, Spending: cents(ci.Withdrawal), Portfolio: cents(ci.Portfolio), Rate: rate(ci.Rate),
		DrawdownAge: opt(ci.DrawdownAge), DrawdownYear: opt(ci.DrawdownYear), DepletionAge: opt(ci.DepletionAge)}
	if g := ci.Guardrails; g != nil {
		a.Guardrails = &guardrailsDoc{InitialRate: rate(g.InitialRate), CutAbove: rate(g.CutAbove), RaiseBelow: rate(g.RaiseBelow),
			CutBelowPortfolio: cents(g.CutBelowPortfolio), RaiseAbovePortfolio: cents(g.RaiseAbovePortfolio), Adjustment: g.Adjustment}
		if g.InflationCap > 0 {
			a.Guardrails.InflationCap = &g.InflationCap
		}
	}
	a.Success = successDoc{HistoricalWindows: ci.HistoricalWindows, WindowYears: window}
	if !math.IsNaN(ci.Historical) {
		v := rate(ci.Historical)
		a.Success.Historical = &v
	}
	if !math.IsNaN(ci.MonteCarlo) {
		v := rate(ci.MonteCarlo)
		a.Success.MonteCarlo = &v
	}
	return a
}

// opt is v, or nil when v is -1 (did not happen).
func opt(v int) *int {
	if v < 0 {
		return nil
	}
	return &v
}

func cents(v float64) float64 { return math.Round(v*100) / 100 }
func rate(v float64) float64  { return math.Round(v*1e4) / 1e4 }

// guardrailEvent is guardrail.crossed when the check-in's withdrawal
// rate left the plan's guardrail band: the band of the plan's own
// withdrawalRate (default 0.04), as wide as the strategy's guardrails;
// above it is the upper side, below it the lower. Its id is the plan's,
// the year's and the side's, so a check-in repeated within the year
// raises it once.
func (s *Handlers) guardrailEvent(user string, p *savedPlan, ci *plan.CheckIn, currency string) ([]store.Event, error) {
	g := ci.Guardrails
	if g == nil || ci.Portfolio <= 0 || g.InitialRate <= 0 {
		return nil, nil
	}
	var in struct {
		WithdrawalRate *float64 `json:"withdrawalRate"`
	}
	if err := json.Unmarshal(p.Input, &in); err != nil {
		return nil, fmt.Errorf("cannot read the plan's withdrawalRate: %w", err)
	}
	wr := 0.04
	if in.WithdrawalRate != nil {
		wr = *in.WithdrawalRate
	}
	cutAbove, raiseBelow := wr*g.CutAbove/g.InitialRate, wr*g.RaiseBelow/g.InitialRate
	side := ""
	switch {
	case ci.Rate > cutAbove:
		side = "upper"
	case ci.Rate < raiseBelow:
		side = "lower"
	default:
		return nil, nil
	}
	ev, err := s.event(store.GuardrailCrossed, user, p, map[string]any{"planId": p.ID, "planName": p.Name, "year": ci.Year, "side": side, "currency": currency,
		"withdrawalRate": rate(ci.Rate), "planRate": wr, "cutAbove": rate(cutAbove), "raiseBelow": rate(raiseBelow),
		"spending": cents(ci.Withdrawal), "portfolio": cents(ci.Portfolio)}, strconv.Itoa(ci.Year), side)
	return []store.Event{ev}, err
}

// expected is the portfolio the saved plan, run from its own start,
// expects at the start of year and its FI number then, each in that
// year's money. found is false when it expects none: the plan starts
// later, its run has no such year, or its input no longer runs.
func (s *Handlers) expected(c *rest.Ctx, p *savedPlan, year int) (balance, fiNumber float64, found bool) {
	path, found := s.calc.Path(c, p.Input, p.CreatedAt.Year())
	if !found {
		return 0, 0, false
	}
	return path.At(year)
}

// event is an event of type for p, with data as its figures (see
// store.PlanEvent).
func (s *Handlers) event(typ, user string, p *savedPlan, data map[string]any, key ...string) (store.Event, error) {
	return store.PlanEvent(typ, user, p.ID, s.now(), data, key...)
}
