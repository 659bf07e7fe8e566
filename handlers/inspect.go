package handlers

import (
	"fiplan/handlers/calculator"
	"fiplan/handlers/features"
	"fiplan/handlers/geo"
	"fiplan/handlers/rest"
)

// The accessors below expose a running server's parts to the tests of the
// domain packages (through handlers/internal/testserver), which wait on
// caches, read counters and check responses against the document. They
// hand out what the server already holds and change nothing.

// OpenAPI is the server's OpenAPI document, as GET /openapi.json sends it.
func (s *Server) OpenAPI() []byte { return s.openapi }

// RouteOf is the method and path template of the route that serves method
// on path ("" when none does); HEAD finds the GET route.
func (s *Server) RouteOf(method, path string) (routeMethod, template string) {
	var p rest.Params
	n := s.router.Lookup([]byte(path), &p)
	if n == nil {
		return "", ""
	}
	r := n.Route([]byte(method))
	if r == nil {
		return "", ""
	}
	return r.Method, r.Path
}

// Calculator is the calculator's handlers.
func (s *Server) Calculator() *calculator.Handlers { return s.calc }

// Places is the handlers of the geo routes.
func (s *Server) Places() *geo.Handlers { return s.places }

// Features is the feature flags' handlers.
func (s *Server) Features() *features.Handlers { return s.features }

// Heavy is the gate bounding the expensive requests running at once.
func (s *Server) Heavy() *rest.Gate { return s.heavy }
