package web

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
)

// sealer encrypts cookie values with AES-256-GCM. The cookie's name is the
// additional data, so a value sealed for one cookie does not open as another.
type sealer struct{ aead cipher.AEAD }

func newSealer(secrets [][]byte) (*sealer, error) {
	var ikm []byte
	for _, s := range secrets {
		ikm = append(ikm, s...)
	}
	if len(ikm) < 32 {
		return nil, errors.New("cannot seal cookies: the server secrets total fewer than 32 bytes")
	}
	key, err := hkdf.Key(sha256.New, ikm, []byte("fiplan web"), "fiplan cookie sealing v1", 32)
	if err != nil {
		return nil, fmt.Errorf("cannot derive cookie key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

func (s *sealer) seal(name string, v any) (string, error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, []byte(name))), nil
}

var errSealed = errors.New("cookie does not open")

func (s *sealer) open(name, value string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return errSealed
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], []byte(name))
	if err != nil {
		return errSealed
	}
	if err := json.Unmarshal(plain, v); err != nil {
		return errSealed
	}
	return nil
}

// refreshState is the sealed content of the refresh cookie.
type refreshState struct {
	Mode  string `json:"m"`            // "local" or "oidc"
	Sub   string `json:"s,omitempty"`  // local: the name
	Tier  string `json:"t,omitempty"`  // local: free or pro
	Token string `json:"rt,omitempty"` // oidc: the provider's refresh token
	// Sid names the sign-in session (auth.SessionID); a logout revokes
	// it. Local session tokens carry it as their sid claim.
	Sid     string `json:"sid,omitempty"`
	Expires int64  `json:"e"` // unix seconds
}

// setCookie sets an HttpOnly cookie on this site.
func (h *Handler) setCookie(rc *fasthttp.RequestCtx, name, value, path string, maxAge time.Duration, same fasthttp.CookieSameSite) {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(name)
	c.SetValue(value)
	c.SetPath(path)
	c.SetHTTPOnly(true)
	c.SetSecure(h.secure)
	c.SetSameSite(same)
	if maxAge > 0 {
		c.SetMaxAge(int(maxAge / time.Second))
	} else {
		c.SetMaxAge(-1) // Max-Age=0: delete
		c.SetExpire(fasthttp.CookieExpireDelete)
	}
	rc.Response.Header.SetCookie(c)
}

// startSession sets the session and refresh cookies.
func (h *Handler) startSession(rc *fasthttp.RequestCtx, token string, rs refreshState) error {
	rs.Expires = h.now().Add(refreshTTL).Unix()
	sealed, err := h.sealer.seal(RefreshCookie, rs)
	if err != nil {
		return err
	}
	// The session cookie outlives its token so that an expired token
	// reaches the API and earns TOKEN_EXPIRED, the page's cue to refresh.
	h.setCookie(rc, SessionCookie, token, "/", refreshTTL, fasthttp.CookieSameSiteLaxMode)
	h.setCookie(rc, RefreshCookie, sealed, "/auth/", refreshTTL, fasthttp.CookieSameSiteStrictMode)
	return nil
}

// endSession deletes the session and refresh cookies.
func (h *Handler) endSession(rc *fasthttp.RequestCtx) {
	h.setCookie(rc, SessionCookie, "", "/", 0, fasthttp.CookieSameSiteLaxMode)
	h.setCookie(rc, RefreshCookie, "", "/auth/", 0, fasthttp.CookieSameSiteStrictMode)
}

// sessionInfo is GET /auth/session, and the answer of a refresh.
type sessionInfo struct {
	SignedIn bool   `json:"signedIn"`
	User     string `json:"user,omitempty"`
	Tier     string `json:"tier,omitempty"`
	Expires  int64  `json:"expires,omitempty"` // unix seconds
	// Refreshable: a refresh cookie is present, so POST /auth/refresh may
	// renew an expired or missing session.
	Refreshable bool   `json:"refreshable"`
	Mode        string `json:"mode"` // local, oidc or none
}

func (h *Handler) info(rc *fasthttp.RequestCtx, token []byte) sessionInfo {
	si := sessionInfo{Mode: h.mode(), Refreshable: len(rc.Request.Header.Cookie(RefreshCookie)) > 0}
	if len(token) == 0 {
		return si
	}
	// A session the API would refuse (signed out, expired, or one the
	// store cannot answer for while it has no last marks to go by) shows
	// as signed out.
	p, err := h.cfg.Session(token)
	if err != nil {
		return si
	}
	si.SignedIn, si.User, si.Tier, si.Expires = true, p.User, p.Tier.String(), p.Expires
	return si
}

func writeJSON(rc *fasthttp.RequestCtx, status int, v any) {
	b, _ := json.Marshal(v)
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	rc.SetStatusCode(status)
	rc.SetContentType("application/json")
	rc.SetBody(b)
}

// session answers who is signed in, without secrets.
func (h *Handler) session(rc *fasthttp.RequestCtx) {
	writeJSON(rc, fasthttp.StatusOK, h.info(rc, rc.Request.Header.Cookie(SessionCookie)))
}

// login starts sign-in: the local form, or the identity provider.
func (h *Handler) login(rc *fasthttp.RequestCtx) {
	next := safeNext(string(rc.QueryArgs().Peek("next")))
	switch {
	case h.oidc != nil:
		h.startFlow(rc, next)
	case h.local:
		rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-cache")
		h.site.login[language(rc)].Write(rc, contentHTML)
		rc.Response.Header.Set(fasthttp.HeaderVary, varyPage)
	default:
		h.problem(rc, fasthttp.StatusNotFound, "Sign-in is not configured",
			"This server verifies tokens from its configured secret or JWKS but has no identity provider for the web app: set FI_OIDC_ISSUER and FI_OIDC_CLIENT_ID.")
	}
}

// localLogin signs a local session from the form's name and tier.
func (h *Handler) localLogin(rc *fasthttp.RequestCtx) {
	if !h.local {
		h.problem(rc, fasthttp.StatusNotFound, "Page not found", "Local sign-in is off: this server signs people in through its identity provider.")
		return
	}
	if !h.sameOrigin(rc) {
		h.problem(rc, fasthttp.StatusForbidden, "Cross-site request refused", "The sign-in form must be sent from this site.")
		return
	}
	args := rc.PostArgs()
	name := strings.TrimSpace(string(args.Peek("name")))
	tier := string(args.Peek("tier"))
	if tier == "" {
		tier = "free"
	}
	next := safeNext(string(args.Peek("next")))
	if _, ok := auth.ParseTier(tier); !ok {
		h.problem(rc, fasthttp.StatusBadRequest, "Sign-in failed", "The tier must be free or pro.")
		return
	}
	sid, err := randomString()
	if err != nil {
		h.log.Error("cannot start session", "err", err)
		h.problem(rc, fasthttp.StatusInternalServerError, "Sign-in failed", "Retry after a moment.")
		return
	}
	token, err := auth.Sign(h.cfg.LocalSecret, auth.Claims{Sub: name, Tier: tier, TTL: localTTL, Sid: sid}, h.now())
	if err != nil {
		h.problem(rc, fasthttp.StatusBadRequest, "Sign-in failed", "The name must be 1 to 128 printable characters.")
		return
	}
	if err := h.startSession(rc, token, refreshState{Mode: "local", Sub: name, Tier: tier, Sid: sid}); err != nil {
		h.log.Error("cannot start session", "err", err)
		h.problem(rc, fasthttp.StatusInternalServerError, "Sign-in failed", "Retry after a moment.")
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	redirect(rc, next, fasthttp.StatusSeeOther)
}

// refresh renews the session from the refresh cookie, unless the cookie's
// sign-in was signed out (on any node). Any failure signs the person out:
// both cookies are deleted and the answer is 401; only a store that cannot
// say whether the sign-in ended answers 503 and keeps them, for a retry.
func (h *Handler) refresh(rc *fasthttp.RequestCtx) {
	if !h.sameOrigin(rc) {
		writeJSON(rc, fasthttp.StatusForbidden, map[string]string{"error": "requests to /auth/ must carry an Origin header matching this host"})
		return
	}
	var rs refreshState
	raw := string(rc.Request.Header.Cookie(RefreshCookie))
	fail := func(why string, err error) {
		h.log.Info("session refresh failed; signing out", "reason", why, "err", err)
		h.endSession(rc)
		writeJSON(rc, fasthttp.StatusUnauthorized, sessionInfo{Mode: h.mode()})
	}
	if raw == "" {
		fail("no refresh cookie", nil)
		return
	}
	if err := h.sealer.open(RefreshCookie, raw, &rs); err != nil {
		fail("refresh cookie does not open", err)
		return
	}
	if h.now().Unix() >= rs.Expires {
		fail("refresh cookie expired", nil)
		return
	}
	if rs.Sid == "" {
		fail("refresh cookie has no session id (sealed before sessions could be revoked)", nil)
		return
	}
	if h.revocations == nil {
		fail("nobody signs in here", nil)
		return
	}
	revoked, err := h.revocations.Revoked(auth.SessionID(rs.Sid), h.now())
	if err != nil {
		// The store is down: keep the cookies, so that a retry may work.
		h.log.Error("cannot check the session's revocation", "err", err)
		writeJSON(rc, fasthttp.StatusServiceUnavailable, map[string]string{"error": "the session store is unavailable; retry after a moment"})
		return
	}
	if revoked {
		fail("the session was signed out", nil)
		return
	}
	var token string
	switch {
	case rs.Mode == "local" && h.local:
		t, err := auth.Sign(h.cfg.LocalSecret, auth.Claims{Sub: rs.Sub, Tier: rs.Tier, TTL: localTTL, Sid: rs.Sid}, h.now())
		if err != nil {
			fail("cannot sign", err)
			return
		}
		token = t
	case rs.Mode == "oidc" && h.oidc != nil:
		t, next, err := h.oidc.refresh(context.Background(), rs.Token)
		if err != nil {
			fail("provider refused the refresh token", err)
			return
		}
		token, rs.Token = t, next
	default:
		fail("refresh cookie is from another sign-in mode", nil)
		return
	}
	if err := h.startSession(rc, token, rs); err != nil {
		fail("cannot seal", err)
		return
	}
	writeJSON(rc, fasthttp.StatusOK, h.info(rc, []byte(token)))
}

// logout ends the session on the server and in the browser and, when the
// provider supports RP-initiated logout, sends the browser there to end it
// at the provider. The session token and the refresh cookie's session are
// revoked in the store, for every node, until each would have expired;
// the provider's refresh token is revoked at the provider. When the store
// cannot record it, the answer is 503 and the cookies stay, so that the
// person can retry.
func (h *Handler) logout(rc *fasthttp.RequestCtx) {
	if tok, ok := auth.BearerToken(rc.Request.Header.Peek(fasthttp.HeaderAuthorization)); ok {
		// A script's sign-out: no browser sends Authorization by itself,
		// so no Origin is asked for.
		h.logoutBearer(rc, tok)
		return
	}
	if !h.sameOrigin(rc) {
		h.problem(rc, fasthttp.StatusForbidden, "Cross-site request refused", "Sign out from this site.")
		return
	}
	token := string(rc.Request.Header.Cookie(SessionCookie))
	var rs refreshState
	if err := h.sealer.open(RefreshCookie, string(rc.Request.Header.Cookie(RefreshCookie)), &rs); err != nil {
		rs = refreshState{}
	}
	if err := h.revoke(token, rs); err != nil {
		h.log.Error("cannot record sign-out", "err", err)
		h.problem(rc, fasthttp.StatusServiceUnavailable, "Sign-out failed", "The session could not be ended on the server. Retry after a moment.")
		return
	}
	if rs.Mode == "oidc" && rs.Token != "" && h.oidc != nil && h.oidc.revocation != "" {
		if err := h.oidc.revoke(context.Background(), rs.Token); err != nil {
			h.log.Warn("the identity provider did not revoke the refresh token", "err", err)
		}
	}
	h.endSession(rc)
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	if h.oidc != nil && h.oidc.endSession != "" {
		q := url.Values{}
		if token != "" {
			q.Set("id_token_hint", token)
		}
		q.Set("client_id", h.cfg.OIDC.ClientID)
		q.Set("post_logout_redirect_uri", h.public.String()+"/")
		u := h.oidc.endSession
		if strings.Contains(u, "?") {
			u += "&" + q.Encode()
		} else {
			u += "?" + q.Encode()
		}
		redirect(rc, u, fasthttp.StatusSeeOther)
		return
	}
	redirect(rc, "/", fasthttp.StatusSeeOther)
}

// logoutBearer ends the session of the bearer token tok: 204 once the
// store holds it, 401 for a token that does not verify or an API key
// (revoked with DELETE /api/v1/user/api-keys/{id}), 503 when the store
// cannot record it.
func (h *Handler) logoutBearer(rc *fasthttp.RequestCtx, tok []byte) {
	if auth.IsKey(tok) {
		writeJSON(rc, fasthttp.StatusUnauthorized, map[string]string{"error": "an API key does not sign out: revoke it with DELETE /api/v1/user/api-keys/{id}"})
		return
	}
	if _, err := h.cfg.Verifier.Verify(tok); err != nil {
		writeJSON(rc, fasthttp.StatusUnauthorized, map[string]string{"error": "invalid or expired token: nothing to sign out"})
		return
	}
	if err := h.revoke(string(tok), refreshState{}); err != nil {
		h.log.Error("cannot record sign-out", "err", err)
		writeJSON(rc, fasthttp.StatusServiceUnavailable, map[string]string{"error": "the session store is unavailable; retry after a moment"})
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	rc.SetStatusCode(fasthttp.StatusNoContent)
}

// revoke records the end of a session: a single token until it expires;
// a sign-in's session id (the refresh cookie's, which a local session's
// tokens carry too) until any refresh cookie of it issued up to now would
// have expired, whichever of its cookies was presented. A token that no
// longer verifies needs nothing: the API refuses it already.
func (h *Handler) revoke(token string, rs refreshState) error {
	if h.revocations == nil {
		return nil
	}
	now := h.now()
	signIn := now.Add(refreshTTL)
	var done string
	if token != "" {
		if p, err := h.cfg.Verifier.Verify([]byte(token)); err == nil {
			until := time.Unix(p.Expires, 0)
			if auth.NamesSignIn(p.Session) {
				until = signIn
			}
			if _, err := h.revocations.Revoke(p.Session, until, now); err != nil {
				return err
			}
			done = p.Session
		}
	}
	if rs.Sid != "" && now.Unix() < rs.Expires {
		if id := auth.SessionID(rs.Sid); id != done {
			if _, err := h.revocations.Revoke(id, signIn, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// redirect answers with a Location as given. fasthttp's Redirect makes a
// path absolute with the scheme the request arrived on, which behind a
// TLS-terminating proxy is http; a relative Location keeps the browser's.
func redirect(rc *fasthttp.RequestCtx, location string, status int) {
	rc.Response.Header.Set(fasthttp.HeaderLocation, location)
	rc.SetStatusCode(status)
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
