package fi

import "math"

// normal draws standard normal variates for Monte Carlo: a ziggurat
// (Marsaglia and Tsang, "The Ziggurat Method for Generating Random
// Variables", Journal of Statistical Software 5(8), 2000) with 256 layers
// over xoshiro256++ (Blackman and Vigna, "Scrambled Linear Pseudorandom
// Number Generators", 2018). One 64-bit draw gives the layer (its low 8
// bits) and a signed uniform (its high 56 bits), so the layer and the value
// are independent bits (Doornik's remedy for the original's correlation);
// about 99% of draws return after one table compare. The zero value is not
// ready: seed it first.
type normal struct {
	s0, s1, s2, s3 uint64
}

// seed sets the state from a 64-bit seed through splitmix64, which never
// leaves xoshiro's state all zero.
func (g *normal) seed(seed uint64) {
	next := func() uint64 {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	g.s0, g.s1, g.s2, g.s3 = next(), next(), next(), next()
}

// uint64 is xoshiro256++'s next output.
func (g *normal) uint64() uint64 {
	s0, s1, s2, s3 := g.s0, g.s1, g.s2, g.s3
	out := rotl(s0+s3, 23) + s0
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	s3 = rotl(s3, 45)
	g.s0, g.s1, g.s2, g.s3 = s0, s1, s2, s3
	return out
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// uniform is in (0, 1]: never zero, so its logarithm is finite.
func (g *normal) uniform() float64 {
	return float64(g.uint64()>>11+1) * 0x1p-53
}

// fill sets each dst[i] to mean + sd*z for a fresh standard normal z,
// clamped to [lo, hi]. It is norm inlined over a slice, with the generator's
// state in registers; the rare draws outside a layer's inner rectangle go
// through edge.
func (g *normal) fill(dst []float64, mean, sd, lo, hi float64) {
	s0, s1, s2, s3 := g.s0, g.s1, g.s2, g.s3
	x := &zig.x
	for k := range dst {
		u := rotl(s0+s3, 23) + s0
		t := s1 << 17
		s2 ^= s0
		s3 ^= s1
		s1 ^= s2
		s0 ^= s3
		s2 ^= t
		s3 = rotl(s3, 45)

		i := u & (zigLayers - 1)
		z := float64(int64(u)>>8) * 0x1p-55 * x[i]
		if math.Abs(z) >= x[i+1] {
			g.s0, g.s1, g.s2, g.s3 = s0, s1, s2, s3
			if w, ok := g.edge(i, z); ok {
				z = w
			} else {
				z = g.norm()
			}
			s0, s1, s2, s3 = g.s0, g.s1, g.s2, g.s3
		}
		dst[k] = min(max(mean+sd*z, lo), hi)
	}
	g.s0, g.s1, g.s2, g.s3 = s0, s1, s2, s3
}

// norm returns one standard normal variate.
func (g *normal) norm() float64 {
	for {
		u := g.uint64()
		i := u & (zigLayers - 1)
		z := float64(int64(u)>>8) * 0x1p-55 * zig.x[i] // uniform on (-x[i], x[i])
		if math.Abs(z) < zig.x[i+1] {
			return z
		}
		if z, ok := g.edge(i, z); ok {
			return z
		}
	}
}

// edge decides the rare draws that fall outside layer i's inner rectangle:
// the base layer samples the tail beyond r (Marsaglia's method), the others
// accept z under the density's curve.
func (g *normal) edge(i uint64, z float64) (float64, bool) {
	if i == 0 {
		for {
			a := -math.Log(g.uniform()) / zigR
			b := -math.Log(g.uniform())
			if 2*b > a*a {
				if z < 0 {
					return -(zigR + a), true
				}
				return zigR + a, true
			}
		}
	}
	fz := math.Exp(-0.5 * z * z)
	return z, zig.f[i+1]+g.uniform()*(zig.f[i]-zig.f[i+1]) < fz
}

const (
	zigLayers = 256
	zigR      = 3.6541528853610088 // right edge of the base strip
	zigV      = 0.00492867323399   // area of each layer (density without 1/sqrt(2pi))
)

// zigTables are the layer edges: x[0] is the base layer's width (its strip
// plus the tail, v/f(r)), x[1] = r, x[i+1] solves f(x[i+1]) = f(x[i]) + v/x[i],
// x[256] = 0; f holds exp(-x^2/2) at each edge.
type zigTables struct {
	x [zigLayers + 1]float64
	f [zigLayers + 1]float64
}

var zig = newZigTables()

func newZigTables() *zigTables {
	var t zigTables
	fr := math.Exp(-0.5 * zigR * zigR)
	t.x[0] = zigV / fr
	t.x[1] = zigR
	for i := 1; i < zigLayers-1; i++ {
		t.x[i+1] = math.Sqrt(-2 * math.Log(zigV/t.x[i]+math.Exp(-0.5*t.x[i]*t.x[i])))
	}
	t.x[zigLayers] = 0
	for i := range t.x {
		t.f[i] = math.Exp(-0.5 * t.x[i] * t.x[i])
	}
	return &t
}
