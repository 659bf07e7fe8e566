package program_test

import (
	"testing"

	"fiplan/data/program"
	fiembed "fiplan/embed"
)

// BenchmarkLoad measures decoding and validating the embedded dataset, the
// cost paid once at start-up.
func BenchmarkLoad(b *testing.B) {
	b.SetBytes(int64(len(fiembed.Programs)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := program.Load(fiembed.Programs); err != nil {
			b.Fatal(err)
		}
	}
}
