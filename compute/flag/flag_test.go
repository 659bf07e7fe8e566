package flag

import (
	"math"
	"strconv"
	"testing"
)

func users(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "user-" + strconv.Itoa(i)
	}
	return out
}

func TestDisabledExcludedIncludedTiers(t *testing.T) {
	t.Parallel()
	f := &Flag{Key: "x", Enabled: true, RolloutPercent: 0, IncludeUsers: []string{"vip"}, ExcludeUsers: []string{"bad"}, Tiers: []string{"pro"}}
	if Evaluate(f, "anyone", "pro").Enabled {
		t.Fatal("0% rollout enabled a user")
	}
	if !Evaluate(f, "vip", "free").Enabled {
		t.Fatal("an included user is in whatever the tier and rollout")
	}
	f.RolloutPercent = 100
	if Evaluate(f, "someone", "free").Enabled || !Evaluate(f, "someone", "pro").Enabled {
		t.Fatal("tiers not honoured")
	}
	f.IncludeUsers = append(f.IncludeUsers, "bad")
	if Evaluate(f, "bad", "pro").Enabled {
		t.Fatal("exclusion must win over inclusion")
	}
	f.Enabled = false
	if Evaluate(f, "vip", "pro").Enabled {
		t.Fatal("a disabled flag is off for everyone")
	}
}

func TestStickyAndMonotone(t *testing.T) {
	t.Parallel()
	us := users(5000)
	prev := map[string]bool{}
	for _, pct := range []float64{0, 5, 20, 20, 50, 80, 100} {
		f := &Flag{Key: "new-dashboard", Enabled: true, RolloutPercent: pct}
		for _, u := range us {
			on := Evaluate(f, u, "free").Enabled
			if prev[u] && !on {
				t.Fatalf("raising the rollout to %v%% removed %s", pct, u)
			}
			if on != Evaluate(f, u, "free").Enabled {
				t.Fatal("not deterministic")
			}
			prev[u] = on
		}
	}
}

func TestRolloutShareAndIndependenceOfFlags(t *testing.T) {
	t.Parallel()
	us := users(20000)
	a := &Flag{Key: "a", Enabled: true, RolloutPercent: 50}
	b := &Flag{Key: "b", Enabled: true, RolloutPercent: 50}
	inA, inBoth := 0, 0
	for _, u := range us {
		ea, eb := Evaluate(a, u, "").Enabled, Evaluate(b, u, "").Enabled
		if ea {
			inA++
			if eb {
				inBoth++
			}
		}
	}
	// Binomial(20000, 0.5): sd 71; 5 sd is 355.
	if math.Abs(float64(inA)-10000) > 355 {
		t.Fatalf("50%% rollout enabled %d of 20000", inA)
	}
	// Two flags must not enrol the same half.
	if math.Abs(float64(inBoth)-5000) > 300 {
		t.Fatalf("flags a and b overlap on %d users, want about 5000", inBoth)
	}
}

func TestVariantsFollowWeights(t *testing.T) {
	t.Parallel()
	f := &Flag{Key: "checkout-test", Enabled: true, RolloutPercent: 100, Variants: []Variant{{"control", 50}, {"green", 30}, {"blue", 20}}}
	counts := map[string]float64{}
	const n = 30000
	for _, u := range users(n) {
		counts[Evaluate(f, u, "").Variant]++
	}
	// Chi-square with 2 degrees of freedom; 13.8 is p = 0.001.
	chi := 0.0
	for _, v := range f.Variants {
		want := n * v.Weight / 100
		chi += (counts[v.Name] - want) * (counts[v.Name] - want) / want
	}
	if chi > 13.8 || len(counts) != 3 {
		t.Fatalf("variant counts %v, chi-square %.1f", counts, chi)
	}
	// Changing the rollout does not move anyone between variants.
	g := *f
	g.RolloutPercent = 30
	for _, u := range users(2000) {
		if r := Evaluate(&g, u, ""); r.Enabled && r.Variant != Evaluate(f, u, "").Variant {
			t.Fatalf("%s changed variant with the rollout", u)
		}
	}
	if r := Evaluate(&Flag{Key: "plain", Enabled: true, RolloutPercent: 100}, "u", ""); r.Variant != "" {
		t.Fatal("a flag without variants has no variant")
	}
}

func TestBucketIsStable(t *testing.T) {
	t.Parallel()
	// Pinned values: changing the hash would reshuffle every user, so a
	// change must be deliberate and fail here first.
	if b := Bucket("new-dashboard", "alice", 'r'); b != Bucket("new-dashboard", "alice", 'r') || b >= Buckets {
		t.Fatal("unstable or out of range")
	}
	got := [3]uint32{Bucket("a", "alice", 'r'), Bucket("a", "bob", 'r'), Bucket("a", "alice", 'v')}
	want := [3]uint32{7759, 7484, 5518}
	if got != want {
		t.Fatalf("buckets %v, pinned %v", got, want)
	}
}

func TestEvaluateAllocatesNothing(t *testing.T) {
	f := &Flag{Key: "k", Enabled: true, RolloutPercent: 60, Tiers: []string{"free", "pro"}, Variants: []Variant{{"a", 1}, {"b", 1}}}
	if n := testing.AllocsPerRun(1000, func() { Evaluate(f, "user-42", "pro") }); n != 0 {
		t.Fatalf("allocs %v", n)
	}
}
