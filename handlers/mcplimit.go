package handlers

import (
	"bytes"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/limit"
	"fiplan/handlers/mcp"
	"fiplan/handlers/rest"
)

// mcpRoutes are /mcp's doors as the metrics and the access log name them;
// they are not in the route table (the protocol, not the router, answers
// them).
type mcpRoutes struct {
	post, get, del, other, metadata *rest.Route
}

func newMCPRoutes() mcpRoutes {
	r := func(method, path string) *rest.Route {
		return &rest.Route{Method: method, Path: path, Access: rest.User}
	}
	return mcpRoutes{
		post: r("POST", mcp.Path), get: r("GET", mcp.Path), del: r("DELETE", mcp.Path), other: r("*", mcp.Path),
		metadata: r("GET", mcp.MetadataPath),
	}
}

func (m mcpRoutes) all() []*rest.Route {
	return []*rest.Route{m.post, m.get, m.del, m.other, m.metadata}
}

func (m mcpRoutes) of(rc *fasthttp.RequestCtx) *rest.Route {
	switch {
	case string(rc.Path()) != mcp.Path:
		return m.metadata
	case rc.IsPost():
		return m.post
	case rc.IsGet():
		return m.get
	case rc.IsDelete():
		return m.del
	}
	return m.other
}

// mcpCtx is the user value that carries /mcp's request context to
// admitMCP.
type mcpCtx struct{}

// serveMCP answers /mcp and its metadata through the doors every route
// passes: the request id, nosniff and CORS, the per-route metrics, the
// access log with the caller, no-store for a caller's answers and every
// 401, and the API's error envelope for the protocol's plain-text refusals.
func (s *Server) serveMCP(rc *fasthttp.RequestCtx) {
	s.door(rc, s.mcpRoutes.of(rc), mcpCtx{}, func(c *rest.Ctx) {
		s.mcp.Serve(rc)
		mcpEnvelope(c)
	})
}

// mcpEnvelope turns a plain-text refusal of the protocol's handler into
// the API's error envelope, keeping its status and headers.
func mcpEnvelope(c *rest.Ctx) {
	h := &c.RC.Response.Header
	status := c.RC.Response.StatusCode()
	if status < 400 || c.Code() != "" || !bytes.HasPrefix(h.ContentType(), []byte("text/plain")) {
		return
	}
	code, ok := mcpCodes[status]
	if !ok {
		return
	}
	c.Error(code, string(bytes.TrimSpace(c.RC.Response.Body())))
}

// mcpCodes are the codes of the statuses the protocol's handler refuses
// with.
var mcpCodes = map[int]string{
	400: errcode.BadRequest, 401: errcode.Unauthorized, 403: errcode.Forbidden, 404: errcode.NotFound,
	405: errcode.MethodNotAllowed, 413: errcode.PayloadTooLarge, 415: errcode.UnsupportedMedia,
	500: errcode.Internal, 503: errcode.Unavailable,
}

// admitMCP charges a request to /mcp that carries n JSON-RPC messages
// against the same limits as the API: n units of the caller's tier, or,
// without a valid credential, one unit of the client address's anonymous
// allowance, as a failed authentication costs on the API. Over the limit
// it answers 429 in the API's envelope with the RateLimit headers and
// Retry-After; within it the RateLimit headers go out with the protocol's
// answer.
func (s *Server) admitMCP(rc *fasthttp.RequestCtx, p *auth.Principal, n int) bool {
	c, ok := rc.UserValue(mcpCtx{}).(*rest.Ctx)
	if !ok { // called outside serveMCP: a context of its own
		c = rest.AcquireCtx(rc, s.log, s.now())
		defer rest.ReleaseCtx(c)
		s.begin(c)
		c.SetClient(limit.AddrKey(s.clientIP(c), s.cfg.RateIPv6Prefix))
		defer s.finish(c)
	}
	if p == nil {
		d := s.public.Allow(c.Client(), s.now().UnixNano())
		if d.OK || d.Limit == 0 {
			return true // the protocol's 401 names the resource metadata
		}
		s.rateLimited(c, d)
		return false
	}
	c.Principal, c.Authed = *p, true
	return s.take(c, n)
}

// paid reports whether the request is a tool call whose unit the /mcp
// request carrying it paid (mcp.Prepaid); its route charges only what it
// costs beyond that unit.
func paid(c *rest.Ctx) bool { return mcp.Prepaid(c.RC) }
