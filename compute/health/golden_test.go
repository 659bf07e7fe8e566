// The recorded outputs are bit-exact for amd64 below GOAMD64=v3, where the
// compiler never fuses a multiply and an add; elsewhere (arm64, amd64.v3 and
// up, ...) fused operations round differently and the floats would differ
// from the recording, so the comparison is built only where it is exact.

//go:build amd64 && !amd64.v3

package health

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden.txt from the current code")

const (
	goldenPath   = "testdata/golden.txt"
	goldenRandom = 1000 // well-formed portfolios (randomPortfolio)
	goldenWild   = 1000 // arbitrary inputs (wildPortfolio)
	goldenRender = 24   // synthetic recommendations per kind, rendered
)

// goldenRNG seeds case i of a set on its own, so a failing case can be
// reproduced by its index alone.
func goldenRNG(set, i int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(set)<<32|uint64(i), 0x9e3779b97f4a7c15))
}

// goldenScoreLine scores p and summarises the whole Result (every field,
// unrounded gains and unused recommendation slots included, floats printed
// in their shortest exact form) and the rendered texts into one line.
func goldenScoreLine(set string, i int, p *Portfolio) string {
	var r Result
	Score(p, &r)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%+v\n", r)
	for k := range r.Recommendations() {
		buf.Write(AppendTitle(nil, &r.Recs[k]))
		buf.WriteByte('\n')
		buf.Write(AppendDetail(nil, &r.Recs[k]))
		buf.WriteByte('\n')
	}
	sum := sha256.Sum256(buf.Bytes())
	c := &r.Components
	return fmt.Sprintf("%s %d %d %d,%d,%d,%d %d %s", set, i, r.Score,
		c[0].Score, c[1].Score, c[2].Score, c[3].Score, r.NumRecs, hex.EncodeToString(sum[:8]))
}

// goldenRecommendation draws a recommendation of kind k with arbitrary
// figures, the edge values of the renderers included.
func goldenRecommendation(rng *rand.Rand, k Kind) Recommendation {
	num := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return math.NaN()
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3:
			return -rng.Float64() * 1e6
		case 4:
			return rng.Float64() * 1e20
		case 5:
			return rng.Float64() * 0.2 // shares around the one-decimal edge
		}
		return rng.Float64() * 1e6
	}
	names := [...]string{"", "World Index", "Fonds Überschuss 2040 " + "ééééééééééééééééééééééééééééééééééééééé", "x"}
	currencies := [...]string{"", "USD", "EUR", "GBP", "CHF"}
	return Recommendation{
		Kind: k, Holding: rng.IntN(100) - 1,
		Name: names[rng.IntN(len(names))], Currency: currencies[rng.IntN(len(currencies))],
		Class: AssetClass(rng.IntN(NumAssetClasses + 2)), Region: Region(rng.IntN(numRegions + 2)),
		Missing: Missing(rng.IntN(1 << numMissing)), Estimated: rng.IntN(2) == 0,
		Share: num(), Value: num(), Target: num(), Amount: num(), Total: num(),
		Years: rng.IntN(45) - 2, Count: rng.IntN(4),
	}
}

func goldenRenderLine(i int, rc *Recommendation) string {
	var buf []byte
	buf = AppendTitle(buf, rc)
	buf = append(buf, '\n')
	buf = AppendDetail(buf, rc)
	sum := sha256.Sum256(buf)
	return fmt.Sprintf("render %d %d %d %s", i, rc.Kind, len(buf), hex.EncodeToString(sum[:8]))
}

// goldenLines computes every line of the golden file.
func goldenLines() []string {
	var lines []string
	for i := range goldenRandom {
		p := randomPortfolio(goldenRNG(1, i))
		lines = append(lines, goldenScoreLine("random", i, &p))
	}
	for i := range goldenWild {
		p := wildPortfolio(goldenRNG(2, i))
		lines = append(lines, goldenScoreLine("wild", i, &p))
	}
	p := perfect()
	lines = append(lines, goldenScoreLine("perfect", 0, &p))
	for i := range goldenRender * (int(numKinds) + 2) {
		rc := goldenRecommendation(goldenRNG(3, i), Kind(i%(int(numKinds)+2)))
		lines = append(lines, goldenRenderLine(i, &rc))
	}
	return lines
}

// TestGolden pins Score and the renderers to recorded outputs: each line of
// testdata/golden.txt summarises one seeded portfolio's Result (every bit of
// every float) and rendered texts, or one synthetic recommendation's texts.
// A change of the scoring rules or texts is meant to fail here; rerun with
// -update after checking that the difference is the intended one. The
// recorded outputs also depend on randomPortfolio and wildPortfolio.
func TestGolden(t *testing.T) {
	t.Parallel()
	got := goldenLines()
	if *updateGolden {
		var buf bytes.Buffer
		for _, l := range got {
			buf.WriteString(l)
			buf.WriteByte('\n')
		}
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatalf("cannot open golden file %q (create it with -update): %v", goldenPath, err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		want = append(want, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("golden file has %d lines, the code produces %d", len(want), len(got))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
			if bad++; bad == 10 {
				t.Fatal("stopping after 10 differences")
			}
		}
	}
}
