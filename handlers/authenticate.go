package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// SessionCookie carries the web app's session JWT.
const SessionCookie = "fiplan_session"

var msgAuthTooLong = "the Authorization header is longer than " + strconv.Itoa(auth.MaxHeader) + " bytes"

// authenticate resolves the caller and enforces the route's access rule.
func (s *Server) authenticate(c *rest.Ctx) bool {
	if c.Route().Access == rest.Probe {
		return true // a health check reads no credentials
	}
	tok, via, ok := s.credentials(c)
	if !ok {
		return false
	}
	if tok == nil {
		if c.Route().Access == rest.Public {
			return true
		}
		return s.unauthorized(c, errcode.Unauthorized, "authentication required: send Authorization: Bearer <token>")
	}
	if auth.IsKey(tok) {
		ok = s.keyPrincipal(c, tok, via)
	} else {
		ok = s.tokenPrincipal(c, tok, via)
	}
	if !ok {
		return false
	}
	c.Authed = true
	if via == auth.ViaCookie && !safeMethod(c.RC.Method()) && !sameOrigin(c.RC, s.cfg.Hosts.Secure) {
		c.ErrorMessage(errcode.Forbidden, "cross-site request refused", "requests authenticated by cookie must carry an Origin header matching this host")
		return false
	}
	return allowed(c)
}

// credentials finds the request's one credential: a bearer token or key,
// or the session cookie. tok is nil when none was sent; ok is false when
// the request has been answered.
func (s *Server) credentials(c *rest.Ctx) (tok []byte, via auth.Via, ok bool) {
	rc := c.RC
	var h []byte
	switch hs := rc.Request.Header.PeekAll(fasthttp.HeaderAuthorization); len(hs) {
	case 0:
	case 1:
		h = hs[0]
	default:
		// Which one a proxy or another server would use is anyone's guess.
		return nil, 0, s.unauthorized(c, errcode.Unauthorized, "send one Authorization header, not several")
	}
	switch {
	case len(h) > auth.MaxHeader:
		c.Error(errcode.HeaderTooLarge, msgAuthTooLong)
		return nil, 0, false
	case len(h) > 0:
		t, ok := auth.BearerToken(h)
		if !ok {
			return nil, 0, s.unauthorized(c, errcode.Unauthorized, "Authorization header must be \"Bearer <token>\"")
		}
		return t, auth.ViaToken, true
	}
	if ck := rc.Request.Header.Cookie(SessionCookie); len(ck) > 0 {
		return ck, auth.ViaCookie, true
	}
	return nil, auth.ViaToken, true
}

// keyPrincipal resolves an API key to its owner, with the owner's tier.
func (s *Server) keyPrincipal(c *rest.Ctx, tok []byte, via auth.Via) bool {
	if via == auth.ViaCookie {
		return s.unauthorized(c, errcode.Unauthorized, "the session cookie does not carry API keys")
	}
	p, err := s.apiKey(tok)
	if errors.Is(err, auth.ErrInvalid) {
		return s.unauthorized(c, errcode.Unauthorized, "invalid API key")
	}
	if err != nil {
		c.Storage(err)
		return false
	}
	c.Principal = p
	return true
}

// apiKey looks an API key up through the node's mirror of the sign-out
// marks (store.Mirror): from its cache of keys found while its copy of the
// marks is fresh, else in the store. A key revoked on this node fails from
// its next request, on every other within about a second. An unknown or
// malformed key wraps auth.ErrInvalid; any other error is the store's.
func (s *Server) apiKey(tok []byte) (auth.Principal, error) {
	hash, ok := auth.ParseKey(tok)
	if !ok {
		return auth.Principal{}, errInvalidKey
	}
	k, acct, err := s.db.LookupKey(hash)
	if errors.Is(err, store.ErrNotFound) {
		return auth.Principal{}, errInvalidKey
	}
	if err != nil {
		return auth.Principal{}, err
	}
	tier, _ := auth.ParseTier(acct.Tier)
	s.touch(k.Owner, k.ID)
	return auth.Principal{User: k.Owner, Tier: tier, Via: auth.ViaKey, KeyID: k.ID}, nil
}

var errInvalidKey = fmt.Errorf("%w: unknown or revoked API key", auth.ErrInvalid)

// Credential resolves the bearer credential (the token after "Bearer ")
// of a request to /mcp: an API key through the mirror's key cache or the
// store; a session token by session, as a route that reads nothing of the
// store judges it, since the door itself reads nothing and every tool call
// is judged again by the route it reaches. A refused credential's error
// wraps auth.ErrInvalid or auth.ErrExpired; any other error is the
// store's.
func (s *Server) Credential(tok []byte) (auth.Principal, error) {
	if auth.IsKey(tok) {
		return s.apiKey(tok)
	}
	return s.session(tok, true)
}

// Session is the check of a session token for the web app's GET
// /auth/session, the one every door applies (session), as a route that
// reads nothing of the store judges it: the answer reads nothing else.
func (s *Server) Session(tok []byte) (auth.Principal, error) {
	return s.session(tok, true)
}

var errRevoked = fmt.Errorf("%w: the session has ended (signed out)", auth.ErrInvalid)

// live checks a verified session token against the sign-out marks, read
// from this node's mirror of them (store.Mirror): a sign-out on this node
// holds from its next request, on every other within about a second, and
// while the mirror is older than that the store is read instead. A
// revoked session wraps auth.ErrInvalid; any other error is the store's.
func (s *Server) live(p auth.Principal) error {
	revoked, err := s.db.Revoked(p.Session, s.now())
	if err != nil {
		return err
	}
	if revoked {
		return errRevoked
	}
	return nil
}

// dbFree reports whether the route reads nothing of the store: a public
// route. Its signed-in callers keep it while the store is down, judged by
// the last sign-out marks this node read and by their token's own tier.
func dbFree(c *rest.Ctx) bool { return c.Route().Access == rest.Public }

// session verifies a session token and checks it against the sign-out
// marks: the one check of a session credential at every door (the API's
// bearer token and cookie, and /mcp). dbFree says the caller will read
// nothing of the store with it: while the store fails, such a caller is
// judged by the last marks this node read (a late answer rather than
// none), and any other gets the store's error. A refused token's error
// wraps auth.ErrInvalid (errRevoked when signed out) or is
// auth.ErrExpired.
func (s *Server) session(tok []byte, dbFree bool) (auth.Principal, error) {
	p, err := s.verifier.Verify(tok)
	if err != nil {
		return p, err
	}
	err = s.live(p)
	if err != nil && !errors.Is(err, errRevoked) && dbFree {
		err = nil
		if s.marks.Known(p.Session, s.now()) {
			err = errRevoked
		}
	}
	return p, err
}

// tokenPrincipal verifies a session token.
func (s *Server) tokenPrincipal(c *rest.Ctx, tok []byte, via auth.Via) bool {
	p, err := s.session(tok, dbFree(c))
	switch {
	case errors.Is(err, auth.ErrExpired):
		return s.unauthorized(c, errcode.TokenExpired, "Token has expired")
	case errors.Is(err, auth.ErrLifetime):
		return s.unauthorized(c, errcode.Unauthorized, "token lifetime exceeds one hour: without iat, exp may be at most one hour ahead")
	case errors.Is(err, errRevoked):
		return s.unauthorized(c, errcode.Unauthorized, "this session has ended: sign in again")
	case errors.Is(err, auth.ErrInvalid):
		return s.unauthorized(c, errcode.Unauthorized, "invalid token")
	case err != nil:
		c.Storage(err)
		return false
	}
	p.Via = via
	c.Principal = p
	return s.rememberTier(c)
}

// allowed enforces the route's access rule on the authenticated caller.
func allowed(c *rest.Ctx) bool {
	switch c.Route().Access {
	case rest.Session:
		if c.Principal.Via == auth.ViaKey {
			c.ErrorMessage(errcode.Forbidden, "this endpoint needs a signed-in session", "API keys cannot manage API keys or erase the account")
			return false
		}
	case rest.Pro:
		if c.Principal.Tier != auth.TierPro {
			c.ErrorMessage(errcode.SubscriptionRequired, "this endpoint requires a Pro subscription", "upgrade to Pro to use this endpoint")
			return false
		}
	case rest.Admin:
		if !c.Principal.Admin {
			c.ErrorMessage(errcode.Forbidden, "this endpoint requires the admin role", "your token does not carry role admin")
			return false
		}
	}
	return true
}

// unauthorized answers 401, unless the client has spent its anonymous
// allowance, in which case failed attempts are rate limited like any
// anonymous request: guessing credentials costs the same as calling.
func (s *Server) unauthorized(c *rest.Ctx, code, msg string) bool {
	d := s.public.Allow(c.Client(), s.now().UnixNano())
	if !d.OK && d.Limit > 0 {
		s.rateLimited(c, d)
		return false
	}
	c.RC.Response.Header.Set(fasthttp.HeaderWWWAuthenticate, `Bearer realm="fiplan"`)
	if code == errcode.TokenExpired {
		c.ErrorMessage(code, msg, "Token has expired")
		return false
	}
	c.Error(code, msg)
	return false
}

// rememberTier keeps the account's tier current so that the caller's API
// keys act with it: the store takes the tier of the most recently issued
// session token it has been shown, from any node (store.Sessions.SaveTier).
// This node writes once per user and token issue time; the store refuses
// a tier from a token older than the one that last set it.
func (s *Server) rememberTier(c *rest.Ctx) bool {
	p := &c.Principal
	if t, ok := s.tiers.Load(p.User); ok && t.(int64) >= p.Issued {
		return true
	}
	if err := s.db.SaveTier(p.User, p.Tier.String(), time.Unix(p.Issued, 0)); err != nil {
		if dbFree(c) {
			return true // saved by a later request, once the store answers
		}
		c.Storage(err)
		return false
	}
	s.tiers.Store(p.User, p.Issued)
	return true
}

func safeMethod(m []byte) bool {
	return string(m) == "GET" || string(m) == "HEAD" || string(m) == "OPTIONS"
}

// sameOrigin reports whether the Origin header names this host, on https
// when secure (the public URL is https).
func sameOrigin(rc *fasthttp.RequestCtx, secure bool) bool {
	o := rc.Request.Header.Peek("Origin")
	i := bytes.Index(o, []byte("://"))
	if i < 0 || secure && string(o[:i]) != "https" {
		return false
	}
	return len(o) > i+3 && string(o[i+3:]) == string(rc.Host())
}
