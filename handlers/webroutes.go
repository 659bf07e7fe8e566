package handlers

import (
	"bytes"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// webRoutes are the web app's doors as the metrics and the access log name
// them: each sign-in route by its path, the static files as one template
// and every page (and every path the app does not know) as another, so
// that a crawler's made-up paths add no series. They are not in the route
// table: the app, not the router, answers them.
type webRoutes struct {
	auth   []*rest.Route
	static *rest.Route
	page   *rest.Route
}

func newWebRoutes() webRoutes {
	r := func(path string) *rest.Route {
		return &rest.Route{Method: "*", Path: path, Access: rest.Public}
	}
	w := webRoutes{static: r("/static/{file}"), page: r("/{page}")}
	for _, p := range []string{"/auth/login", "/auth/callback", "/auth/logout", "/auth/refresh", "/auth/session"} {
		w.auth = append(w.auth, r(p))
	}
	return w
}

func (w webRoutes) all() []*rest.Route {
	return append([]*rest.Route{w.static, w.page}, w.auth...)
}

var staticPrefix = []byte("/static/")

func (w webRoutes) of(rc *fasthttp.RequestCtx) *rest.Route {
	path := rc.Path()
	if bytes.HasPrefix(path, staticPrefix) {
		return w.static
	}
	for _, r := range w.auth {
		if string(path) == r.Path {
			return r
		}
	}
	return w.page
}

// webCtx is the user value that carries the web app's request context to
// admitSignIn.
type webCtx struct{}

// serveWeb answers the web app's paths through the doors every route
// passes: the request id, nosniff and CORS, the per-route metrics, the
// access log, and a panic's recovery into 500.
func (s *Server) serveWeb(rc *fasthttp.RequestCtx) {
	s.door(rc, s.webRoutes.of(rc), webCtx{}, func(*rest.Ctx) { s.cfg.Web(rc) })
}

// door serves rc, a request outside the API's router, through the doors
// every route passes, as route: the request id and headers, the client
// key, the metrics and the access log (begin and finish), and a panic's
// recovery. The request context is the user value key while serve runs.
func (s *Server) door(rc *fasthttp.RequestCtx, route *rest.Route, key any, serve func(*rest.Ctx)) {
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	defer s.finish(c)
	s.begin(c)
	c.SetClient(limit.AddrKey(s.clientIP(c), s.cfg.RateIPv6Prefix))
	c.SetRoute(route)
	rc.SetUserValue(key, c)
	defer rc.RemoveUserValue(key)
	serve(c)
}
