package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fiplan/handlers/errcode"
)

// The README's error table is errcode's list: every code, in order, with
// its status and when it is sent.
func TestREADMEErrorTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| code | status | when |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| "):
			rows = append(rows, line)
		case in:
			in = false
		}
	}
	var want []string
	for _, c := range errcode.All() {
		want = append(want, "| "+c.Code+" | "+strconv.Itoa(c.Status)+" | "+c.When+" |")
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the README's error table differs from errcode.All(); it should read:\n%s\n\nit reads:\n%s", strings.Join(want, "\n"), strings.Join(rows, "\n"))
	}
}
