package main

import (
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestEveryPackageHasADoc: go doc shows every package of the module a
// package comment, so a reader learns what a directory is for before
// opening its files.
func TestEveryPackageHasADoc(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	documented := map[string]bool{}
	fset := gotoken.NewFileSet()
	for _, p := range goFiles(t, root) {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		dir = filepath.ToSlash(dir)
		documented[dir] = documented[dir] || f.Doc != nil
	}
	var missing []string
	for dir, ok := range documented {
		if !ok {
			missing = append(missing, dir)
		}
	}
	sort.Strings(missing)
	if len(documented) < 20 || len(missing) > 0 {
		t.Fatalf("of %d packages, these have no package comment: %v", len(documented), missing)
	}
}
