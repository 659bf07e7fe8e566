package main

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The reading guides name files, packages and Go identifiers in back-ticks;
// each such name must exist, so a rename or a move that forgets a guide
// fails here instead of sending the next reader to a file that is gone.
var guides = []string{"README.md", "ARCHITECTURE.md", "DATA.md", "docs"}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// a repository path: a top-level directory of the module, then path
	// characters (a trailing slash names a directory)
	repoPath = regexp.MustCompile(`^(cmd|compute|data|embed|handlers|bench|docs|\.ci)(/[A-Za-z0-9_.-]+)*/?$`)
	// a Go name: pkg.Name, Type.Method, recv.Field.Method, or an exported
	// Name alone; an optional () or (...) after a function
	goName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\)|\(\.\.\.\))?$`)
)

// declared is every name the module declares: packages, types, functions,
// methods, fields, constants and variables (tests included: the guides
// name test helpers), and the members of each type: its methods, its
// fields and, for an interface, its methods. A type that embeds another
// is marked by an empty member (its promoted members are not listed).
func declared(t *testing.T, root string) (names, packages map[string]bool, members map[string]map[string]bool) {
	t.Helper()
	names, packages, members = map[string]bool{}, map[string]bool{}, map[string]map[string]bool{}
	member := func(typ, name string) {
		if members[typ] == nil {
			members[typ] = map[string]bool{}
		}
		members[typ][name] = true
	}
	fset := gotoken.NewFileSet()
	for _, p := range goFiles(t, root) {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		names[f.Name.Name], packages[f.Name.Name] = true, true
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				names[n.Name.Name] = true
				if n.Recv != nil && len(n.Recv.List) == 1 {
					member(receiverType(n.Recv.List[0].Type), n.Name.Name)
				}
			case *ast.TypeSpec:
				names[n.Name.Name] = true
				var fields *ast.FieldList
				switch tt := n.Type.(type) {
				case *ast.StructType:
					fields = tt.Fields
				case *ast.InterfaceType:
					fields = tt.Methods
				}
				if fields != nil {
					for _, f := range fields.List {
						if len(f.Names) == 0 {
							member(n.Name.Name, "") // embeds: members may be promoted
						}
						for _, id := range f.Names {
							member(n.Name.Name, id.Name)
						}
					}
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					names[id.Name] = true
				}
			case *ast.Field:
				for _, id := range n.Names {
					names[id.Name] = true
				}
			}
			return true
		})
	}
	return names, packages, members
}

// receiverType is the name of a method's receiver type: T of T, *T, T[X].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// guideFiles lists the markdown files the guides are made of.
func guideFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	for _, g := range guides {
		p := filepath.Join(root, g)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	return files
}

// checkName reports whether a back-ticked Go name is declared: every
// part after the first must be, and the first too unless it is a short
// receiver or variable name (c, h, s) standing for a value. A name whose
// first part is another module's package (errors.Is, fasthttp.RequestCtx,
// bolt.Tx.WriteTo) is not this module's to check.
//
// Where a part is a type of the module, the next must be one of its
// members (Type.Method, Type.Field), unless the type embeds another.
func checkName(span string, names, packages map[string]bool, members map[string]map[string]bool) bool {
	span = strings.TrimSuffix(strings.TrimSuffix(span, "()"), "(...)")
	parts := strings.Split(span, ".")
	if first := parts[0]; len(parts) > 1 && len(first) > 2 && first[0] >= 'a' && first[0] <= 'z' && !packages[first] {
		return true
	}
	for i, p := range parts {
		if i == 0 && len(parts) > 1 && len(p) <= 2 {
			continue
		}
		if !names[p] {
			return false
		}
		if i+1 < len(parts) {
			if m := members[p]; m != nil && !m[""] && !m[parts[i+1]] && !packages[p] {
				return false
			}
		}
	}
	return true
}

// isGoName says whether a span is meant as a Go name rather than a word,
// a JSON field or a literal: dotted with an exported last part, or
// anything written as a call, or (where words asks for it) one exported
// mixed-case word. The README and DATA.md speak of the wire, where such a
// word is a header or a field (Host, Location), so there a single word is
// not taken for a Go name.
func isGoName(span string, words bool) bool {
	if !goName.MatchString(span) {
		return false
	}
	if strings.HasSuffix(span, ")") {
		return true
	}
	parts := strings.Split(span, ".")
	last := parts[len(parts)-1]
	exported := last[0] >= 'A' && last[0] <= 'Z'
	if len(parts) > 1 {
		return exported
	}
	// one word: exported and mixed case (New, Serve, CreateAsset), not an
	// acronym or a constant-looking word (JSON, POST, EUR)
	return words && exported && strings.ToUpper(last) != last
}

// pathName splits a path that ends in a package member,
// compute/tax.ApplyRegime, into the directory and the name.
var pathName = regexp.MustCompile(`^([a-z][A-Za-z0-9_/]*)\.([A-Z][A-Za-z0-9_]*)$`)

func TestGuidesNameWhatExists(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	names, packages, members := declared(t, root)
	var missing []string
	checked := 0
	for _, file := range guideFiles(t, root) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		words := rel != "README.md" && rel != "DATA.md"
		inFence := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				span := strings.TrimSpace(m[1])
				switch {
				case repoPath.MatchString(span):
					checked++
					if !pathExists(root, span, names) {
						missing = append(missing, rel+":"+strconv.Itoa(i+1)+": no file or directory "+span)
					}
				case isGoName(span, words):
					checked++
					if !checkName(span, names, packages, members) {
						missing = append(missing, rel+":"+strconv.Itoa(i+1)+": no Go declaration "+span)
					}
				}
			}
		}
	}
	sort.Strings(missing)
	if checked < 100 {
		t.Fatalf("only %d names checked in the guides: the test no longer reads them", checked)
	}
	if len(missing) > 0 {
		t.Fatalf("the guides name %d things that do not exist:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// pathExists says whether a repository path exists, or, for a path that
// ends in a package member, whether the directory does and the module
// declares the member.
func pathExists(root, span string, names map[string]bool) bool {
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(span))); err == nil {
		return true
	}
	m := pathName.FindStringSubmatch(span)
	if m == nil || !names[m[2]] {
		return false
	}
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(m[1])))
	return err == nil && st.IsDir()
}

// The checks themselves: a path or a name that is gone is caught, one that
// exists passes, and words and JSON fields are left alone.
func TestGuideNameChecks(t *testing.T) {
	t.Parallel()
	names := map[string]bool{"tax": true, "System": true, "At": true, "Run": true, "rest": true, "Gate": true, "Do": true}
	packages := map[string]bool{"tax": true, "rest": true}
	members := map[string]map[string]bool{"System": {"At": true}}
	for span, want := range map[string]bool{
		"tax.System.At": true, "rest.Gate": true, "h.Do": true, "c.Charge": false, "tax.Gone": false, "Gate()": true,
		"errors.Is": true, "Tx.WriteTo": false, "tax.System.Run": false,
	} {
		if !isGoName(span, true) {
			t.Errorf("%q not taken for a Go name", span)
			continue
		}
		if got := checkName(span, names, packages, members); got != want {
			t.Errorf("checkName(%q) = %v, want %v", span, got, want)
		}
	}
	for _, word := range []string{"token", "JSON", "POST", "localTax", "data.region", "go test ./...", "EUR"} {
		if isGoName(word, true) {
			t.Errorf("%q taken for a Go name", word)
		}
	}
	if isGoName("Host", false) || !isGoName("Host", true) {
		t.Error("a single exported word is a Go name only where the guide asks for words")
	}
	for span, want := range map[string]bool{"handlers/middleware.go": true, "compute/tax/": true, "embed/tax/countries": true, "fiplan.db": false, "a/b": false} {
		if got := repoPath.MatchString(span); got != want {
			t.Errorf("repoPath(%q) = %v, want %v", span, got, want)
		}
	}
}
