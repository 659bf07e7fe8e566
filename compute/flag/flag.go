// Package flag evaluates feature flags: on or off for a user, and which
// A/B variant they see.
//
// Assignment is deterministic and sticky. A user's bucket for a flag is a
// stable hash of the flag key and the user id, mapped to 0..9999; the user
// is in the rollout when bucket < rolloutPercent x 100. Raising the
// percentage therefore only adds users: everyone who was in stays in. The
// variant comes from a second, independent hash of the same pair, walked
// through the cumulative variant weights, so variant shares follow the
// weights and do not move when the rollout changes.
//
// The hash is FNV-1a (64 bit) over key, a separator byte and user id,
// finished with the SplitMix64 mixer; it is part of the contract of this
// package: changing it would reshuffle every user.
package flag

// Flag is one flag's definition.
type Flag struct {
	Key            string
	Enabled        bool
	RolloutPercent float64  // 0..100
	Tiers          []string // tiers it applies to; empty: all
	IncludeUsers   []string // always in (when Enabled), whatever the rollout
	ExcludeUsers   []string // always out
	Variants       []Variant
}

// Variant is one arm of an A/B test.
type Variant struct {
	Name   string
	Weight float64 // > 0; shares are Weight / sum of weights
}

// Result is the evaluation for one user.
type Result struct {
	Enabled bool
	Variant string // "" when the flag has no variants or the user is not enrolled
}

// Buckets is the resolution of rollout percentages.
const Buckets = 10000

// Evaluate decides f for the user of the given tier. It allocates nothing.
func Evaluate(f *Flag, user, tier string) Result {
	if !f.Enabled || contains(f.ExcludeUsers, user) {
		return Result{}
	}
	if !contains(f.IncludeUsers, user) {
		if len(f.Tiers) > 0 && !contains(f.Tiers, tier) {
			return Result{}
		}
		if float64(Bucket(f.Key, user, 'r')) >= f.RolloutPercent*(Buckets/100) {
			return Result{}
		}
	}
	return Result{Enabled: true, Variant: pick(f, user)}
}

func pick(f *Flag, user string) string {
	if len(f.Variants) == 0 {
		return ""
	}
	total := 0.0
	for _, v := range f.Variants {
		total += v.Weight
	}
	x := float64(Bucket(f.Key, user, 'v')) / Buckets * total
	for _, v := range f.Variants {
		if x < v.Weight {
			return v.Name
		}
		x -= v.Weight
	}
	return f.Variants[len(f.Variants)-1].Name
}

// Bucket is the user's stable position 0..Buckets-1 for key; salt
// separates independent draws ('r' rollout, 'v' variant).
func Bucket(key, user string, salt byte) uint32 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	h = (h ^ uint64(salt)) * 1099511628211
	for i := 0; i < len(user); i++ {
		h = (h ^ uint64(user[i])) * 1099511628211
	}
	// SplitMix64 finaliser: FNV's low bits alone are poorly mixed.
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return uint32(h % Buckets)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
