package handlers

import (
	"github.com/valyala/fasthttp"

	"fiplan/handlers/rest"
)

var (
	headerVary   = []byte(fasthttp.HeaderVary)
	headerACAO   = []byte(fasthttp.HeaderAccessControlAllowOrigin)
	headerACEH   = []byte(fasthttp.HeaderAccessControlExposeHeaders)
	headerACAH   = []byte(fasthttp.HeaderAccessControlAllowHeaders)
	headerACMA   = []byte(fasthttp.HeaderAccessControlMaxAge)
	valueOrigin  = []byte("Origin")
	valueExposed = []byte("ETag, Idempotent-Replayed, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-ID")
	valueAllowed = []byte("Authorization, Content-Type, Idempotency-Key, If-Match, X-Request-ID")
	valueMaxAge  = []byte("600")
)

// corsOrigin reports whether the request's Origin is one of the configured
// origins, compared exactly.
func (s *Server) corsOrigin(c *rest.Ctx) bool {
	o := c.RC.Request.Header.Peek("Origin")
	for _, allowed := range s.cfg.CORSOrigins {
		if string(o) == allowed {
			return true
		}
	}
	return false
}

// options answers OPTIONS on a known path: 204 with Allow and, for a CORS
// preflight from an allowed origin, the methods and headers it may use.
// A preflight carries no credentials, so it is neither authenticated nor
// limited.
func (s *Server) options(c *rest.Ctx, n *rest.Node) {
	h := &c.RC.Response.Header
	h.Set(fasthttp.HeaderAllow, n.Allow())
	if len(s.cfg.CORSOrigins) > 0 && s.corsOrigin(c) && len(c.RC.Request.Header.Peek(fasthttp.HeaderAccessControlRequestMethod)) > 0 {
		h.Set(fasthttp.HeaderAccessControlAllowMethods, n.Allow())
		h.SetCanonical(headerACAH, valueAllowed)
		h.SetCanonical(headerACMA, valueMaxAge)
		h.Del(fasthttp.HeaderAccessControlExposeHeaders) // for actual responses only
	}
	c.NoContent()
}
