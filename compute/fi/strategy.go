package fi

import "fmt"

// Strategy selects how drawdown withdrawals are set.
type Strategy uint8

// Withdrawal strategies; the package documentation gives each one's rule and
// source.
const (
	StrategyConstant Strategy = iota
	StrategyFixedPercent
	StrategyGuytonKlinger
	StrategyVPW
	StrategyNinetyFive
	StrategyFloorCeiling
	StrategyCAPE
	StrategyVanguard
	StrategyGuardrailsCapped

	numStrategies = iota
)

var strategyNames = [numStrategies]string{
	StrategyConstant:         "constant",
	StrategyFixedPercent:     "fixed-percentage",
	StrategyGuytonKlinger:    "guyton-klinger",
	StrategyVPW:              "vpw",
	StrategyNinetyFive:       "95-percent",
	StrategyFloorCeiling:     "floor-ceiling",
	StrategyCAPE:             "cape",
	StrategyVanguard:         "vanguard-dynamic",
	StrategyGuardrailsCapped: "guardrails-capped",
}

// StrategyNames lists the API names of every strategy, in Strategy order.
func StrategyNames() []string { return strategyNames[:] }

// String returns the API name, such as "constant" or "guyton-klinger".
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return strategyNames[StrategyConstant]
}

// ParseStrategy maps an API name to a Strategy.
func ParseStrategy(name string) (Strategy, bool) {
	for s, n := range strategyNames {
		if n == name {
			return Strategy(s), true
		}
	}
	return StrategyConstant, false
}

// MarshalText implements encoding.TextMarshaler.
func (s Strategy) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Strategy) UnmarshalText(b []byte) error {
	v, ok := ParseStrategy(string(b))
	if !ok {
		return fmt.Errorf("unknown withdrawal strategy %q (want one of %v)", b, strategyNames)
	}
	*s = v
	return nil
}

// canRunOut reports whether the strategy can promise spending the portfolio
// cannot pay; the others withdraw a share of the balance and cannot fail.
func (s Strategy) canRunOut() bool {
	switch s {
	case StrategyFixedPercent, StrategyVPW, StrategyCAPE:
		return false
	}
	return true
}

// spendState is what the strategies remember from one drawdown year to the
// next.
type spendState struct {
	started bool
	w       float64 // last withdrawal, in that year's money
	wReal   float64 // last withdrawal, in today's money
	first   float64 // first withdrawal, in today's money
	iwr     float64 // initial withdrawal rate (Guyton-Klinger)
}

// withdrawal is the strategy's withdrawal for drawdown year t, the pension
// income to reinvest (constant strategy only), and whether the strategy can
// fail to meet it. bal is the balance at the start of the year, cpi the price
// index then, pen the pension paid this year, cape the year's CAPE from the
// path replayed (0 when unknown); lastRet and lastInfl are last year's return
// and inflation.
func (p *plan) withdrawal(o *outcome, sp *spendState, t int, bal, cpi, pen, cape, lastRet, lastInfl float64) (wd, contrib float64, canFail bool) {
	need := p.retExp * cpi
	left := p.n - t
	switch p.strategy {
	case StrategyFixedPercent:
		wd = p.wr * bal
	case StrategyVPW:
		wd = bal * p.vpw[left]
	case StrategyGuytonKlinger, StrategyGuardrailsCapped:
		infl := lastInfl
		if p.strategy == StrategyGuardrailsCapped {
			infl = min(infl, GuardrailInflationCap)
		}
		var cut, raise bool
		wd, cut, raise = p.guytonKlinger(sp, bal, need, pen, lastRet, infl, left)
		o.cuts += b2i(cut)
		o.raises += b2i(raise)
	case StrategyNinetyFive:
		wd = p.wr * bal
		if sp.started {
			wd = max(wd, NinetyFiveShare*sp.w)
		}
	case StrategyFloorCeiling:
		wd = p.wr * bal
		if sp.started {
			wd = min(max(wd, FloorShare*sp.first*cpi), CeilingShare*sp.first*cpi)
		}
	case StrategyCAPE:
		wd = p.capeRate(cape) * bal
	case StrategyVanguard:
		wd = p.wr * bal
		if sp.started {
			prev := sp.wReal * cpi
			wd = min(max(wd, prev*(1-VanguardFloor)), prev*(1+VanguardCeiling))
		}
	default:
		wd, contrib = constantWithdrawal(need, pen)
	}
	if !sp.started {
		sp.started, sp.first = true, wd/cpi
	}
	sp.w, sp.wReal = wd, wd/cpi
	return wd, contrib, p.strategy.canRunOut()
}

// constantWithdrawal is the constant strategy's year: the spending need
// net of pensions is withdrawn, a pension surplus is reinvested.
func constantWithdrawal(need, pen float64) (wd, contrib float64) {
	return max(0, need-pen), max(0, pen-need)
}

// capeRate is the CAPE rule's withdrawal rate: CAPEBase + CAPESlope / CAPE,
// with the year's CAPE from the path replayed where known (cape > 0), else
// Input.CAPE; WithdrawalRate when neither is known.
func (p *plan) capeRate(cape float64) float64 {
	c := p.cape
	if cape > 0 {
		c = cape
	}
	if c <= 0 {
		return p.wr
	}
	return CAPEBase + CAPESlope/c
}

// guytonKlinger returns this year's withdrawal under the Guyton-Klinger
// decision rules (see the package documentation) and whether it was a
// capital-preservation cut or a prosperity raise; lastInfl is the raise the
// withdrawal rule grants. The first call fixes the initial withdrawal rate
// from the spending need less pensions.
func (p *plan) guytonKlinger(g *spendState, bal, need, pen, lastRet, lastInfl float64, left int) (wd float64, cut, raise bool) {
	if !g.started {
		w := max(0, need-pen)
		g.iwr = p.wr
		if bal > 0 {
			g.iwr = w / bal
		}
		return w, false, false
	}
	w := g.w
	if bal > 0 {
		if !(lastRet < 0 && w/bal > g.iwr) {
			w *= 1 + lastInfl
		}
		cr := w / bal
		if cr > g.iwr*(1+GKGuardrail) && left > GKPreservationN {
			w *= 1 - GKAdjustment
			cut = true
		} else if cr < g.iwr*(1-GKGuardrail) {
			w *= 1 + GKAdjustment
			raise = true
		}
	}
	return w, cut, raise
}
