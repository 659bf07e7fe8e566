package geo

// Compared is one city of a comparison, against the first (the reference).
type Compared struct {
	City     int     // index in the cities compared from
	Lines    Lines   // the monthly budget in the style
	Total    int     // Lines.Total()
	Annual   int     // 12 x Total
	FINumber float64 // the portfolio that sustains the spending: 12 x Total / withdrawal rate

	// Ratio is each line divided by the reference's same line; TotalRatio
	// the totals'. Both are 1 for the reference.
	Ratio      [NumLines]float64
	TotalRatio float64

	// Further is the reference's total divided by this city's: money goes
	// this many times further here than there.
	Further float64
	Verdict Verdict
}

// Verdict is what a comparison says of one city against the reference.
type Verdict uint8

// The verdicts. Within 5% either way money goes about as far.
const (
	VerdictReference Verdict = iota // the reference itself
	VerdictFurther                  // money goes at least 1.05 x further here
	VerdictDearer                   // money goes at most 1/1.05 as far here
	VerdictSame                     // in between
)

// sameBand is the factor within which two costs count as about the same.
const sameBand = 1.05

// Compare appends to dst one entry per city named by idx (indexes in
// cities), in that order, in the spending style, at the withdrawal rate
// (above 0). The first is the reference every ratio is taken against.
func Compare(dst []Compared, cities []City, idx []int, style Style, rate float64) []Compared {
	start := len(dst)
	for k, i := range idx {
		e := Compared{City: i, Lines: StyleLines(&cities[i], style)}
		e.Total = e.Lines.Total()
		e.Annual = e.Total * 12
		e.FINumber = float64(e.Total) * 12 / rate
		dst = append(dst, e)
		ref := &dst[start]
		p := &dst[start+k]
		for j := range NumLines {
			p.Ratio[j] = float64(p.Lines[j]) / float64(ref.Lines[j])
		}
		p.TotalRatio = float64(p.Total) / float64(ref.Total)
		p.Further = float64(ref.Total) / float64(p.Total)
		switch {
		case k == 0:
			p.Verdict = VerdictReference
		case p.Further >= sameBand:
			p.Verdict = VerdictFurther
		case p.Further <= 1/sameBand:
			p.Verdict = VerdictDearer
		default:
			p.Verdict = VerdictSame
		}
	}
	return dst
}

// AppendSummary appends the verdict of e in words: how far money goes in
// city (e's city) against ref (the reference).
func AppendSummary(dst []byte, e *Compared, city, ref *City) []byte {
	switch e.Verdict {
	case VerdictReference:
		dst = append(dst, "The reference: every ratio compares a city with "...)
		return append(dst, city.Name...)
	case VerdictFurther:
		dst = append(dst, "Your money goes "...)
		dst = appendTenths(dst, e.Further)
		dst = append(dst, "x further in "...)
		dst = append(dst, city.Name...)
		dst = append(dst, " than in "...)
	case VerdictDearer:
		dst = append(dst, "Living in "...)
		dst = append(dst, city.Name...)
		dst = append(dst, " costs "...)
		dst = appendTenths(dst, 1/e.Further)
		dst = append(dst, "x as much as in "...)
	default:
		dst = append(dst, "Costs about the same as "...)
	}
	return append(dst, ref.Name...)
}
