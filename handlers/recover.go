package handlers

import (
	"fmt"
	"runtime/debug"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

var (
	headerCacheControl = []byte(fasthttp.HeaderCacheControl)
	valueNoStore       = []byte("no-store")
)

// finish recovers a panicking handler into 500, keeps answers about a
// caller's own data out of caches, and writes the access log.
func (s *Server) finish(c *rest.Ctx) {
	if p := recover(); p != nil {
		s.log.Error("panic serving request", "panic", fmt.Sprint(p), "requestId", string(c.RequestID()), "trace", string(c.Trace().ID[:]), "stack", string(debug.Stack()))
		c.RC.Response.Header.Del(fasthttp.HeaderAllow)
		c.Error(errcode.Internal, "internal error; retry after a moment")
	}
	s.observe(c, s.now().Sub(c.Start()))
	if c.Authed || c.RC.Response.StatusCode() == fasthttp.StatusUnauthorized {
		c.RC.Response.Header.SetCanonical(headerCacheControl, valueNoStore)
	}
	s.accessLog(c)
}
