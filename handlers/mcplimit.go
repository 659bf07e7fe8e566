package handlers

import (
	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
	"fiplan/handlers/mcp"
	"fiplan/handlers/rest"
)

// admitMCP charges a request to /mcp that carries n JSON-RPC messages
// against the same limits as the API: n units of the caller's tier, or,
// without a valid credential, one unit of the client address's anonymous
// allowance, as a failed authentication costs on the API. Over the limit
// it answers 429 in the API's envelope with the RateLimit headers and
// Retry-After; within it the RateLimit headers go out with the protocol's
// answer.
func (s *Server) admitMCP(rc *fasthttp.RequestCtx, p *auth.Principal, n int) bool {
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	c.SetClient(s.clientIP(c))
	if p == nil {
		d := s.public.Allow(c.Client(), s.now().UnixNano())
		if d.OK || d.Limit == 0 {
			return true // the protocol's 401 names the resource metadata
		}
		s.begin(c)
		s.rateLimited(c, d)
		s.finish(c)
		return false
	}
	c.Principal, c.Authed = *p, true
	if s.take(c, n) {
		return true
	}
	s.begin(c)
	s.finish(c)
	return false
}

// paid reports whether the request is a tool call whose unit the /mcp
// request carrying it paid (mcp.Prepaid); its route charges only what it
// costs beyond that unit.
func paid(c *rest.Ctx) bool { return mcp.Prepaid(c.RC) }
