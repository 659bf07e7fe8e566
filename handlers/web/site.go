package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/embed"
	"fiplan/handlers/rest"
)

// asset is one static file under its hashed name, with its compressed
// forms (made on first request, at the best levels: the bytes never
// change).
type asset struct {
	*rest.Static
	ctype string
}

// rendered is one page, rendered once at start, compressed like an asset.
type rendered struct {
	*rest.Static
	// private pages send people without any session cookie to sign in.
	private bool
}

// site is the embedded web app after start-up processing.
type site struct {
	assets  map[string]*asset               // hashed name -> file
	names   map[string]string               // plain name -> hashed name
	pages   map[string]map[string]*rendered // path -> language -> page
	login   map[string]*rendered            // the local sign-in form by language (local mode only)
	dicts   map[string]dictionary           // language -> text by key
	layout  string                          // the layout every page is rendered into
	problem string                          // the problem page's main part
	size    int                             // bytes of embedded web files
}

// pageDef is a page: its path, template file, title (a text key), script
// and whether it needs a session.
type pageDef struct {
	path, file, title, script string
	private                   bool
}

var pageDefs = []pageDef{
	{"/", "index.html", "title.calculator", "calculator.js", false},
	{"/app/portfolio", "portfolio.html", "title.portfolio", "portfolio.js", true},
	{"/app/places", "places.html", "title.places", "places.js", true},
	{"/app/tax", "tax.html", "title.tax", "tax.js", true},
	{"/dashboard/settings", "settings.html", "title.settings", "settings.js", true},
}

// pageData is what the layout sees. Title is a text key; Heading and
// Message are English text, translated where the dictionary has them.
type pageData struct {
	Title, Path, Script, Mode, Lang string
	Heading, Message                string
}

var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml",
	".png": "image/png",
}

// tr is text in lang: the dictionary's "problem."+text when it has one,
// else text itself (a message made at run time).
func (s *site) tr(lang, text string) string {
	if v, ok := s.dicts[lang]["problem."+text]; ok {
		return v
	}
	return text
}

func buildSite(mode string) (*site, error) {
	s := &site{assets: map[string]*asset{}, names: map[string]string{}, pages: map[string]map[string]*rendered{}, login: map[string]*rendered{}}
	dicts, n, err := loadDictionaries()
	if err != nil {
		return nil, err
	}
	s.dicts, s.size = dicts, n
	files := map[string][]byte{}
	err = fs.WalkDir(embed.Web, "web/static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(embed.Web, p)
		if err != nil {
			return err
		}
		s.size += len(b)
		files[strings.TrimPrefix(p, "web/static/")] = strip(p, b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read embedded web files: %w", err)
	}
	if err := s.hashAssets(files); err != nil {
		return nil, err
	}
	layout, err := fs.ReadFile(embed.Web, "web/layout.html")
	if err != nil {
		return nil, fmt.Errorf("cannot read web layout: %w", err)
	}
	s.layout = string(layout)
	s.size += len(layout)
	for _, p := range pageDefs {
		s.pages[p.path] = map[string]*rendered{}
		for _, l := range languages {
			r, err := s.renderFile(p.file, pageData{Title: p.title, Path: p.path, Script: p.script, Mode: mode, Lang: l})
			if err != nil {
				return nil, err
			}
			r.private = p.private
			s.pages[p.path][l] = r
		}
	}
	for _, l := range languages {
		if s.login[l], err = s.renderFile("login.html", pageData{Title: "title.signin", Path: "/auth/login", Script: "login.js", Mode: mode, Lang: l}); err != nil {
			return nil, err
		}
	}
	problem, err := fs.ReadFile(embed.Web, "web/pages/problem.html")
	if err != nil {
		return nil, fmt.Errorf("cannot read the problem page: %w", err)
	}
	s.problem = string(problem)
	s.size += len(problem)
	// Render it once now so that a broken template fails start-up, not an error.
	for _, l := range languages {
		if _, err := s.render(s.problem, pageData{Heading: "h", Message: "m", Mode: mode, Script: "common.js", Lang: l}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *site) renderFile(file string, d pageData) (*rendered, error) {
	main, err := fs.ReadFile(embed.Web, "web/pages/"+file)
	if err != nil {
		return nil, fmt.Errorf("cannot read page %s: %w", file, err)
	}
	if d.Lang == languages[0] {
		s.size += len(main)
	}
	b, err := s.render(string(main), d)
	if err != nil {
		return nil, fmt.Errorf("cannot render page %s in %s: %w", file, d.Lang, err)
	}
	return &rendered{Static: rest.NewStatic(b)}, nil
}

// placeholder is {{name}} or {{name:argument}} in the layout and pages.
var placeholder = regexp.MustCompile(`\{\{([a-z]+)(?::([^}]*))?\}\}`)

// render puts main into the layout and fills the placeholders: title
// (its text, or the heading), mode, heading and message (escaped, in the
// page's language where the dictionary has them), script and asset:NAME
// (hashed static paths), current:PATH (aria-current on the link to this
// page), t:KEY (the text of KEY in the page's language, escaped), lang,
// text (the page's dictionary as JSON, for its scripts) and main. An
// unknown placeholder, text key or static file is an error.
func (s *site) render(main string, d pageData) ([]byte, error) {
	var bad error
	dict := s.dicts[d.Lang]
	if dict == nil {
		return nil, fmt.Errorf("no text in language %q", d.Lang)
	}
	fill := func(text string) string {
		return placeholder.ReplaceAllStringFunc(text, func(m string) string {
			sub := placeholder.FindStringSubmatch(m)
			switch sub[1] {
			case "title":
				if d.Title == "" {
					return html.EscapeString(s.tr(d.Lang, d.Heading))
				}
				v, ok := dict[d.Title]
				if !ok {
					bad = fmt.Errorf("no text for title %q", d.Title)
				}
				return html.EscapeString(v)
			case "mode":
				return html.EscapeString(d.Mode)
			case "heading":
				return html.EscapeString(s.tr(d.Lang, d.Heading))
			case "message":
				return html.EscapeString(s.tr(d.Lang, d.Message))
			case "t":
				v, ok := dict[sub[2]]
				if !ok {
					bad = fmt.Errorf("no text for key %q", sub[2])
				}
				return html.EscapeString(v)
			case "lang":
				return d.Lang
			case "text":
				return scriptJSON(dict)
			case "script", "asset":
				name := sub[2]
				if sub[1] == "script" {
					name = d.Script
				}
				h, ok := s.names[name]
				if !ok {
					bad = fmt.Errorf("no static file %q", name)
				}
				return "/static/" + h
			case "current":
				if sub[2] == d.Path {
					return ` aria-current="page"`
				}
				return ""
			case "main":
				return m // filled below, after the layout's own placeholders
			}
			bad = fmt.Errorf("unknown placeholder %s", m)
			return ""
		})
	}
	out := strings.Replace(fill(s.layout), "{{main}}", fill(main), 1)
	if bad != nil {
		return nil, bad
	}
	return []byte(out), nil
}

// hashAssets names every file after the hash of its bytes. A file that
// refers to another ("./api.js" in a module import, url(./x.svg) in CSS)
// has the reference rewritten to the hashed name first, so its own hash
// changes whenever a file it loads changes.
func (s *site) hashAssets(files map[string][]byte) error {
	pending := make([]string, 0, len(files))
	for name := range files {
		pending = append(pending, name)
	}
	sort.Strings(pending)
	for len(pending) > 0 {
		var next []string
		for _, name := range pending {
			body, ok := s.rewrite(name, files)
			if !ok {
				next = append(next, name)
				continue
			}
			ext := path.Ext(name)
			sum := sha256.Sum256(body)
			hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
			ct := contentTypes[ext]
			if ct == "" {
				ct = "application/octet-stream"
			}
			s.names[name] = hashed
			s.assets[hashed] = &asset{Static: rest.NewStatic(body), ctype: ct}
		}
		if len(next) == len(pending) {
			return fmt.Errorf("static files refer to each other in a cycle: %v", next)
		}
		pending = next
	}
	return nil
}

// rewrite replaces references to other static files in name's bytes with
// their hashed names; false when one of them has no hashed name yet.
func (s *site) rewrite(name string, files map[string][]byte) ([]byte, bool) {
	body := files[name]
	ext := path.Ext(name)
	if ext != ".js" && ext != ".css" {
		return body, true
	}
	for other := range files {
		if other == name {
			continue
		}
		refs := [][]byte{[]byte(`'./` + other + `'`), []byte(`"./` + other + `"`), []byte(`url(./` + other + `)`)}
		for _, ref := range refs {
			if !bytes.Contains(body, ref) {
				continue
			}
			hashed, ok := s.names[other]
			if !ok {
				return nil, false
			}
			body = bytes.ReplaceAll(body, ref, bytes.Replace(ref, []byte(other), []byte(hashed), 1))
		}
	}
	return body, true
}

// warm makes every compressed form of the pages and static files, one
// coding at a time in the order browsers take them (zstd: Chromium and
// Firefox; br: Safari; gzip), and within each the calculator's page in
// each language first, then the files, then the other pages. Brotli's best
// level is most of the cost (about 3 s of one core for the 0.5 MB here,
// zstd's 0.6 s, gzip's 0.05 s). It returns how many forms it prepared.
func (s *site) warm() int {
	var all []*rest.Static
	for _, l := range languages {
		all = append(all, s.pages["/"][l].Static)
	}
	names := make([]string, 0, len(s.assets))
	for n := range s.assets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		all = append(all, s.assets[n].Static)
	}
	for _, p := range pageDefs[1:] {
		for _, l := range languages {
			all = append(all, s.pages[p.path][l].Static)
		}
	}
	for _, l := range languages {
		all = append(all, s.login[l].Static)
	}
	for _, coding := range []string{"zstd", "br", "gzip"} {
		for _, b := range all {
			b.Prepare(coding)
		}
	}
	return 3 * len(all)
}

// page is the page at path in lang; nil when there is none.
func (s *site) page(path, lang string) *rendered { return s.pages[path][lang] }

func (s *site) known(path string) bool {
	switch path {
	case "/auth/login", "/auth/callback", "/auth/logout", "/auth/refresh", "/auth/session":
		return true
	}
	return false
}

// static serves one hashed file.
func (h *Handler) static(rc *fasthttp.RequestCtx, name string) {
	a := h.site.assets[name]
	if a == nil {
		h.problem(rc, fasthttp.StatusNotFound, "File not found", "There is no file at this address.")
		return
	}
	if !(rc.IsGet() || rc.IsHead()) {
		rc.Response.Header.Set(fasthttp.HeaderAllow, "GET, HEAD")
		h.problem(rc, fasthttp.StatusMethodNotAllowed, "Method not allowed", "Static files only answer GET.")
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "public, max-age=31536000, immutable")
	a.Write(rc, a.ctype)
}

// page serves a rendered page in the request's language; a private page
// sends someone with no session at all to sign in first.
func (h *Handler) page(rc *fasthttp.RequestCtx, path string) {
	p := h.site.page(path, language(rc))
	rc.Response.Header.Set(fasthttp.HeaderVary, "Cookie, Accept-Language")
	if p.private && len(rc.Request.Header.Cookie(SessionCookie)) == 0 && len(rc.Request.Header.Cookie(RefreshCookie)) == 0 {
		rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
		redirect(rc, "/auth/login?next="+urlQueryEscape(path), fasthttp.StatusSeeOther)
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-cache")
	p.Write(rc, contentHTML)
	rc.Response.Header.Set(fasthttp.HeaderVary, varyPage)
}

// varyPage: a page differs by encoding and by language, chosen from the
// language cookie or Accept-Language.
const varyPage = "Accept-Encoding, Cookie, Accept-Language"

const contentHTML = "text/html; charset=utf-8"

// problem answers an error with a small page in the site's layout.
func (h *Handler) problem(rc *fasthttp.RequestCtx, status int, heading, msg string) {
	b, err := h.site.render(h.site.problem, pageData{Heading: heading, Message: msg, Mode: h.mode(), Script: "common.js", Lang: language(rc)})
	if err != nil { // unreachable: buildSite rendered it once
		b = []byte(html.EscapeString(heading))
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	rc.SetStatusCode(status)
	rc.SetContentType("text/html; charset=utf-8")
	rc.SetBody(b)
}
