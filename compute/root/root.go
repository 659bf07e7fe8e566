// Package root finds where a decreasing function stops being positive: the
// smallest x at which f(x) <= 0, within a caller's tolerance. It is the one
// root finder of the engines (a gross income that leaves a net after tax,
// a retirement income that meets spending after tax on gains).
//
// A search has two steps. Grow finds a bracket: a Lo where f is positive
// and a Hi where it is not, doubling Hi from a first guess. A Bracket then
// narrows by regula falsi with the Illinois modification (the secant of
// the bracket's ends, with the value kept at an end that stayed twice in
// a row halved so that end moves too), falling back to the midpoint when
// the secant leaves the bracket. The caller writes the loop, so each
// caller keeps its own stopping rule:
//
//	b, err := root.Grow(f, lo, hi, 1e15)
//	for i := 0; i < 100 && b.Width() > 0.01; i++ {
//		x := b.Next()
//		b.Narrow(x, f(x))
//	}
//	return b.Hi
//
// On a piecewise-linear f the secant lands on the root of the piece at
// once; a caller that stops there (f(x) within its tolerance of zero)
// takes a handful of evaluations where bisection to a cent takes twenty.
// Nothing here allocates.
package root

import (
	"errors"
	"fmt"
)

// ErrNoBracket is returned when the ends given do not hold a root: f is
// not positive at Lo, or still positive at Hi (after growing, at the
// limit).
var ErrNoBracket = errors.New("no root in the bracket")

// Bracket is an interval that holds the root: Lo < Hi, FLo = f(Lo) > 0 and
// FHi = f(Hi) <= 0. The zero value is not a bracket; make one with New or
// Grow.
type Bracket struct {
	Lo, Hi   float64
	FLo, FHi float64
	side     int // which end moved last: -1 Lo, +1 Hi, 0 neither yet
}

// New is the bracket [lo, hi] with f(lo) = flo and f(hi) = fhi; an
// ErrNoBracket when lo < hi, flo > 0 >= fhi does not hold.
func New(lo, flo, hi, fhi float64) (Bracket, error) {
	if !(lo < hi) || !(flo > 0) || !(fhi <= 0) {
		return Bracket{}, fmt.Errorf("cannot bracket [%g, %g] (f %g, %g): %w", lo, hi, flo, fhi, ErrNoBracket)
	}
	return Bracket{Lo: lo, Hi: hi, FLo: flo, FHi: fhi}, nil
}

// Grow is the bracket with lo at its low end when f(lo) > 0: hi, when
// above lo, is the first guess at the high end, else 2*lo (lo must then be
// positive); while f stays positive at the high end it becomes the low end
// and the high end doubles. ErrNoBracket when f(lo) <= 0, or f is still
// positive past limit.
func Grow(f func(float64) float64, lo, hi, limit float64) (Bracket, error) {
	return GrowFrom(f, lo, f(lo), hi, limit)
}

// GrowFrom is Grow with f(lo) = flo already known.
func GrowFrom(f func(float64) float64, lo, flo, hi, limit float64) (Bracket, error) {
	if !(flo > 0) {
		return Bracket{}, fmt.Errorf("cannot bracket from %g (f %g): %w", lo, flo, ErrNoBracket)
	}
	if !(hi > lo) {
		hi = 2 * lo
	}
	fhi := f(hi)
	for fhi > 0 {
		if !(hi <= limit) || !(hi > lo) {
			return Bracket{}, fmt.Errorf("cannot bracket below %g: %w", limit, ErrNoBracket)
		}
		lo, flo = hi, fhi
		hi *= 2
		fhi = f(hi)
	}
	return Bracket{Lo: lo, Hi: hi, FLo: flo, FHi: fhi}, nil
}

// Width is Hi - Lo.
func (b *Bracket) Width() float64 { return b.Hi - b.Lo }

// Next is the point to try: where the secant through the ends crosses
// zero, or the midpoint when that is not strictly inside the bracket.
func (b *Bracket) Next() float64 {
	x := b.Hi - b.FHi*(b.Hi-b.Lo)/(b.FHi-b.FLo)
	if !(x > b.Lo && x < b.Hi) {
		x = (b.Lo + b.Hi) / 2
	}
	return x
}

// Narrow moves an end to x, where f(x) = fx: Lo when fx > 0, else Hi. The
// value at the other end is halved when that end has now stayed twice in
// a row (the Illinois modification), so the next secant reaches past it.
func (b *Bracket) Narrow(x, fx float64) {
	if fx > 0 {
		b.Lo, b.FLo = x, fx
		if b.side == -1 {
			b.FHi /= 2
		}
		b.side = -1
		return
	}
	b.Hi, b.FHi = x, fx
	if b.side == 1 {
		b.FLo /= 2
	}
	b.side = 1
}
