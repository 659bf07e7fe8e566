package tax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertEmbedded converts every country file: the result parses to
// the same years (Convert checks it), converting it again changes nothing,
// and a converted file is written as the converter writes it.
func TestConvertEmbedded(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join(countryDir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no country files: %v", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Convert(b)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(name), err)
			continue
		}
		again, err := Convert(out)
		if err != nil || string(again) != string(out) {
			t.Errorf("%s: converting the converted file changes it (%v)", filepath.Base(name), err)
		}
		tree, _ := decodeNode(b)
		if tree.get("rules") != nil && string(out) != string(b) {
			t.Errorf("%s: a converted file differs from the converter's output: run go run ./data/taxtable/convert.go %s", filepath.Base(name), name)
		}
	}
}

// TestConvertFoldsSunsets: a year written out in full with a sunset and a
// new deduction folds into one rule with since, until and dated values.
func TestConvertFoldsSunsets(t *testing.T) {
	t.Parallel()
	tree, err := decodeNode([]byte(timeFile))
	if err != nil {
		t.Fatal(err)
	}
	rules := tree.get("rules")
	tree.del("rules")
	for i, y := range []int{2024, 2025} {
		r := resolver{year: y, last: 2025, keep: true}
		rs, err := r.resolve(rules)
		if err != nil {
			t.Fatal(err)
		}
		tree.get("years").vals[i].set("rules", rs)
	}
	out, err := Convert(tree.compact())
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"since": 2025`, `"until": 2028`, `"until": 2029`, `"then": 500`, `"frozenUntil": 2030`,
		`"2024": 0.2`, `"2025": 0.21`} {
		if !strings.Contains(s, want) {
			t.Errorf("the converted file has no %s:\n%s", want, s)
		}
	}
	if strings.Count(s, `"id": "it"`) != 1 {
		t.Error("the income tax rule is not listed once")
	}
}

// FuzzParseConvert: Parse never panics on a file, dated or not; a file it
// takes converts (Convert checks that the result parses to the same years)
// or is refused with an error, and converting twice changes nothing.
func FuzzParseConvert(f *testing.F) {
	f.Add([]byte(timeFile))
	f.Add([]byte(strings.Replace(timeFile, `"until": 2028`, `"until": 2026`, 1)))
	f.Add([]byte(strings.Replace(timeFile, `"values": {"2024": 0.2, "2025": 0.21}`, `0.2`, 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := Parse(b); err != nil {
			return
		}
		out, err := Convert(b)
		if err != nil {
			return
		}
		again, err := Convert(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("converting the converted file: %v\n%s\n%s", err, out, again)
		}
	})
}
