package health

import (
	"math"
	"math/rand/v2"
	"testing"
)

const propIterations = 20_000

// randomPortfolio draws a well-formed portfolio: positive values, valid
// classes and regions, context fields present or absent at random.
func randomPortfolio(rng *rand.Rand) Portfolio {
	n := 1 + rng.IntN(30)
	p := Portfolio{Holdings: make([]Holding, n)}
	for i := range p.Holdings {
		h := &p.Holdings[i]
		h.Name = "h"
		h.Value = math.Exp(rng.Float64()*12) + 1 // 2 .. ~160,000, skewed
		h.AssetClass = AssetClass(rng.IntN(NumAssetClasses))
		h.Region = Region(rng.IntN(numRegions))
		if rng.IntN(3) > 0 {
			h.HasExpenseRatio = true
			h.ExpenseRatio = rng.Float64() * rng.Float64() * 0.03
		}
	}
	c := &p.Context
	if rng.IntN(4) > 0 {
		c.Age, c.HasAge = 18+rng.Float64()*70, true
	}
	if rng.IntN(4) > 0 {
		c.TargetRetirementAge, c.HasTargetRetirementAge = 30+rng.Float64()*40, true
	}
	if rng.IntN(4) > 0 {
		c.AnnualExpenses, c.HasAnnualExpenses = 5_000+rng.Float64()*150_000, true
	}
	if rng.IntN(4) > 0 {
		c.EmergencyFund, c.HasEmergencyFund = rng.Float64()*80_000, true
	}
	c.RiskTolerance = RiskTolerance(rng.IntN(4))
	return p
}

// wildPortfolio draws anything: zero, negative, NaN, Inf and huge values,
// out-of-range enums, an empty portfolio.
func wildPortfolio(rng *rand.Rand) Portfolio {
	num := func() float64 {
		switch rng.IntN(10) {
		case 0:
			return 0
		case 1:
			return math.NaN()
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3:
			return -rng.Float64() * 1e6
		case 4:
			return rng.Float64() * 1e300
		case 5:
			return math.SmallestNonzeroFloat64 * float64(rng.IntN(10))
		}
		return rng.Float64() * 1e6
	}
	n := rng.IntN(60)
	p := Portfolio{Holdings: make([]Holding, n), Currency: []string{"", "USD", "EUR", "GBP", "JPY"}[rng.IntN(5)]}
	for i := range p.Holdings {
		p.Holdings[i] = Holding{
			Value: num(), AssetClass: AssetClass(rng.IntN(256)), ExpenseRatio: num() / 1e6,
			HasExpenseRatio: rng.IntN(2) == 0, Region: Region(rng.IntN(256)),
		}
	}
	p.Context = Context{
		Age: num() / 1e4, HasAge: rng.IntN(2) == 0,
		AnnualExpenses: num(), HasAnnualExpenses: rng.IntN(2) == 0,
		RiskTolerance:       RiskTolerance(rng.IntN(256)),
		TargetRetirementAge: num() / 1e4, HasTargetRetirementAge: rng.IntN(2) == 0,
		EmergencyFund: num(), HasEmergencyFund: rng.IntN(2) == 0,
	}
	return p
}

// nearPerfect perturbs the perfect portfolio a little, so that scores at and
// just below 1000 are both exercised.
func nearPerfect(rng *rand.Rand) Portfolio {
	p := perfect()
	p.Holdings = append([]Holding(nil), p.Holdings...)
	for i := range p.Holdings {
		p.Holdings[i].Value *= 1 + (rng.Float64()-0.5)*0.3
		if p.Holdings[i].HasExpenseRatio {
			p.Holdings[i].ExpenseRatio *= 1 + rng.Float64()*3
		}
	}
	p.Context.Age += (rng.Float64() - 0.5) * 6
	p.Context.AnnualExpenses *= 0.7 + rng.Float64()*0.8
	return p
}

func TestPropertyInvariants(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var full, partial int
	var r Result
	for i := 0; i < propIterations; i++ {
		var p Portfolio
		switch i % 3 {
		case 0:
			p = randomPortfolio(rng)
		case 1:
			p = wildPortfolio(rng)
		default:
			p = nearPerfect(rng)
		}
		Score(&p, &r)
		checkInvariants(t, &p, &r)
		if r.Score == MaxScore {
			full++
		} else {
			partial++
		}
	}
	if full < 100 || partial < 100 {
		t.Fatalf("generators do not cover both sides of 1000: %d full, %d partial", full, partial)
	}
}

func TestPropertyScoreIsDeterministicAndResultReusable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	var reused Result
	for i := 0; i < 2000; i++ {
		p := wildPortfolio(rng)
		Score(&p, &reused) // reused holds the previous portfolio's result
		var fresh Result
		Score(&p, &fresh)
		if reused != fresh {
			t.Fatalf("reused result differs from a fresh one")
		}
	}
}

// lookThroughOf returns the look-through count of a holding as scored.
func lookThroughOf(h *Holding) float64 {
	_, stated := expenseRatio(h)
	return lookThrough(h.AssetClass.norm(), stated)
}

// Adding a holding of an asset class the portfolio does not hold yet never
// lowers diversification, provided the new holding is no larger than the
// average holding, no more concentrated than the most spread existing holding
// (a fund next to funds), and, if it is equity, a global fund.
func TestPropertyNewAssetClassNeverLowersDiversification(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	checked, raised := 0, 0
	var before, after Result
	for i := 0; i < propIterations; i++ {
		p := randomPortfolio(rng)
		Score(&p, &before)
		held := [NumAssetClasses]bool{}
		maxK := 0.0
		for j := range p.Holdings {
			held[p.Holdings[j].AssetClass] = true
			maxK = math.Max(maxK, lookThroughOf(&p.Holdings[j]))
		}
		var free []AssetClass
		for c := AssetClass(0); c < NumAssetClasses; c++ {
			if !held[c] {
				free = append(free, c)
			}
		}
		if len(free) == 0 {
			continue
		}
		h := Holding{Name: "new", AssetClass: free[rng.IntN(len(free))], Region: Region(rng.IntN(numRegions))}
		h.Value = before.Metrics.Total / float64(before.Metrics.Holdings) * (0.01 + 0.99*rng.Float64())
		if h.AssetClass == Equity {
			h.Region = Global
		}
		if rng.IntN(2) == 0 || maxK > 1 {
			h.HasExpenseRatio, h.ExpenseRatio = true, rng.Float64()*0.01
		}
		if lookThroughOf(&h) < maxK {
			continue // a single security next to funds adds concentration
		}
		q := p
		q.Holdings = append(append([]Holding(nil), p.Holdings...), h)
		Score(&q, &after)
		checked++
		b, a := before.Components[Diversification].Score, after.Components[Diversification].Score
		if a < b {
			t.Fatalf("adding %+v lowered diversification %d -> %d\nbefore %+v\nafter %+v", h, b, a, before.Metrics, after.Metrics)
		}
		if a > b {
			raised++
		}
	}
	if checked < propIterations/4 || raised < checked/10 {
		t.Fatalf("too few effective cases: %d checked, %d raised", checked, raised)
	}
}

func TestPropertyLowerFeesNeverLowerCostEfficiency(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	var before, after Result
	improved := 0
	for i := 0; i < propIterations; i++ {
		p := randomPortfolio(rng)
		Score(&p, &before)
		q := p
		q.Holdings = append([]Holding(nil), p.Holdings...)
		for j := range q.Holdings {
			if q.Holdings[j].HasExpenseRatio && rng.IntN(2) == 0 {
				q.Holdings[j].ExpenseRatio *= rng.Float64()
			}
		}
		Score(&q, &after)
		b, a := before.Components[CostEfficiency].Score, after.Components[CostEfficiency].Score
		if a < b {
			t.Fatalf("lower fees lowered cost efficiency %d -> %d", b, a)
		}
		if a > b {
			improved++
		}
		if after.Components[Diversification] != before.Components[Diversification] {
			t.Fatalf("a fee change moved diversification")
		}
	}
	if improved < propIterations/10 {
		t.Fatalf("only %d of %d fee cuts improved the score", improved, propIterations)
	}
}

func TestPropertyDiversifiedLowCostBeatsSingleSpeculativeHolding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	var good, bad Result
	minGap := MaxScore
	for i := 0; i < propIterations; i++ {
		total := 10_000 + rng.Float64()*2_000_000
		eq := 0.5 + rng.Float64()*0.2
		cash := 0.05 + rng.Float64()*0.05
		ctx := Context{RiskTolerance: RiskTolerance(rng.IntN(4))}
		if rng.IntN(2) == 0 {
			ctx.Age, ctx.HasAge = 20+rng.Float64()*50, true
			if rng.IntN(2) == 0 {
				ctx.TargetRetirementAge, ctx.HasTargetRetirementAge = ctx.Age+rng.Float64()*30, true
			}
		}
		if rng.IntN(2) == 0 {
			ctx.AnnualExpenses, ctx.HasAnnualExpenses = 10_000+rng.Float64()*100_000, true
		}
		if rng.IntN(2) == 0 {
			ctx.EmergencyFund, ctx.HasEmergencyFund = rng.Float64()*50_000, true
		}
		diversified := Portfolio{Context: ctx, Holdings: []Holding{
			{Name: "world", Value: total * eq * 0.6, AssetClass: Equity, ExpenseRatio: 0.0003 + rng.Float64()*0.0015, HasExpenseRatio: true, Region: Global},
			{Name: "europe", Value: total * eq * 0.4, AssetClass: Equity, ExpenseRatio: 0.0003 + rng.Float64()*0.0015, HasExpenseRatio: true, Region: Europe},
			{Name: "bonds", Value: total * (1 - eq - cash), AssetClass: Bond, ExpenseRatio: 0.0003 + rng.Float64()*0.0015, HasExpenseRatio: true},
			{Name: "cash", Value: total * cash, AssetClass: Cash},
		}}
		speculative := Portfolio{Context: ctx, Holdings: []Holding{
			{Name: "coin", Value: total, AssetClass: Crypto, ExpenseRatio: 0.01 + rng.Float64()*0.03, HasExpenseRatio: true},
		}}
		Score(&diversified, &good)
		Score(&speculative, &bad)
		if gap := good.Score - bad.Score; gap < minGap {
			minGap = gap
		}
	}
	if minGap <= 300 {
		t.Fatalf("diversified low-cost portfolio beat a single speculative holding by only %d points", minGap)
	}
	t.Logf("smallest gap %d points", minGap)
}

func TestZeroAllocations(t *testing.T) {
	p := benchPortfolio(50)
	var r Result
	if n := testing.AllocsPerRun(200, func() { Score(&p, &r) }); n != 0 {
		t.Fatalf("Score allocates %v times", n)
	}
	if r.NumRecs == 0 {
		t.Fatal("benchmark portfolio has no recommendations to render")
	}
	buf := make([]byte, 0, 8192)
	if n := testing.AllocsPerRun(200, func() {
		buf = buf[:0]
		for i := range r.Recommendations() {
			buf = AppendTitle(buf, &r.Recs[i])
			buf = AppendDetail(buf, &r.Recs[i])
		}
	}); n != 0 {
		t.Fatalf("rendering allocates %v times", n)
	}
}

// benchPortfolio is a realistic n-holding portfolio with issues in every
// component, so that recommendations are produced.
func benchPortfolio(n int) Portfolio {
	rng := rand.New(rand.NewPCG(11, 12))
	p := Portfolio{Holdings: make([]Holding, n), Currency: "USD", Context: Context{
		Age: 38, HasAge: true, TargetRetirementAge: 55, HasTargetRetirementAge: true,
		AnnualExpenses: 48_000, HasAnnualExpenses: true, RiskTolerance: RiskMedium,
	}}
	names := []string{"Total Market Index", "Active Growth Fund", "ACME Corp", "Bond Index", "Savings", "Bitcoin", "Rental Flat", "Gold ETC"}
	for i := range p.Holdings {
		c := AssetClass(i % NumAssetClasses)
		h := Holding{Name: names[i%len(names)], Value: 1_000 + rng.Float64()*40_000, AssetClass: c, Region: Region(1 + i%5)}
		if i%3 != 0 {
			h.HasExpenseRatio, h.ExpenseRatio = true, 0.0003+rng.Float64()*0.015
		}
		p.Holdings[i] = h
	}
	p.Holdings[2].Value = 400_000 // one dominant stock
	p.Holdings[2].HasExpenseRatio = false
	return p
}
