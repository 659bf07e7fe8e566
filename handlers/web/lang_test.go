package web

import (
	"regexp"
	"strings"
	"testing"
)

// Every language has the same keys, and no text of a page is left as a
// placeholder.
func TestDictionariesHaveTheSameKeys(t *testing.T) {
	dicts, _, err := loadDictionaries()
	if err != nil {
		t.Fatal(err)
	}
	if len(dicts["en"]) < 100 || len(dicts["en"]) != len(dicts["de"]) {
		t.Fatalf("en has %d keys, de %d", len(dicts["en"]), len(dicts["de"]))
	}
	if missing := keyDiff(dictionary{"a": "x", "b": "y"}, dictionary{"a": "x"}); len(missing) != 1 || missing[0] != "b" {
		t.Fatalf("keyDiff answers %q", missing)
	}
}

func TestAcceptLanguage(t *testing.T) {
	for h, want := range map[string]string{
		"":                          "en",
		"de":                        "de",
		"de-CH, de;q=0.9, en;q=0.8": "de",
		"en-US,en;q=0.9,de;q=0.8":   "en",
		"fr-FR, de;q=0.5":           "de",
		"fr, es":                    "en",
		"en;q=0.2, de;q=0.7":        "de",
		"de;q=bad, en":              "en",
		"DE-at":                     "de",
	} {
		if got := fromAcceptLanguage(h); got != want {
			t.Errorf("Accept-Language %q: %s, want %s", h, got, want)
		}
	}
}

// A page is sent in the cookie's language, else Accept-Language's, says
// so on <html>, carries no English sentence of the English page and no
// unfilled placeholder.
func TestPagesInGerman(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	text := regexp.MustCompile(`>([^<>]*[A-Za-z]{3,}[^<>]*)<`)
	for _, p := range append([]string{"/auth/login"}, pagePaths...) {
		en := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}}).Body()
		de := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}, header: map[string]string{"Accept-Language": "de-DE,de;q=0.9"}})
		body := string(de.Body())
		if !strings.Contains(body, `<html lang="de">`) {
			t.Errorf("%s with Accept-Language de: not German", p)
		}
		if v := string(de.Header.Peek("Vary")); !strings.Contains(v, "Accept-Language") {
			t.Errorf("%s: Vary %q", p, v)
		}
		// Any {{...}} left is a placeholder the renderer did not fill (the
		// text itself uses single braces).
		if m := regexp.MustCompile(`\{\{[^{}]*\}\}`).FindString(body); m != "" {
			t.Errorf("%s: unfilled placeholder %s", p, m)
		}
		if !strings.Contains(body, `<script type="application/json" id="i18n">{"`) {
			t.Errorf("%s: no dictionary for the scripts", p)
		}
		// Names, codes and brand words read the same in both languages.
		same := map[string]bool{"fiplan": true, "Portfolio": true, "Name": true, "ISIN (optional)": true, "Region": true, "warm": true, "normal": true, "free": true, "SMS": true, "Deutsch": true, "English": true, "IE00BK5BQT80": true, "Portfolio · fiplan": true, "imperial": true, "Authorization: Bearer svc_…": true, "Webhooks": true}
		// Code (a verification snippet) reads the same, too.
		for _, ix := range text.FindAllStringSubmatchIndex(string(en), -1) {
			m1 := string(en[ix[2]:ix[3]])
			s := strings.TrimSpace(m1)
			if same[s] || strings.HasPrefix(s, "{") || strings.HasSuffix(string(en[:ix[0]+1]), "<code>") {
				continue
			}
			if strings.Contains(body, ">"+m1+"<") {
				t.Errorf("%s: %q is in English on the German page", p, s)
			}
		}
		cookie := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess, LangCookie: "en"}, header: map[string]string{"Accept-Language": "de"}})
		if !strings.Contains(string(cookie.Body()), `<html lang="en">`) {
			t.Errorf("%s: the language cookie does not win over Accept-Language", p)
		}
	}
}

// ?lang= keeps the choice in the cookie and sends the browser back without
// it, the rest of the query kept; an unknown language sets nothing.
func TestLanguageSwitch(t *testing.T) {
	f := newFixture(t, "", true)
	r := f.do(req{path: "/?currentAge=41&lang=de&hist=0"})
	if r.StatusCode() != 303 || string(r.Header.Peek("Location")) != "/?currentAge=41&hist=0" {
		t.Fatalf("status %d, Location %q", r.StatusCode(), r.Header.Peek("Location"))
	}
	if c := string(r.Header.PeekCookie(LangCookie)); !strings.Contains(c, "fiplan_lang=de") || !strings.Contains(strings.ToLower(c), "path=/") {
		t.Fatalf("cookie %q", c)
	}
	r = f.do(req{path: "/?lang=xx"})
	if r.StatusCode() != 303 || string(r.Header.Peek("Location")) != "/" || len(r.Header.PeekCookie(LangCookie)) != 0 {
		t.Fatalf("unknown language: status %d, Location %q, cookie %q", r.StatusCode(), r.Header.Peek("Location"), r.Header.PeekCookie(LangCookie))
	}
	// A problem page speaks the request's language too.
	nf := f.do(req{path: "/nowhere", header: map[string]string{"Accept-Language": "de"}})
	if b := string(nf.Body()); nf.StatusCode() != 404 || !strings.Contains(b, "Seite nicht gefunden") || !strings.Contains(b, `<html lang="de">`) {
		t.Fatalf("404 in German: %d %s", nf.StatusCode(), b)
	}
}

// The stored colour scheme is applied before the first paint: theme.js is
// a classic script in <head> (not a module, not deferred), ahead of the
// stylesheet so that it runs as soon as it arrives rather than after the
// stylesheet, and the parser goes on with the body while the stylesheet
// loads. What the first screen does not need comes after it: the page's
// module is deferred, and the page's text for its scripts follows the
// content. The modules it imports are not preloaded: the first paint does
// not wait for them, and Chromium runs a loaded module as soon as the
// stylesheet is in, so loaded sooner the page's start-up would compete
// with the first paint for the CPU.
func TestFirstScreenComesFirst(t *testing.T) {
	f := newFixture(t, "", true)
	for _, path := range []string{"/", "/auth/login"} {
		body := string(f.do(req{path: path}).Body())
		head, rest, ok := strings.Cut(body, "</head>")
		if !ok {
			t.Fatalf("%s: no </head>", path)
		}
		theme := regexp.MustCompile(`<script([^>]*)src="/static/theme\.[0-9a-f]+\.js"([^>]*)>`).FindStringSubmatchIndex(head)
		if theme == nil {
			t.Fatalf("%s: theme.js is not loaded in <head>", path)
		}
		if attrs := head[theme[2]:theme[3]] + head[theme[4]:theme[5]]; strings.Contains(attrs, "module") || strings.Contains(attrs, "defer") || strings.Contains(attrs, "async") {
			t.Fatalf("%s: theme.js does not block the first paint: %q", path, attrs)
		}
		if css := strings.Index(head, `<link rel="stylesheet"`); css < 0 || css < theme[0] {
			t.Errorf("%s: the stylesheet comes before theme.js, which would wait for it", path)
		}
		if scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(head, -1); len(scripts) != 2 || !strings.Contains(scripts[1], `type="module"`) {
			t.Errorf("%s: <head> holds other scripts than theme.js and the page's module: %q", path, scripts)
		}
		text := strings.Index(rest, `<script type="application/json" id="i18n">`)
		if text < 0 || text < strings.Index(rest, "</main>") || text < strings.Index(rest, "</footer>") {
			t.Errorf("%s: the page's text for its scripts is not after its content", path)
		}
	}
}
