package handlers

import (
	"fmt"
	"testing"
	"time"
)

func benchFlags(b *testing.B, n int) (*Server, string) {
	s, tok, _ := benchServer(b, 1<<16, limitOff)
	for i := range n {
		key := fmt.Sprintf("flag-%d", i)
		rec := flagRecord{Key: key, Enabled: true, RolloutPercent: 50, Tiers: []string{}, IncludeUsers: []string{}, ExcludeUsers: []string{},
			Variants: []flagVariantIn{{"control", 1}, {"treatment", 1}}}
		if _, err := s.db.PutFlag(key, rec); err != nil {
			b.Fatal(err)
		}
		s.flags.set.Store(s.flags.set.Load().with(key, newEntry(rec)))
	}
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	return s, tok
}

func BenchmarkFlagOne(b *testing.B) {
	s, tok := benchFlags(b, 20)
	runRequest(b, s, "GET", "/api/v1/features/flag-7", "Bearer "+tok, "", 200)
}

func BenchmarkFlagAll(b *testing.B) {
	s, tok := benchFlags(b, 20)
	runRequest(b, s, "GET", "/api/v1/features", "Bearer "+tok, "", 200)
}
