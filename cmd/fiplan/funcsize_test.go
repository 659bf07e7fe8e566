package main

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A function stays short enough to read on one screen: a handler (any
// non-test function below handlers/) at most 80 lines, a compute function
// at most 120. A longer one is split into named steps.
var funcLimits = []struct {
	dir   string
	lines int
}{
	{"handlers", 80},
	{"compute", 120},
}

// longFuncs lists the non-test functions under dir longer than limit
// lines, each as "path:line name (n lines)"; generated files are left out.
func longFuncs(t *testing.T, dir string, limit int) []string {
	t.Helper()
	var out []string
	fset := gotoken.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != dir && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil // read from its generator and its declaration, not by itself
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > limit {
				out = append(out, filepath.ToSlash(p)+":"+strconv.Itoa(start.Line)+" "+fn.Name.Name+" ("+strconv.Itoa(n)+" lines)")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFunctionLength(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	for _, l := range funcLimits {
		for _, f := range longFuncs(t, filepath.Join(root, l.dir), l.lines) {
			t.Errorf("%s: over %d lines", strings.TrimPrefix(f, filepath.ToSlash(root)+"/"), l.lines)
		}
	}
}
