package handlers

import (
	"bytes"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// The probes live outside /api/v1, where balancers and supervisors look for
// them. They read no credentials and are never rate limited (rest.Probe).
const (
	livezPath  = "/livez"
	readyzPath = "/readyz"
)

var apiPrefix = []byte("/api/")

// apiPath reports whether the API answers path rather than the web app:
// everything under /api/, and the probes.
func apiPath(p []byte) bool {
	return bytes.HasPrefix(p, apiPrefix) || string(p) == livezPath || string(p) == readyzPath
}

// probes are the probes' documents and what they keep between requests.
type probes struct {
	livezDoc  *rest.Doc
	readyzDoc *rest.Doc
	ready     atomic.Pointer[probe] // the last storage check /readyz made
	draining  atomic.Bool           // set by Drain: /readyz answers 503 from then on
}

type probeData struct {
	Status string `json:"status" schema:"enum=ok"`
}

func (s *Server) newProbeDocs() error {
	data, err := schema.CompileDoc[probeData](s.vocab)
	if err != nil {
		return err
	}
	s.probes.livezDoc = &rest.Doc{
		Tag:     "status",
		Status:  200,
		Summary: "Liveness: the process serves",
		Desc: "Answers `status: ok` whenever the process can answer HTTP at all; it touches no dependency, so a database or Redis outage never fails it. " +
			"For a process supervisor: restart the node when this fails, never because /readyz does.",
		Data: data,
	}
	s.probes.readyzDoc = &rest.Doc{
		Tag:     "status",
		Status:  200,
		Summary: "Readiness: the store answers",
		Desc: "Answers `status: ok` while the store answers, 503 SERVICE_UNAVAILABLE (with retryAfter and Retry-After) while it does not, " +
			"including a node that started while its database was down and has not reached it yet. Redis is not checked: without it the limits fall back to each node's own counts. " +
			"The store is checked at most once a second; answers in between report the last check. For a balancer: send this node the traffic while this answers 200.",
		Data: data,
		Errs: []rest.ErrDoc{rest.Err(errcode.Unavailable, "the store does not answer, or has not been reached since the node started")},
	}
	return nil
}

// livez answers that the process serves.
func (s *Server) livez(c *rest.Ctx) { s.probeOK(c) }

// readyz answers whether the store answers, checked at most once per
// probeTTL however many balancers ask.
func (s *Server) readyz(c *rest.Ctx) {
	if s.probes.draining.Load() {
		c.Unavailable(1, "this node is shutting down: it finishes what it serves and stops")
		return
	}
	now := s.now()
	p := s.probes.ready.Load()
	if p == nil || now.Before(p.at) || now.Sub(p.at) >= probeTTL {
		last := p
		p = &probe{at: now, err: s.db.Ping()}
		s.probes.ready.Store(p)
		// Log the changes, not every check.
		switch {
		case p.err != nil && (last == nil || last.err == nil):
			s.log.Warn("not ready: storage does not answer", "kind", s.db.Kind(), "err", p.err)
		case p.err == nil && last != nil && last.err != nil:
			s.log.Info("ready: storage answers again", "kind", s.db.Kind())
		}
	}
	if p.err != nil {
		c.Unavailable(1, "storage ("+s.db.Kind()+") does not answer: this node is not ready")
		return
	}
	s.probeOK(c)
}

func (s *Server) probeOK(c *rest.Ctx) {
	w := c.Begin()
	w.Begin()
	w.Key("status")
	w.String("ok")
	w.End()
	c.Send(fasthttp.StatusOK)
}

// Drain makes /readyz answer 503 from now on, so that balancers stop
// sending new requests while the node still serves; the caller closes the
// listener once they have noticed (DrainGrace).
func (s *Server) Drain() { s.probes.draining.Store(true) }

// DrainGrace is how long a node keeps serving after Drain before it closes
// its listener: two failed checks a second apart, as the README's HAProxy
// configuration takes a node out.
const DrainGrace = 2 * time.Second
