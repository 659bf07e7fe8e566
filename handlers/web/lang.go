package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/embed"
)

// Languages the web app is written in; the first is the default. Each has
// its text in web/i18n/<code>.json, one flat object of key -> text, with the
// same keys in every language.
var languages = []string{"en", "de"}

// LangCookie keeps the language chosen with the page's switch (or taken
// from the signed-in person's settings by the page).
const LangCookie = "fiplan_lang"

// dictionary is one language's text by key.
type dictionary map[string]string

// loadDictionaries reads every language's file and checks that they have
// the same keys and no empty text.
func loadDictionaries() (map[string]dictionary, int, error) {
	dicts := map[string]dictionary{}
	size := 0
	for _, l := range languages {
		b, err := fs.ReadFile(embed.Web, "web/i18n/"+l+".json")
		if err != nil {
			return nil, 0, fmt.Errorf("cannot read the %s text of the web app: %w", l, err)
		}
		size += len(b)
		var d dictionary
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, 0, fmt.Errorf("cannot decode web/i18n/%s.json: %w", l, err)
		}
		for k, v := range d {
			if strings.TrimSpace(v) == "" {
				return nil, 0, fmt.Errorf("web/i18n/%s.json: key %q has no text", l, k)
			}
		}
		dicts[l] = d
	}
	base := dicts[languages[0]]
	for _, l := range languages[1:] {
		if missing := keyDiff(base, dicts[l]); len(missing) > 0 {
			return nil, 0, fmt.Errorf("web/i18n/%s.json lacks keys %q", l, missing)
		}
		if extra := keyDiff(dicts[l], base); len(extra) > 0 {
			return nil, 0, fmt.Errorf("web/i18n/%s.json has keys %q that %s.json lacks", l, extra, languages[0])
		}
	}
	return dicts, size, nil
}

// keyDiff lists the keys of a that b lacks, sorted.
func keyDiff(a, b dictionary) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// scriptJSON is d as JSON for a <script type="application/json"> block:
// "<" is escaped so that no text can close the element.
func scriptJSON(d dictionary) string {
	b, _ := json.Marshal(d) // a map of strings always encodes
	return string(bytes.ReplaceAll(b, []byte("<"), []byte(`\u003c`)))
}

// language picks the page's language: the fiplan_lang cookie (the switch,
// or the signed-in person's settings as the page last saw them), else the
// best of Accept-Language, else the default.
func language(rc *fasthttp.RequestCtx) string {
	if c := string(rc.Request.Header.Cookie(LangCookie)); slices.Contains(languages, c) {
		return c
	}
	return fromAcceptLanguage(string(rc.Request.Header.Peek(fasthttp.HeaderAcceptLanguage)))
}

// fromAcceptLanguage answers the supported language with the highest
// quality in an Accept-Language header ("de-CH, de;q=0.9, en;q=0.8"), the
// first listed on a tie; the default when none is supported.
func fromAcceptLanguage(h string) string {
	best, bestQ := languages[0], 0.0
	for _, part := range strings.Split(h, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if q > bestQ && slices.Contains(languages, primary) {
			best, bestQ = primary, q
		}
	}
	return best
}

// switchLanguage answers GET <page>?lang=xx: it keeps the choice in the
// language cookie for a year and sends the browser back to the page
// without the parameter, the rest of the query kept. An unknown language
// is ignored.
func (h *Handler) switchLanguage(rc *fasthttp.RequestCtx, path string) {
	l := string(rc.QueryArgs().Peek("lang"))
	if slices.Contains(languages, l) {
		c := fasthttp.AcquireCookie()
		defer fasthttp.ReleaseCookie(c)
		c.SetKey(LangCookie)
		c.SetValue(l)
		c.SetPath("/")
		c.SetMaxAge(365 * 24 * 3600)
		c.SetSameSite(fasthttp.CookieSameSiteLaxMode)
		c.SetSecure(h.secure)
		rc.Response.Header.SetCookie(c)
	}
	args := fasthttp.AcquireArgs()
	defer fasthttp.ReleaseArgs(args)
	rc.QueryArgs().CopyTo(args)
	args.Del("lang")
	to := path
	if args.Len() > 0 {
		to += "?" + args.String()
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	redirect(rc, to, fasthttp.StatusSeeOther)
}
