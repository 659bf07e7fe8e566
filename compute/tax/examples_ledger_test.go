package tax

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// examplesByCountry registers every country's worked examples so that
// their provenance is counted in one place:
//
//	go test -run TestExampleSources -v ./compute/tax/
var examplesByCountry = map[string][]example{
	"ae": examplesAE,
	"at": examplesAT,
	"au": examplesAU,
	"be": examplesBE,
	"br": examplesBR,
	"ca": examplesCA,
	"ch": examplesCH,
	"co": examplesCO,
	"cr": examplesCR,
	"cy": examplesCY,
	"cz": examplesCZ,
	"de": examplesDE,
	"dk": examplesDK,
	"es": examplesES,
	"fi": examplesFI,
	"fr": examplesFR,
	"gb": examplesGB,
	"ge": examplesGE,
	"gr": examplesGR,
	"hr": examplesHR,
	"ie": examplesIE,
	"it": examplesIT,
	"jp": examplesJP,
	"mt": examplesMT,
	"mx": examplesMX,
	"my": examplesMY,
	"nl": examplesNL,
	"no": examplesNO,
	"nz": examplesNZ,
	"pa": examplesPA,
	"pl": examplesPL,
	"pt": examplesPT,
	"se": examplesSE,
	"sg": examplesSG,
	"th": examplesTH,
	"us": examplesUS,
	"uy": examplesUY,
}

// sourcedCountries have at least three examples whose figures the
// authority itself publishes (official or table). The list only grows: a
// country leaves it only if its examples are found to be not the
// authority's, and the test keeps the claim true.
var sourcedCountries = []string{"fr", "ie", "pl", "sg", "th", "us"}

// regionsWorked are the countries each of whose regions has at least
// three worked examples and one for every year that models it. The list
// only grows.
var regionsWorked = []string{"ca", "ch", "dk", "es", "gb", "hr", "it", "jp", "se", "us"}

func TestExampleSources(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(countryDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no country files: %v", err)
	}
	sort.Strings(files)
	var sum [3]int
	for _, f := range files {
		cc := strings.TrimSuffix(filepath.Base(f), ".json")
		ex, ok := examplesByCountry[cc]
		if !ok {
			t.Errorf("%s: no worked examples registered", cc)
			continue
		}
		if len(ex) < 3 {
			t.Errorf("%s: %d worked examples, want at least 3", cc, len(ex))
		}
		covered := map[int]bool{}
		var n [3]int
		for _, e := range ex {
			covered[e.year] = true
			n[e.src]++
			sum[e.src]++
		}
		for _, y := range loadSystem(t, cc).Years() {
			if !covered[y] {
				t.Errorf("%s: no worked example for %d", cc, y)
			}
		}
		t.Logf("%s  official %2d  table %2d  computed %2d", strings.ToUpper(cc), n[official], n[table], n[computed])
		checkRegions(t, cc, loadSystem(t, cc), ex, slices.Contains(regionsWorked, cc))
	}
	t.Logf("all official %d, table %d, computed %d", sum[official], sum[table], sum[computed])
	for _, cc := range sourcedCountries {
		n := 0
		for _, e := range examplesByCountry[cc] {
			if e.src != computed {
				n++
			}
		}
		if n < 3 {
			t.Errorf("%s is listed as sourced but has %d examples from the authority", cc, n)
		}
	}
}

// checkRegions logs the examples of each of a country's regions by source
// and, when strict, requires three per region and one for every year that
// models it.
func checkRegions(t *testing.T, cc string, s *System, ex []example, strict bool) {
	t.Helper()
	for _, rg := range s.Regions {
		var n [3]int
		years := map[int]bool{}
		for _, e := range ex {
			if strings.EqualFold(e.region, rg.Code) {
				n[e.src]++
				years[e.year] = true
			}
		}
		t.Logf("%s/%-4s official %2d  table %2d  computed %2d", strings.ToUpper(cc), rg.Code, n[official], n[table], n[computed])
		if !strict {
			continue
		}
		if n[official]+n[table]+n[computed] < 3 {
			t.Errorf("%s region %s: %d worked examples, want at least 3", cc, rg.Code, n[official]+n[table]+n[computed])
		}
		for _, y := range s.Years() {
			if s.Covers(y, rg.Code) && !years[y] {
				t.Errorf("%s region %s: no worked example for %d", cc, rg.Code, y)
			}
		}
	}
}
