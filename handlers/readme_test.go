package handlers

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fiplan/handlers/rest"
)

// accessNames are the words of the README route table's auth column.
var accessNames = map[rest.Access]string{
	rest.Probe: "probe", rest.Public: "public", rest.User: "user",
	rest.Session: "session", rest.Pro: "pro", rest.Admin: "admin",
}

var (
	readmeSpan   = regexp.MustCompile("`([^`]+)`")
	readmeMethod = regexp.MustCompile(`^((?:[A-Z]+, )*[A-Z]+) (/\S*)$`)
)

// readmeRoutes reads the table under "## What it serves today": each
// "METHOD /path" of its first column with the auth of its row. A cell
// lists routes as `GET, PUT /api/v1/x`, `/y`: a span with a path alone
// takes the methods of the span before it, and its path takes that span's
// /api/v1 prefix when it has none.
func readmeRoutes(t *testing.T, readme string) map[string]string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "\n## What it serves today\n")
	if !ok {
		t.Fatal(`the README has no "## What it serves today" section`)
	}
	out := map[string]string{}
	inTable := false
	for line := range strings.Lines(after) {
		line = strings.TrimRight(line, "\n")
		if !strings.HasPrefix(line, "| `") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, " | ")
		if len(cells) < 3 {
			t.Fatalf("a route row without its auth: %q", line)
		}
		auth := strings.TrimSpace(cells[1])
		var methods []string
		prefix := ""
		for _, m := range readmeSpan.FindAllStringSubmatch(cells[0], -1) {
			span, path := m[1], m[1]
			if mm := readmeMethod.FindStringSubmatch(span); mm != nil {
				methods, path = strings.Split(mm[1], ", "), mm[2]
				prefix = ""
				if strings.HasPrefix(path, v1+"/") {
					prefix = v1
				}
			} else if strings.HasPrefix(span, "/") && methods != nil {
				if !strings.HasPrefix(span, "/api/") {
					path = prefix + span
				}
			} else {
				t.Fatalf("cannot read the route %q in the row %q", span, line)
			}
			path, _, _ = strings.Cut(path, "?")
			for _, method := range methods {
				out[method+" "+path] = auth
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the README's route table is empty")
	}
	return out
}

// TestREADMERouteTable: the README's table of routes lists every route of
// the server's table with its auth, and every API route it lists is one
// the server serves (the web app's pages, /auth/ and /mcp are outside the
// table and not checked here).
func TestREADMERouteTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := readmeRoutes(t, string(b))
	h := newHarness(t)
	served := map[string]bool{}
	var problems []string
	for _, r := range h.S.routes {
		key := r.Method + " " + r.Path
		served[key] = true
		want := accessNames[r.Access]
		switch got, ok := documented[key]; {
		case want == "":
			problems = append(problems, key+": an access level the README does not name")
		case !ok:
			problems = append(problems, key+" ("+want+"): served, missing from the README")
		case got != want:
			problems = append(problems, key+": the README says "+got+", the route is "+want)
		}
	}
	for key := range documented {
		_, path, _ := strings.Cut(key, " ")
		if !served[key] && (strings.HasPrefix(path, "/api/") || path == livezPath || path == readyzPath) {
			problems = append(problems, key+": in the README, not served")
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		t.Fatalf("the README's route table differs from the server's:\n%s", strings.Join(problems, "\n"))
	}
}
