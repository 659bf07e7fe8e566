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

// The README's Configuration table is the settings table: a row for every
// setting, with its variable, its flag and its default (an empty default
// reads "(none)" or "(off)"), and no row for a setting that does not
// exist.
func TestREADMEConfigurationTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{} // variable: flag, default
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| variable | flag | default | meaning |"):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| "):
			cells := strings.Split(line, " | ")
			if len(cells) < 4 {
				t.Fatalf("a Configuration row with fewer than four cells: %s", line)
			}
			rows[strings.TrimPrefix(cells[0], "| ")] = []string{cells[1], cells[2]}
		case in:
			in = false
		}
	}
	if len(rows) == 0 {
		t.Fatal("no Configuration table in the README")
	}
	settings := (&config{}).settings()
	for _, s := range settings {
		row, ok := rows[s.env]
		if !ok {
			t.Errorf("%s (-%s) has no row in the README's Configuration table", s.env, s.flag)
			continue
		}
		delete(rows, s.env)
		def := s.def
		if def == "" && (row[1] == "(none)" || row[1] == "(off)") {
			def = row[1]
		}
		if row[0] != "-"+s.flag || row[1] != def {
			t.Errorf("%s: the README says %s, default %s; the settings say -%s, default %q", s.env, row[0], row[1], s.flag, s.def)
		}
	}
	for env := range rows {
		t.Errorf("the README's Configuration table lists %s, which is no setting", env)
	}
}
