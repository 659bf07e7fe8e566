package handlers

import (
	"bytes"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/rest"
)

var authPrefix = []byte("/auth/")

// limitSignIn puts the web app's sign-in routes (/auth/*) behind the
// public rate limit, per client address as the API counts anonymous
// callers: each request takes one unit, and past the limit the answer is
// the API's 429 RATE_LIMITED envelope with Retry-After. Sign-in, callback,
// refresh and logout reach the identity provider or the store, so a flood
// of them costs what a flood of API calls does. Other paths (pages and
// static files) pass as they are.
func (s *Server) limitSignIn(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(rc *fasthttp.RequestCtx) {
		if bytes.HasPrefix(rc.Path(), authPrefix) && !s.admitSignIn(rc) {
			return
		}
		next(rc)
	}
}

// admitSignIn charges one unit to the client's public limit; over it, it
// answers 429 and reports false.
func (s *Server) admitSignIn(rc *fasthttp.RequestCtx) bool {
	c, ok := rc.UserValue(webCtx{}).(*rest.Ctx)
	if !ok { // called outside serveWeb: a context of its own
		c = rest.AcquireCtx(rc, s.log, s.now())
		defer rest.ReleaseCtx(c)
		s.begin(c)
		c.SetClient(s.clientIP(c))
		defer s.finish(c)
	}
	d := s.public.Allow(c.Client(), s.now().UnixNano())
	if d.Limit == 0 {
		return true // "off"
	}
	s.rateHeaders(c, d)
	if d.OK {
		return true
	}
	s.rateLimited(c, d)
	return false
}
