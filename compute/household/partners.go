package household

import "math"

// partners sets what each partner is paid on the other's record: the
// spouse's benefit while both live and the survivor's after a death
// (Benefit.Spousal, Benefit.Survivor). A person's own benefit of the kind
// is claimed at its pension's age; one without it claims on the partner's
// record as early as the rules let them.
func (e *engine) partners() {
	e.share = [2]shared{{k: -1}, {k: -1}}
	if e.np != 2 {
		return
	}
	var own [2]int // each person's pension of a benefit paid between partners
	for i := range own {
		own[i] = -1
		for k := range e.p.Pensions {
			q := &e.p.Pensions[k]
			if q.Owner == i && q.Benefit != nil && (q.Benefit.Spousal != nil || q.Benefit.Survivor != nil) && own[i] < 0 {
				own[i] = k
			}
		}
	}
	for i := 0; i < 2; i++ {
		j := 1 - i
		kj := own[j]
		if kj < 0 {
			continue
		}
		pj := &e.p.Pensions[kj]
		b := pj.Benefit
		if own[i] >= 0 && e.p.Pensions[own[i]].Benefit != b {
			continue
		}
		s := &e.share[i]
		s.k = kj
		me, them := &e.ppl[i], &e.ppl[j]
		gap := me.age0 - them.age0 // the recipient's age less the partner's
		var pia, start float64     // the recipient's own amount at the normal age, and its claim
		if own[i] >= 0 {
			q := &e.p.Pensions[own[i]]
			pia, start = q.Amount, b.Start(me.birth, float64(q.FromAge))
			s.own = pia * e.benefitFactor[own[i]]
		}
		theirStart := b.Start(them.birth, float64(pj.FromAge))
		if sp := b.Spousal; sp != nil {
			normal := ByBirth(b.NormalAge, me.birth)
			from := max(theirStart+float64(gap), b.Earliest)
			if own[i] >= 0 {
				from = max(from, start)
			} else {
				from = max(from, normal)
			}
			if x := sp.Share*pj.Amount - pia; x > 0 {
				s.spousal = x * sp.Factor(normal, from)
				s.spousalFrom = int(math.Ceil(from - 1e-9))
			}
		}
		if sv := b.Survivor; sv != nil {
			death := them.end // the first age the partner is not alive
			base := pj.Amount
			switch {
			case float64(death) > theirStart: // they had claimed
				f := e.benefitFactor[kj]
				base = pj.Amount * f
				if f < 1 {
					base = max(base, sv.Floor*pj.Amount)
				}
			case float64(death) >= ByBirth(b.NormalAge, them.birth):
				base = pj.Amount * b.Factor(them.birth, float64(death))
			}
			claim := max(float64(death+gap), sv.Earliest)
			s.late = float64(death+gap) < sv.Earliest
			if own[i] >= 0 {
				claim = max(claim, start)
			}
			s.survivor = base * sv.Factor(me.birth, claim)
			s.survivorFrom = int(math.Ceil(claim - 1e-9))
		}
	}
}

// partnerBenefits pays the year's spouse's and survivor's benefits.
func (e *engine) partnerBenefits(ys *yearState) {
	for i := 0; i < e.np; i++ {
		s := &e.share[i]
		if s.k < 0 || !ys.alive[i] {
			continue
		}
		age := ys.age[i]
		a := 0.0
		switch {
		case ys.alive[1-i] && s.spousal > 0 && age >= s.spousalFrom && ys.age[1-i] >= e.pensionFrom[s.k]:
			a = s.spousal * ys.cpi
			ys.row.Spousal += a
		case !ys.alive[1-i] && s.survivor > 0 && age >= s.survivorFrom:
			a = max(0, s.survivor-s.own) * ys.cpi
			ys.row.Survivor += a
		}
		if a > 0 {
			e.benefitIncome(ys, &e.p.Pensions[s.k], i, a)
		}
	}
}
