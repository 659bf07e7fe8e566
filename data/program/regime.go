package program

import (
	"errors"
	"fmt"
	"strconv"

	"fiplan/compute/tax"
)

// Programs in the tax engine's form.
//
// A program's rules become tax.RegimeRules with their amounts in the
// currency of the country's tax system, the covered parts marked, and the
// breakdown labels that say what each rule does to each part ("pension
// (foreign source): flat 7%"). A program the engine cannot apply keeps a
// sentence saying why, which the API shows beside it.

// Rates converts an amount between two currencies (ISO 4217 codes),
// reporting false when it has no rate; data/fx's Table is one.
type Rates interface {
	Convert(amount float64, from, to string) (float64, bool)
}

// Offer is the program in engine form for its country's tax system sys
// (nil when the country has no tax parameters). Rule amounts in another
// currency than sys's are converted with fx (nil: such rules do not
// convert). When the program cannot be calculated the offer has no rules
// and Why says why.
func (p *Program) Offer(sys *tax.System, fx Rates) tax.Offer {
	o := tax.Offer{ID: p.ID, Label: p.Name, Closed: p.Status == StatusClosed}
	if sys == nil {
		o.Why = "no tax parameters for " + p.Country + " yet: the program can be read but not calculated"
		return o
	}
	rules, err := p.Regime(sys.Currency, fx)
	if err != nil {
		o.Why = err.Error()
		return o
	}
	o.Rules = rules
	return o
}

// Regime converts every rule of the program, amounts in cur. The error
// says, as a sentence for the reader of the program, why the engine cannot
// apply it: no rules, too many, or a rule that does not convert.
func (p *Program) Regime(cur string, fx Rates) ([]tax.ScopedRule, error) {
	switch {
	case len(p.Rules) == 0:
		return nil, errors.New("the program has no rules the calculator can apply; its summary, eligibility and notes describe it")
	case len(p.Rules) > tax.MaxRegimeRules:
		return nil, errors.New("the program has more rules than the calculator applies")
	}
	out := make([]tax.ScopedRule, 0, len(p.Rules))
	for i := range p.Rules {
		sr, err := p.Rules[i].Regime(cur, fx)
		if err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, nil
}

var partByName = func() map[IncomePart]tax.Part {
	m := make(map[IncomePart]tax.Part, tax.NumParts)
	for p := tax.Part(0); p < tax.NumParts; p++ {
		m[IncomePart(p.String())] = p
	}
	return m
}()

var originOf = map[Scope]tax.Origin{ScopeAll: tax.OriginAll, ScopeForeign: tax.OriginForeign, ScopeDomestic: tax.OriginDomestic}

// Regime converts one rule, with amounts in cur (converted from the rule's
// currency with fx where they differ).
func (r *Rule) Regime(cur string, fx Rates) (tax.ScopedRule, error) {
	t, ok := tax.ParseTreatment(string(r.Type))
	if !ok {
		return tax.ScopedRule{}, errors.New("rule type " + string(r.Type) + " is not one the calculator applies")
	}
	origin, ok := originOf[r.Scope]
	if !ok {
		return tax.ScopedRule{}, fmt.Errorf("scope %q is not one the calculator applies", r.Scope)
	}
	money := func(v *float64) (float64, bool) {
		switch {
		case v == nil:
			return 0, true
		case r.Currency == cur:
			return *v, true
		case fx == nil:
			return 0, false
		}
		return fx.Convert(*v, r.Currency, cur)
	}
	er := tax.RegimeRule{Treatment: t}
	var oks [4]bool
	er.Amount, oks[0] = money(r.Amount)
	er.Floor, oks[1] = money(r.IncomeFloor)
	er.Cap, oks[2] = money(r.IncomeCap)
	er.ReliefCap, oks[3] = money(r.ReliefCap)
	for _, ok := range oks {
		if !ok {
			return tax.ScopedRule{}, errors.New("its amounts in " + r.Currency + " cannot be converted to " + cur)
		}
	}
	if r.Rate != nil {
		er.Rate = *r.Rate
	}
	if r.Fraction != nil {
		er.Fraction = *r.Fraction
	}
	what := describe(&er, cur)
	for _, in := range r.Incomes {
		p, ok := partByName[in]
		if !ok {
			return tax.ScopedRule{}, fmt.Errorf("income part %q is not one the calculator knows", in)
		}
		er.Parts[p] = true
		er.PartLabels[p] = string(in) + " (" + string(r.Scope) + " source): " + what
	}
	return tax.ScopedRule{Rule: er, Origin: origin}, nil
}

// describe says what er does to the income it covers, and sets the label of
// the rule's own line where it has one.
func describe(er *tax.RegimeRule, cur string) string {
	var what string
	switch er.Treatment {
	case tax.TreatFlat:
		what = "flat " + percent(er.Rate)
		if er.Cap > 0 {
			what += " up to " + amount(er.Cap) + " " + cur
		}
	case tax.TreatExempt:
		what = "exempt"
	case tax.TreatPartialExempt:
		what = percent(er.Fraction) + " exempt"
		switch {
		case er.Floor > 0 && er.Cap > 0:
			what += " (of the income between " + amount(er.Floor) + " and " + amount(er.Cap) + " " + cur + ")"
		case er.Floor > 0:
			what += " (of the income above " + amount(er.Floor) + " " + cur + ")"
		case er.Cap > 0:
			what += " (of the income up to " + amount(er.Cap) + " " + cur + ")"
		}
		if er.ReliefCap > 0 {
			what += ", at most " + amount(er.ReliefCap) + " " + cur
		}
	case tax.TreatLumpSum:
		what = "covered by the lump sum"
		er.Label = "lump sum of " + amount(er.Amount) + " " + cur
	case tax.TreatMinimumTax:
		what = "counts towards the minimum tax"
		er.Label = "top-up to the minimum tax of " + amount(er.Amount) + " " + cur
	}
	return what
}

func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" }

func amount(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
