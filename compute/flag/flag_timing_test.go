package flag

import "testing"

func BenchmarkEvaluate(b *testing.B) {
	f := &Flag{Key: "new-dashboard", Enabled: true, RolloutPercent: 50, Tiers: []string{"free", "pro"},
		ExcludeUsers: []string{"x", "y"}, Variants: []Variant{{"control", 1}, {"treatment", 1}}}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(f, "user-123456", "pro")
	}
}
