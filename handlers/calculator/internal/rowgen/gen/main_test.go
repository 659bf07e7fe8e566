package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	decl, out := filepath.Join(dir, "response.go"), filepath.Join(dir, "rows_gen.go")
	if err := run(decl, out); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Fatalf("a missing declaration: got %v, want cannot read", err)
	}
	src := "package calculator\n\ntype calcYearDoc struct {\n\tYear int `json:\"year\" row:\"int\"`\n\tTax *rowTaxDoc `json:\"tax,omitempty\"`\n}\n"
	if err := os.WriteFile(decl, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(decl, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `const csvHeader = "scenario,year"`) {
		t.Fatalf("rows_gen.go lacks the header:\n%s", b)
	}
	if err := run(decl, filepath.Join(dir, "no", "such", "dir", "rows_gen.go")); err == nil || !strings.Contains(err.Error(), "cannot write") {
		t.Fatalf("an unwritable output: got %v, want cannot write", err)
	}
}
