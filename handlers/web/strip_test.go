package web

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"fiplan/embed"
)

func TestStripScriptKeepsCodeAndLines(t *testing.T) {
	src := "// a comment\n/**\n * A doc comment.\n */\nexport function f(a) {\n  /** @type {number} */ (a).x = 1; // kept: code on the line\n  /* a block */\n  return `// not a comment` + '/* nor this */';\n}\n/* closes */ const y = 2;\n"
	got := string(strip("x.js", []byte(src)))
	want := "\n\n\n\nexport function f(a) {\n/** @type {number} */ (a).x = 1; // kept: code on the line\n\nreturn `// not a comment` + '/* nor this */';\n}\n/* closes */ const y = 2;\n"
	if got != want {
		t.Fatalf("strip:\n%q\nwant\n%q", got, want)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatalf("line count changed: %d, want %d", strings.Count(got, "\n"), strings.Count(src, "\n"))
	}
}

func TestStripStyleDropsCommentsOnly(t *testing.T) {
	src := "/* light */\n:root {\n  --bg: #fff; /* the page */\n}\n\n  a { color: red; }\n"
	if got, want := string(strip("x.css", []byte(src))), ":root {\n--bg: #fff;\n}\na { color: red; }\n"; got != want {
		t.Fatalf("strip: %q, want %q", got, want)
	}
	if got := strip("x.svg", []byte("<!-- kept -->  ")); string(got) != "<!-- kept -->  " {
		t.Fatalf("an image changed: %q", got)
	}
}

// Every shipped script keeps its lines and loses only comments and
// indentation: its code, lines trimmed, is the source's.
func TestStripShippedScripts(t *testing.T) {
	err := fs.WalkDir(embed.Web, "web/static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		src, err := fs.ReadFile(embed.Web, p)
		if err != nil {
			return err
		}
		out := strip(p, src)
		in, got := bytes.Split(src, []byte("\n")), bytes.Split(out, []byte("\n"))
		if len(in) != len(got) {
			t.Fatalf("%s: %d lines, want %d", p, len(got), len(in))
		}
		for i := range in {
			if l := got[i]; len(l) > 0 && !bytes.Equal(l, bytes.TrimSpace(in[i])) {
				t.Fatalf("%s:%d: %q, source %q", p, i+1, l, in[i])
			}
		}
		if len(out) >= len(src) {
			t.Errorf("%s: %d bytes stripped to %d", p, len(src), len(out))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
