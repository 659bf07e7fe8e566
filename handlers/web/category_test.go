package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fiplan/compute/category"
	"fiplan/embed"
)

// TestPortfolioCategoryOptions: the asset form offers exactly the
// categories of package category, in its order, each labelled by its text
// key, whose English is its name with spaces for underscores; a category added there must be added to the
// page too.
func TestPortfolioCategoryOptions(t *testing.T) {
	page, err := fs.ReadFile(embed.Web, "web/pages/portfolio.html")
	if err != nil {
		t.Fatal(err)
	}
	dicts, _, err := loadDictionaries()
	if err != nil {
		t.Fatal(err)
	}
	sel := regexp.MustCompile(`(?s)<select id="a-category"[^>]*>(.*?)</select>`).FindSubmatch(page)
	if sel == nil {
		t.Fatal("portfolio.html has no select#a-category")
	}
	var values []string
	for _, m := range regexp.MustCompile(`<option value="([^"]*)">([^<]*)</option>`).FindAllSubmatch(sel[1], -1) {
		value, label := string(m[1]), string(m[2])
		if value == "" {
			continue // "from the name or ISIN"
		}
		if want := "{{t:category." + value + "}}"; label != want {
			t.Errorf("option %q is labelled %q, want %q", value, label, want)
		}
		if got, want := dicts["en"]["category."+value], strings.ReplaceAll(value, "_", " "); got != want {
			t.Errorf("category %q reads %q in English, want %q", value, got, want)
		}
		values = append(values, value)
	}
	if want := category.Names(); !slices.Equal(values, want) {
		t.Errorf("the page offers %q, the categories are %q", values, want)
	}
}
