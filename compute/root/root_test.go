package root_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"fiplan/compute/root"
)

// search is the plain loop a caller writes: narrow to tol, answer Hi.
func search(t *testing.T, f func(float64) float64, lo, hi, tol float64) (float64, int) {
	t.Helper()
	n := 0
	count := func(x float64) float64 { n++; return f(x) }
	b, err := root.Grow(count, lo, hi, 1e15)
	if err != nil {
		t.Fatalf("Grow(%g, %g): %v", lo, hi, err)
	}
	for i := 0; i < 100 && b.Width() > tol; i++ {
		x := b.Next()
		b.Narrow(x, count(x))
	}
	return b.Hi, n
}

func TestPiecewiseLinearFewEvaluations(t *testing.T) {
	t.Parallel()
	// net of a progressive tax: from 15,000 10%, 60,000 +12%, 110,000 +22%
	netOf := func(g float64) float64 {
		tax := 0.0
		for _, b := range [][2]float64{{15000, 0.10}, {60000, 0.12}, {110000, 0.22}} {
			if g > b[0] {
				tax += (g - b[0]) * b[1]
			}
		}
		return g - tax
	}
	for _, want := range []float64{20000, 36000, 70000, 105000, 400000} {
		f := func(g float64) float64 { return want - netOf(g) }
		x, n := search(t, f, want, 0, 0.01)
		if f(x) > 0 || f(x-0.01) <= 0 {
			t.Errorf("net %.0f: %.4f is not the smallest root within a cent (f %g, a cent less %g)", want, x, f(x), f(x-0.01))
		}
		// the loop has no early stop (the callers' is theirs to state),
		// so the bracket closes on the root from one side: no more than
		// bisection to a cent would take
		if n > 40 {
			t.Errorf("net %.0f: %d evaluations, want at most 40", want, n)
		}
	}
}

func TestSmoothAndFlatEnds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		f      func(float64) float64
		lo, hi float64
		root   float64
	}{
		{"cubic", func(x float64) float64 { return 1000 - x*x*x }, 1, 0, 10},
		{"exponential", func(x float64) float64 { return 50 - math.Exp(x/100) }, 1, 2, 100 * math.Log(50)},
		// the Illinois step moves a stuck end: plain regula falsi crawls here
		{"convex", func(x float64) float64 { return math.Pow(2, -x/10) - 0.001 }, 1, 2, 10 * math.Log2(1000)},
	}
	for _, c := range cases {
		x, n := search(t, c.f, c.lo, c.hi, 1e-9)
		if math.Abs(x-c.root) > 1e-6 {
			t.Errorf("%s: %v, want %v", c.name, x, c.root)
		}
		if n > 60 {
			t.Errorf("%s: %d evaluations", c.name, n)
		}
	}
}

func TestNoBracket(t *testing.T) {
	t.Parallel()
	pos := func(float64) float64 { return 1 }
	if _, err := root.Grow(pos, 1, 2, 1e6); !errors.Is(err, root.ErrNoBracket) {
		t.Errorf("f always positive: %v, want ErrNoBracket", err)
	}
	neg := func(float64) float64 { return -1 }
	if _, err := root.Grow(neg, 1, 2, 1e6); !errors.Is(err, root.ErrNoBracket) {
		t.Errorf("f not positive at lo: %v, want ErrNoBracket", err)
	}
	if _, err := root.Grow(pos, 0, 0, 1e6); !errors.Is(err, root.ErrNoBracket) {
		t.Errorf("lo 0 cannot double: %v, want ErrNoBracket", err)
	}
	if _, err := root.Grow(func(float64) float64 { return math.NaN() }, 1, 2, 1e6); !errors.Is(err, root.ErrNoBracket) {
		t.Errorf("NaN: %v, want ErrNoBracket", err)
	}
	for _, c := range [][4]float64{
		{2, 1, 1, -1},  // lo above hi
		{1, 1, 1, -1},  // empty
		{1, -1, 2, -1}, // not positive at lo
		{1, 1, 2, 1},   // positive at hi
		{1, math.NaN(), 2, -1},
	} {
		if _, err := root.New(c[0], c[1], c[2], c[3]); !errors.Is(err, root.ErrNoBracket) {
			t.Errorf("New%v: %v, want ErrNoBracket", c, err)
		}
	}
	b, err := root.New(1, 1, 2, 0)
	if err != nil || b.Lo != 1 || b.Hi != 2 {
		t.Errorf("New(1, 1, 2, 0) = %+v, %v", b, err)
	}
}

func TestNarrowKeepsBracket(t *testing.T) {
	t.Parallel()
	f := func(x float64) float64 { return 3 - x }
	b, err := root.New(0, f(0), 10, f(10))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		x := b.Next()
		if !(x > b.Lo && x < b.Hi) {
			t.Fatalf("Next %v outside (%v, %v)", x, b.Lo, b.Hi)
		}
		b.Narrow(x, f(x))
		if !(b.FLo > 0) || b.FHi > 0 {
			t.Fatalf("bracket lost: %+v", b)
		}
		if b.Width() < 1e-12 {
			break
		}
	}
	if b.Hi != 3 {
		t.Errorf("linear f: Hi %v, want the root 3 exactly", b.Hi)
	}
}

func TestAllocations(t *testing.T) {
	f := func(x float64) float64 { return 7 - x*x }
	if n := testing.AllocsPerRun(10, func() {
		b, _ := root.Grow(f, 1, 0, 100)
		for b.Width() > 1e-9 {
			x := b.Next()
			b.Narrow(x, f(x))
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// Example: the gross that leaves 40,000 after a flat 25% tax above 10,000.
func Example() {
	short := func(g float64) float64 { return 40000 - (g - 0.25*max(g-10000, 0)) }
	b, err := root.Grow(short, 40000, 0, 1e15)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 100 && b.Width() > 0.01; i++ {
		g := b.Next()
		b.Narrow(g, short(g))
	}
	fmt.Printf("%.2f\n", b.Hi)
	// Output: 50000.00
}
