package calculator

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"sync/atomic"

	"github.com/dgraph-io/ristretto/v2"

	"fiplan/handlers/bytesconv"
)

// Answers are cached whole, keyed by the canonical binary form of the
// decoded request: two bodies that decode alike (any field order,
// spacing, number spelling) share an entry. Everything else an answer
// depends on is fixed for the server's life (the history, tax, city and
// rate tables), except the default startYear, which the key holds as
// resolved, and the media type asked for. Monte Carlo is seeded by
// monteCarlo.seed, 1 when absent, so its answers repeat and are cached
// too. The Monte Carlo kill switch is checked before the cache is read.

// doorkeeper admits an answer to the cache the second time its key is
// asked for, so that a stream of requests that all differ (public traffic
// with every body its own) does not copy each answer into the cache only
// to evict it again: such answers are sent from the work buffer and never
// copied. Each slot holds the hash of the last key that fell into it; a
// collision forgets the older key, which then waits one more request.
type doorkeeper struct {
	seed  maphash.Seed
	slots [1 << 14]atomic.Uint64
}

// admit reports whether key was seen since its slot last changed, and
// marks it seen.
func (d *doorkeeper) admit(key string) bool {
	h := maphash.String(d.seed, key) | 1 // never 0, the empty slot
	slot := &d.slots[h>>50]
	if slot.Load() == h {
		return true
	}
	slot.Store(h)
	return false
}

// cacheBytes bounds the cached bodies, in bytes.
const cacheBytes = 32 << 20

// answer is a cached answer: its body and what serving it again needs
// besides, the extra rate-limit units its Monte Carlo run costs and whether
// it holds one (the Monte Carlo kill switch is checked on every serving).
type answer struct {
	body  []byte
	units int
	mc    bool
}

// The cache holds two kinds of key. The canonical key (appendKey) is the
// decoded request: bodies that mean the same share it. The raw key is the
// body's exact bytes, with the default startYear and the media type: a
// body seen before, byte for byte, is answered without decoding it. A raw
// entry is made only when its canonical key is found, so it points to an
// answer already served, and it costs the cache its key's length: the
// answer's bytes are shared.
const rawTag = 0xff // first byte of a raw key; a canonical key starts with 0 or 1

// rawKey is the raw key of body answered as csv or JSON in a year whose
// default startYear is defaultYear. Like cacheKey, a view valid until w is
// reused.
func (w *calcWork) rawKey(body []byte, defaultYear int, csv bool) string {
	b := append(w.raw[:0], rawTag)
	b = keyBool(b, csv)
	b = keyInt(b, defaultYear)
	w.raw = append(b, body...)
	return bytesconv.String(w.raw)
}

func newCache() (*ristretto.Cache[string, *answer], error) {
	s1, s2 := maphash.MakeSeed(), maphash.MakeSeed()
	cache, err := ristretto.NewCache(&ristretto.Config[string, *answer]{
		NumCounters:        100_000,
		MaxCost:            cacheBytes,
		BufferItems:        64,
		IgnoreInternalCost: true,
		KeyToHash: func(k string) (uint64, uint64) {
			return maphash.String(s1, k), maphash.String(s2, k)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("cannot create calculator cache: %w", err)
	}
	return cache, nil
}

// CacheHits counts the answers served from the cache.
func (s *Handlers) CacheHits() uint64 { return s.hits.Load() }

// CacheMisses counts the answers computed because the cache lacked them.
func (s *Handlers) CacheMisses() uint64 { return s.misses.Load() }

// WaitCache waits until every answer handed to the cache is stored
// (ristretto stores asynchronously).
func (s *Handlers) WaitCache() { s.cache.Wait() }

// Close releases the cache.
func (s *Handlers) Close() {
	if s != nil && s.cache != nil {
		s.cache.Close()
	}
}

// cacheKey is the key of w.req answered as csv or JSON, with defaultYear
// the startYear of a request that leaves it out. The view is valid until
// w is reused: ristretto keeps only the key's hashes.
func (w *calcWork) cacheKey(defaultYear int, csv bool) string {
	w.key = appendKey(w.key[:0], &w.req, defaultYear, csv)
	return bytesconv.String(w.key)
}

// appendKey appends the canonical form of r: every field in declaration
// order, pointers and slices with their presence or length, so that no two
// requests that differ share a form.
func appendKey(b []byte, r *calcRequest, defaultYear int, csv bool) []byte {
	b = keyBool(b, csv)
	b = keyInt(b, r.CurrentAge)
	b = keyFloat(b, r.AnnualIncome)
	b = keyFloat(b, r.AnnualExpenses)
	year := defaultYear
	if r.StartYear != nil {
		year = *r.StartYear
	}
	b = keyInt(b, year)
	b = keyString(b, r.Currency)
	b = keyParams(b, &r.calcParams)
	b = keyHousehold(b, &r.calcHousehold)
	b = keyInt(b, len(r.Scenarios))
	for i := range r.Scenarios {
		sc := &r.Scenarios[i]
		b = keyString(b, sc.Name)
		b = keyIntP(b, sc.CurrentAge)
		b = keyFloatP(b, sc.AnnualIncome)
		b = keyFloatP(b, sc.AnnualExpenses)
		b = keyParams(b, &sc.calcParams)
	}
	b = keyBool(b, r.MonteCarlo != nil)
	if mc := r.MonteCarlo; mc != nil {
		b = keyInt(b, mc.Simulations)
		b = keyInt(b, int(mc.Seed))
		b = keyFloat(b, mc.ReturnStdDev)
		b = keyFloat(b, mc.InflationStdDev)
	}
	b = keyBool(b, r.Historical != nil)
	if h := r.Historical; h != nil {
		b = keyIntP(b, h.Years)
		b = keyBool(b, h.Sequences)
		b = keyString(b, h.Dataset)
		b = keyIntP(b, h.From)
		b = keyIntP(b, h.To)
		b = keyString(b, h.StartMonths)
		b = keyString(b, h.WithdrawalTiming)
		b = keyString(b, h.Currency)
	}
	b = keyBool(b, r.Goals != nil)
	if g := r.Goals; g != nil {
		b = keyIntP(b, g.FIByAge)
		b = keyFloatP(b, g.TargetSuccessRate)
	}
	b = keyBool(b, r.Tax != nil)
	if t := r.Tax; t != nil {
		b = keyString(b, t.Country)
		b = keyString(b, t.Region)
		b = keyInt(b, t.Year)
		b = keyString(b, t.WithdrawalIncome)
		b = keyString(b, t.Filing)
	}
	// output and every as the rows they select: yearly every 5 and yearly
	// alone, or full and yearly every 1, answer alike.
	return keyInt(b, step(r))
}

func keyParams(b []byte, p *calcParams) []byte {
	b = keyFloatP(b, p.CurrentSavings)
	b = keyFloatP(b, p.CostBasis)
	b = keyFloatP(b, p.ExpectedReturn)
	b = keyFloatP(b, p.InflationRate)
	b = keyFloatP(b, p.WithdrawalRate)
	b = keyFloatP(b, p.IncomeGrowthRate)
	b = keyFloatP(b, p.RetirementExpenses)
	b = keyIntP(b, p.LifeExpectancy)
	b = keyIntP(b, p.TargetRetirementAge)
	b = keyFloatP(b, p.AnnualContribution)
	b = keyFloatP(b, p.ExpenseRatio)
	b = keyFloatP(b, p.StockShare)
	b = keyFloatP(b, p.CashShare)
	b = keyString(b, p.WithdrawalStrategy)
	b = keyFloatP(b, p.CAPE)
	b = keyInt(b, len(p.Pensions))
	for _, x := range p.Pensions {
		b = keyInt(b, x.FromAge)
		b = keyFloat(b, x.Amount)
		b = keyBool(b, x.InflationLinked)
		b = keyString(b, x.Owner)
		b = keyString(b, x.Kind)
	}
	b = keyInt(b, len(p.Events))
	for _, x := range p.Events {
		b = keyInt(b, x.Age)
		b = keyFloat(b, x.Amount)
		b = keyBool(b, x.Nominal)
		b = keyString(b, x.Label)
	}
	b = keyString(b, p.CityID)
	return keyIntP(b, p.HouseholdSize)
}

func keyBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func keyInt(b []byte, v int) []byte { return binary.AppendVarint(b, int64(v)) }

// keyFloat writes v's bits; -0 is written as 0, which means the same.
func keyFloat(b []byte, v float64) []byte {
	if v == 0 {
		v = 0
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

func keyString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func keyFloatP(b []byte, v *float64) []byte {
	if v == nil {
		return append(b, 0)
	}
	return keyFloat(append(b, 1), *v)
}

func keyIntP(b []byte, v *int) []byte {
	if v == nil {
		return append(b, 0)
	}
	return keyInt(append(b, 1), *v)
}

// keyHousehold appends the household fields' canonical form.
func keyHousehold(b []byte, h *calcHousehold) []byte {
	b = keyBool(b, h.Partner != nil)
	if p := h.Partner; p != nil {
		b = keyInt(b, p.Age)
		b = keyIntP(b, p.LifeExpectancy)
		b = keyFloatP(b, p.AnnualIncome)
		b = keyFloatP(b, p.IncomeGrowthRate)
		b = keyIntP(b, p.RetirementAge)
	}
	b = keyInt(b, len(h.Accounts))
	for _, a := range h.Accounts {
		b = keyString(b, a.ID)
		b = keyString(b, a.Type)
		b = keyString(b, a.Owner)
		b = keyFloat(b, a.Balance)
		b = keyFloatP(b, a.CostBasis)
		b = keyFloatP(b, a.AnnualContribution)
		b = keyFloatP(b, a.EmployerContribution)
		b = keyFloatP(b, a.StockShare)
		b = keyFloatP(b, a.Yield)
		b = keyFloatP(b, a.QualifiedShare)
		b = keyIntP(b, a.OpenedYear)
	}
	b = keyInt(b, len(h.Spending))
	for _, s := range h.Spending {
		b = keyInt(b, s.FromAge)
		b = keyFloat(b, s.Amount)
	}
	b = keyString(b, h.WithdrawalOrder.Name)
	b = keyBool(b, h.WithdrawalOrder.List != nil)
	b = keyInt(b, len(h.WithdrawalOrder.List))
	for _, id := range h.WithdrawalOrder.List {
		b = keyString(b, id)
	}
	b = keyBool(b, h.Conversions != nil)
	if c := h.Conversions; c != nil {
		b = keyFloat(b, c.UpToRate)
	}
	b = keyInt(b, len(h.Relocations))
	for _, m := range h.Relocations {
		b = keyInt(b, m.AtAge)
		b = keyString(b, m.Country)
		b = keyString(b, m.Region)
		b = keyString(b, m.CityID)
	}
	b = keyBool(b, h.Healthcare != nil)
	if c := h.Healthcare; c != nil {
		b = keyFloatP(b, c.BenchmarkPremium)
		b = keyInt(b, len(c.Phases))
		for _, p := range c.Phases {
			b = keyInt(b, p.FromAge)
			b = keyFloat(b, p.Amount)
			b = keyFloatP(b, p.Inflation)
		}
	}
	b = keyMeansAndBridge(b, h)
	b = keyBool(b, h.Optimize != nil)
	if o := h.Optimize; o != nil {
		b = keyString(b, o.Objective)
		b = keyBool(b, o.Target != nil)
		if t := o.Target; t != nil {
			b = keyString(b, t.Method)
			b = keyFloatP(b, t.SuccessRate)
		}
		b = keyInt(b, len(o.Decisions))
		for _, d := range o.Decisions {
			b = keyString(b, d)
		}
	}
	return b
}

// keyMeansAndBridge appends the homeowner flag and the 72(t) series.
func keyMeansAndBridge(b []byte, h *calcHousehold) []byte {
	home := 0 // absent
	if h.Homeowner != nil {
		home = 1
		if !*h.Homeowner {
			home = 2
		}
	}
	b = keyInt(b, home)
	b = keyBool(b, h.Bridge != nil)
	if br := h.Bridge; br != nil {
		b = keyInt(b, len(br.SEPP))
		for _, q := range br.SEPP {
			b = keyString(b, q.Account)
			b = keyString(b, q.Method)
			b = keyInt(b, q.FromAge)
		}
	}
	return b
}
