// Package web serves fiplan's web app beside the API: the pages, their
// static files under content-hashed names, and sign-in.
//
// Every response carries a Content-Security-Policy that allows scripts,
// styles, images and connections from this origin only (no inline script,
// no inline style), X-Content-Type-Options: nosniff and Referrer-Policy:
// strict-origin-when-cross-origin. Pages are sent with Cache-Control:
// no-cache and an ETag; static files are named after a hash of their bytes
// (computed at start, so a page can never load a stale file) and sent with
// Cache-Control: public, max-age=31536000, immutable.
//
// # Languages and themes
//
// Every page is rendered at start in each language of web/i18n (English
// and German): its text from {{t:key}} placeholders, and the same
// dictionary put in the page as a JSON block for its scripts. A request
// gets the language of the fiplan_lang cookie, else the best of its
// Accept-Language, else English (Vary: Cookie, Accept-Language). GET of a
// page with ?lang=xx sets the cookie and redirects to the page without it;
// signed in, the page follows the language of the settings' locale. The
// colour scheme follows prefers-color-scheme unless the page's toggle chose
// one (localStorage, applied by a classic script in <head> before the first
// paint).
//
// # Sessions
//
// The session is a JWT in the cookie fiplan_session (HttpOnly, SameSite=Lax,
// Secure when the public URL is https, Path=/), the same token the API
// accepts as a bearer token. Two sources make it:
//
//   - Local mode (no identity provider and no configured JWT secret or JWKS):
//     GET /auth/login shows a form that signs a session for any name with the
//     server's local secret. It is for one person on their own machine.
//   - OpenID Connect: GET /auth/login starts the authorization code flow
//     with PKCE, state and nonce; GET /auth/callback checks them, exchanges
//     the code and keeps the provider's ID token as the session.
//
// The refresh credential (the provider's refresh token, or in local mode the
// name and tier to sign again) never reaches JavaScript: it travels in the
// HttpOnly cookie fiplan_refresh, limited to /auth/, sealed with AES-256-GCM
// under a key derived with HKDF-SHA256 from the server's secrets. A cookie
// that fails to open (tampered, or sealed under other secrets) signs the
// person out. POST /auth/refresh renews the session; GET /auth/session tells
// the page who is signed in and when the session expires, so that it can
// refresh before then. Unsafe requests to /auth/ must carry an Origin that
// matches the host, as the API demands of cookie-authenticated requests.
//
// POST /auth/logout ends the session on the server, on every node: it
// records in the store's revocations the session token (a local session by
// its sid, which every token of that sign-in and its refresh cookie carry;
// a provider's token by its own hash) until it expires, and the refresh
// cookie's session id until the cookie expires; the API refuses a revoked
// token and POST /auth/refresh a revoked cookie. With an identity provider
// that has a revocation endpoint, the provider's refresh token is revoked
// there too (best effort, logged on failure). A sign-in flow is one use:
// its state is spent in the store before the code is exchanged, so a
// replayed callback fails without reaching the provider. Redirects are
// relative, so a TLS-terminating proxy's scheme is kept.
package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
)

// Cookie names.
const (
	SessionCookie = "fiplan_session"
	RefreshCookie = "fiplan_refresh"
	flowCookie    = "fiplan_oidc"
)

const (
	// localTTL is how long a locally signed session token lives; the page
	// refreshes it before then.
	localTTL = 15 * time.Minute
	// refreshTTL bounds the refresh cookie: after it, sign in again.
	refreshTTL = 7 * 24 * time.Hour
	// flowTTL bounds a sign-in round trip to the provider.
	flowTTL = 10 * time.Minute
)

// OIDC names the identity provider. An empty Issuer means none.
type OIDC struct {
	Issuer       string
	ClientID     string
	ClientSecret string // empty for a public client (PKCE alone)
}

// Config is what a Handler needs.
type Config struct {
	// PublicURL is the externally visible base URL, such as
	// https://fiplan.example; it makes the redirect URI and decides the
	// cookies' Secure flag.
	PublicURL string
	// LocalSecret, when set and no identity provider is configured, enables
	// local sign-in: sessions are HS256 tokens signed with it.
	LocalSecret []byte
	// Secrets are the server secrets the cookie-sealing key is derived from
	// (at least one, 32 bytes or more in total).
	Secrets [][]byte
	// Verifier is the API's token verifier, for the tokens the sign-in
	// flows receive and make.
	Verifier *auth.Verifier
	// Session is the API's one check of a session token (the server's
	// Session: verified, then judged against the node's sign-out marks as
	// a route that reads nothing of the store judges it), so that GET
	// /auth/session shows as signed in exactly the sessions the API's
	// database-free routes accept, through an outage of the store too.
	Session func(tok []byte) (auth.Principal, error)
	OIDC    OIDC
	Logger  *slog.Logger
	// Client makes the calls to the identity provider (default: 10 s timeout).
	Client *http.Client
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Revocations is the store's record of ended sessions and spent
	// sign-in flows (store.Sessions), shared by every node; required when
	// people sign in here (local mode or an identity provider).
	Revocations Revocations
	// Warm (fiplan's FI_WEB_WARM, on by default) compresses every page
	// and static file in the background from New on (about 4 s of one
	// core), the calculator's page and files first, so that the first
	// visitor after a start does not wait for the forms at the best levels;
	// without it each form is made by the first request that takes it (the
	// tests' servers, which serve a few).
	Warm bool
}

// Revocations records ended sessions and spent one-use values where every
// node sees them (store.Sessions). Times are the handler's clock.
type Revocations interface {
	Revoke(id string, until, now time.Time) (first bool, err error)
	Revoked(id string, now time.Time) (bool, error)
}

// Handler serves the web app. It is safe for concurrent use.
type Handler struct {
	cfg    Config
	public *url.URL
	secure bool
	local  bool
	sealer *sealer
	site   *site
	oidc   *provider // nil without an identity provider
	// revocations is Config.Revocations (nil only when nobody signs in here).
	revocations Revocations
	log         *slog.Logger
	now         func() time.Time
	headers     [][2]string
}

// New builds a Handler: it hashes the embedded files, renders the pages
// and, with an identity provider, reads its discovery document.
func New(ctx context.Context, cfg Config) (*Handler, error) {
	if cfg.Verifier == nil {
		return nil, errors.New("cannot create web handler: a Verifier is required")
	}
	if cfg.Session == nil {
		return nil, errors.New("cannot create web handler: a Session check is required")
	}
	if cfg.PublicURL == "" {
		cfg.PublicURL = "http://localhost:8080"
	}
	pub, err := ParsePublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	sl, err := newSealer(cfg.Secrets)
	if err != nil {
		return nil, err
	}
	h := &Handler{
		cfg:         cfg,
		public:      pub,
		secure:      pub.Scheme == "https",
		local:       len(cfg.LocalSecret) > 0 && cfg.OIDC.Issuer == "",
		sealer:      sl,
		log:         cfg.Logger,
		revocations: cfg.Revocations,
		now:         cfg.Now,
	}
	if (h.local || cfg.OIDC.Issuer != "") && cfg.Revocations == nil {
		return nil, errors.New("cannot create web handler: sign-in needs Revocations, to end sessions on every node")
	}
	formAction := "'self'"
	if cfg.OIDC.Issuer != "" {
		if cfg.OIDC.ClientID == "" {
			return nil, errors.New("cannot use identity provider: no client id")
		}
		p, err := newProvider(ctx, cfg.OIDC, pub.JoinPath("/auth/callback").String(), cfg.Client)
		if err != nil {
			return nil, err
		}
		h.oidc = p
		// Signing out posts a form that the server redirects to the
		// provider's end-session endpoint; form-action covers redirects.
		if p.endSession != "" {
			if u, err := url.Parse(p.endSession); err == nil {
				formAction += " " + u.Scheme + "://" + u.Host
			}
		}
	}
	h.headers = [][2]string{
		{"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action " + formAction + "; object-src 'none'"},
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "strict-origin-when-cross-origin"},
	}
	if h.site, err = buildSite(h.mode()); err != nil {
		return nil, err
	}
	h.log.Debug("web app ready", "mode", h.mode(), "files", len(h.site.assets), "embeddedBytes", h.site.size)
	if cfg.Warm {
		go func() {
			start := time.Now()
			n := h.site.warm()
			h.log.Debug("web app compressed", "forms", n, "took", time.Since(start))
		}()
	}
	return h, nil
}

// ParsePublicURL checks a public base URL: http or https, a host, no query
// or fragment. The result has no trailing slash.
func ParsePublicURL(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil {
		return nil, fmt.Errorf("cannot parse public URL %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("public URL %q must be http(s)://host[:port][/path]", s)
	}
	return u, nil
}

// mode is how people sign in: "local", "oidc" or "none".
func (h *Handler) mode() string {
	switch {
	case h.oidc != nil:
		return "oidc"
	case h.local:
		return "local"
	}
	return "none"
}

// Serve is the fasthttp handler for every path outside /api/.
func (h *Handler) Serve(rc *fasthttp.RequestCtx) {
	for _, kv := range h.headers {
		rc.Response.Header.Set(kv[0], kv[1])
	}
	path := string(rc.Path())
	get := rc.IsGet() || rc.IsHead()
	switch {
	case strings.HasPrefix(path, "/static/"):
		h.static(rc, path[len("/static/"):])
	case path == "/auth/login" && get:
		h.login(rc)
	case path == "/auth/login" && rc.IsPost():
		h.localLogin(rc)
	case path == "/auth/callback" && get:
		h.callback(rc)
	case path == "/auth/logout" && rc.IsPost():
		h.logout(rc)
	case path == "/auth/refresh" && rc.IsPost():
		h.refresh(rc)
	case path == "/auth/session" && get:
		h.session(rc)
	case strings.HasPrefix(path, "/auth/") && h.site.known(path):
		rc.Response.Header.Set(fasthttp.HeaderAllow, allowed(path))
		h.problem(rc, fasthttp.StatusMethodNotAllowed, "Method not allowed", "This address does not take that method.")
	case get && h.site.page(path, languages[0]) != nil && rc.QueryArgs().Has("lang"):
		h.switchLanguage(rc, path)
	case get && h.site.page(path, languages[0]) != nil:
		h.page(rc, path)
	case h.site.page(path, languages[0]) != nil:
		rc.Response.Header.Set(fasthttp.HeaderAllow, "GET, HEAD")
		h.problem(rc, fasthttp.StatusMethodNotAllowed, "Method not allowed", "This page only answers GET.")
	default:
		h.problem(rc, fasthttp.StatusNotFound, "Page not found", "There is no page at this address.")
	}
}

func allowed(path string) string {
	switch path {
	case "/auth/login":
		return "GET, HEAD, POST"
	case "/auth/callback", "/auth/session":
		return "GET, HEAD"
	}
	return "POST"
}

// sameOrigin reports whether the request's Origin names this host, on
// https when the public URL is https: the check the API applies to
// cookie-authenticated unsafe requests. A page injected into plain http on
// the same host is same-site to the browser's cookies, not same-origin.
func (h *Handler) sameOrigin(rc *fasthttp.RequestCtx) bool {
	o := rc.Request.Header.Peek("Origin")
	i := bytes.Index(o, []byte("://"))
	if i < 0 || h.secure && string(o[:i]) != "https" {
		return false
	}
	return len(o) > i+3 && string(o[i+3:]) == string(rc.Host())
}

// safeNext returns p when it is a path on this site, else "/". Browsers
// drop tabs and newlines from URLs and read a backslash as a slash, so
// "/\t/host" and "/\\host" would leave the site; control characters and
// backslashes are refused outright.
func safeNext(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsRune(p, '\\') {
		return "/"
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x20 || p[i] == 0x7f {
			return "/"
		}
	}
	return p
}
