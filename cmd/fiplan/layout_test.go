package main

import (
	"bufio"
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The module's import graph must follow the layout the README draws:
// compute imports nothing of ours outside compute, nothing imports cmd,
// nothing below handlers imports handlers, and every edge between packages
// is one the README's layout block allows.

const module = "fiplan"

// rule is one line of the README's layout block: "from -> to, to, ...",
// where a pattern ending in "/*" matches every package below it.
type rule struct {
	from string
	to   []string
}

func match(pattern, pkg string) bool {
	if p, ok := strings.CutSuffix(pattern, "/*"); ok {
		return strings.HasPrefix(pkg, p+"/")
	}
	return pattern == pkg
}

// readLayout reads the fenced block after the line "<!-- imports -->" in
// the README.
func readLayout(t *testing.T, readme string) []rule {
	t.Helper()
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rules []rule
	state := 0 // 0: before the marker, 1: before the fence, 2: inside
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case state == 0 && line == "<!-- imports -->":
			state = 1
		case state == 1 && strings.HasPrefix(line, "```"):
			state = 2
		case state == 2 && strings.HasPrefix(line, "```"):
			return rules
		case state == 2 && line != "":
			from, to, ok := strings.Cut(line, "->")
			if !ok {
				t.Fatalf("README layout line %q has no ->", line)
			}
			r := rule{from: strings.TrimSpace(from)}
			for _, p := range strings.Split(to, ",") {
				if p = strings.TrimSpace(p); p != "" {
					r.to = append(r.to, p)
				}
			}
			rules = append(rules, r)
		}
	}
	t.Fatalf("README has no import layout block after <!-- imports -->")
	return nil
}

// edges maps each package of the module (relative to the module root) to
// the module packages it imports, from every Go file including tests.
func edges(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := gotoken.NewFileSet()
	for _, p := range goFiles(t, root) {
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			if dep, ok := strings.CutPrefix(ip, module+"/"); ok && dep != pkg && !testsThroughServer(p, pkg, dep) {
				out[pkg][dep] = true
			}
		}
	}
	return out
}

// goFiles lists every Go file of the module below root, tests included,
// leaving out hidden and underscore folders, testdata and node_modules.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// testsThroughServer reports an import the layout allows to the tests of
// the handlers packages only: the real server, the shared test server that
// runs it and the one harness under that, and what configures it (tokens,
// rates). A non-test file
// importing handlers would be a cycle.
func testsThroughServer(file, pkg, dep string) bool {
	if !strings.HasSuffix(file, "_test.go") || !strings.HasPrefix(pkg, "handlers/") {
		return false
	}
	switch dep {
	case "handlers", "handlers/internal/testserver", "handlers/internal/harness", "handlers/auth", "handlers/limit":
		return true
	}
	return false
}

func TestImportLayout(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	rules := readLayout(t, filepath.Join(root, "README.md"))
	graph := edges(t, root)
	var pkgs []string
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		for dep := range graph[pkg] {
			top := strings.SplitN(pkg, "/", 2)[0]
			switch {
			case top == "compute" && !strings.HasPrefix(dep, "compute/"):
				t.Errorf("%s imports %s: compute imports nothing of ours outside compute", pkg, dep)
			case strings.HasPrefix(dep, "cmd/"):
				t.Errorf("%s imports %s: nothing imports cmd", pkg, dep)
			case (top == "data" || top == "embed") && (dep == "handlers" || strings.HasPrefix(dep, "handlers/")):
				t.Errorf("%s imports %s: nothing below handlers imports handlers", pkg, dep)
			}
			if !allowed(rules, pkg, dep) {
				t.Errorf("%s imports %s, an edge the README's layout does not show", pkg, dep)
			}
		}
	}
}

func allowed(rules []rule, pkg, dep string) bool {
	for _, r := range rules {
		if !match(r.from, pkg) {
			continue
		}
		for _, to := range r.to {
			if match(to, dep) {
				return true
			}
		}
	}
	return false
}

func TestLayoutRulesMatch(t *testing.T) {
	t.Parallel()
	rules := []rule{{from: "compute/*", to: []string{"compute/*"}}, {from: "data/*", to: []string{"embed", "compute/*"}}}
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"compute/fi", "compute/health", true},
		{"compute/fi", "data/geo", false},
		{"data/geo", "embed", true},
		{"data/geo", "embed/web", false},
		{"data/geo", "compute/geo", true},
		{"handlers", "compute/fi", false},
		{"compute", "compute/fi", false},
	} {
		if got := allowed(rules, c.pkg, c.dep); got != c.ok {
			t.Errorf("allowed(%s -> %s) = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
	if !match("handlers/*", path.Join("handlers", "rest")) || match("handlers/*", "handlers") {
		t.Error("handlers/* must match the packages below handlers and not handlers itself")
	}
}
