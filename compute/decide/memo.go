package decide

import (
	"math"

	"fiplan/compute/household"
)

// A search comes back to choices it has run: the current choice valued
// again at the start of each pass, a step undone and tried the other
// way, the two starts meeting. memo keeps every outcome on the expected
// path by its choice, so that each distinct plan runs once.

// memoKey is a choice's two 64-bit hashes: two choices are taken for one
// when both agree, which two independent mixes make as unlikely for
// distinct choices as a 128-bit collision.
type memoKey [2]uint64

// hasher hashes a choice: two multiply-xorshift mixes with different
// multipliers side by side.
type hasher struct{ a, b uint64 }

const (
	mixA = 0x9E3779B97F4A7C15
	mixB = 0xC2B2AE3D27D4EB4F
)

func (h *hasher) word(x uint64) {
	h.a = (h.a ^ x) * mixA
	h.a ^= h.a >> 32
	h.b = (h.b + x) * mixB
	h.b ^= h.b >> 29
}

func (h *hasher) float(x float64) { h.word(math.Float64bits(x)) }

func (h *hasher) flag(b bool) {
	if b {
		h.word(1)
	} else {
		h.word(0)
	}
}

// key is c's memo key: every field build reads.
func (s *search) key(c *choice) memoKey {
	h := hasher{a: mixB, b: mixA}
	h.flag(c.conv != nil)
	h.flag(c.convPlan)
	for _, x := range c.conv {
		h.float(x)
	}
	h.flag(c.orders != nil)
	h.flag(c.orderPlan)
	for _, o := range c.orders {
		h.word(uint64(o))
	}
	h.flag(c.seppSet)
	h.word(uint64(len(c.sepp)))
	for _, q := range c.sepp {
		h.word(uint64(q.Account)<<32 | uint64(q.Method)<<16 | uint64(uint16(q.FromAge)))
	}
	for i := range s.p.Pensions {
		h.word(uint64(uint32(c.ages[i]))<<32 | uint64(uint32(c.months[i])))
	}
	h.word(uint64(c.retire))
	h.float(c.scale)
	return memoKey{h.a, h.b}
}

// memo is the outcomes run, by choice; its map is kept in the Work.
type memo map[memoKey]household.Outcome
