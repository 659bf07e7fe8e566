package handlers

import (
	"context"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Status

type statusData struct {
	Status        string        `json:"status" schema:"enum=ok"`
	Version       string        `json:"version"`
	StartedAt     time.Time     `json:"startedAt"`
	UptimeSeconds int64         `json:"uptimeSeconds"`
	Datasets      []datasetInfo `json:"datasets" doc:"Each embedded dataset and its number of records."`
	Storage       storageInfo   `json:"storage"`
	Redis         *redisInfo    `json:"redis,omitempty" doc:"Present when rate limits are shared through Redis."`
}

type datasetInfo struct {
	Name    string `json:"name"`
	Records int    `json:"records"`
}

type storageInfo struct {
	Kind      string `json:"kind" schema:"enum=bbolt|postgres"`
	State     string `json:"state" schema:"enum=ok"`
	SizeBytes int64  `json:"sizeBytes"`
}

type redisInfo struct {
	State     string `json:"state" schema:"enum=ok|unreachable" doc:"unreachable: each node limits requests by its own counts until Redis answers again."`
	Fallbacks int64  `json:"fallbacks" doc:"Requests this node limited by its own counts because Redis did not answer, since start."`
}

// openAPIRoute describes the document's own route.
var openAPIRoute = &rest.Doc{
	Tag:         "status",
	Status:      200,
	Summary:     "This OpenAPI 3.1 document",
	Desc:        "The machine-readable description of every route. It is served as the document itself, without the success envelope. It carries a strong ETag; If-None-Match naming it answers 304.",
	NotModified: true}

func (s *Server) newStatusDoc() error {
	if err := s.newProbeDocs(); err != nil {
		return err
	}
	data, err := schema.CompileDoc[statusData](s.vocab)
	s.statusDoc = &rest.Doc{
		Tag:     "status",
		Status:  200,
		Summary: "Service health and status",
		Desc:    "Reports `status: ok` with the version, uptime, the size of each embedded dataset, the storage backend and its state, and, when rate limits are shared, Redis's state. Answers 503 SERVICE_UNAVAILABLE when storage is unusable (within 2 seconds with PostgreSQL); an unreachable Redis leaves the status ok, since limits then fall back to each node's own counts. Storage and Redis are checked at most once a second; answers in between report the last check. It is rate limited like any public route: a balancer's health check is `/readyz`, a process supervisor's `/livez`.",
		Data:    data,
		Errs:    []rest.ErrDoc{rest.Err(errcode.Unavailable, "storage is unusable")}}
	return err
}

// probe is a check of the storage and, when limits are shared, Redis:
// what /status reports. A check is reused for probeTTL, so a balancer (or
// many) polling /status costs one storage transaction and one Redis round
// trip a second however often it asks.
type probe struct {
	at    time.Time
	err   error // storage unusable
	size  int64
	redis string // "ok" or "unreachable"; "" without Redis
}

const probeTTL = time.Second

// check returns a probe made within probeTTL of now, making one if needed.
// Concurrent callers may each make one; the last stored wins.
func (s *Server) check(now time.Time) *probe {
	if p := s.probe.Load(); p != nil && !now.Before(p.at) && now.Sub(p.at) < probeTTL {
		return p
	}
	p := &probe{at: now}
	if p.err = s.db.Ping(); p.err == nil {
		p.size, _ = s.db.Size()
	}
	if r := s.cfg.Redis; r != nil {
		p.redis = "ok"
		if err := r.Ping(context.Background()); err != nil {
			p.redis = "unreachable"
		}
	}
	s.probe.Store(p)
	return p
}

func (s *Server) status(c *rest.Ctx) {
	now := s.now()
	p := s.check(now)
	if p.err != nil {
		if p.at == now { // log a failed check once, not on every reuse
			s.log.Error("storage unusable", "kind", s.db.Kind(), "err", p.err)
		}
		c.Error(errcode.Unavailable, "storage ("+s.db.Kind()+") is unavailable; retry with backoff")
		return
	}
	w := c.Begin()
	w.Begin()
	w.Key("status")
	w.String("ok")
	w.Key("version")
	w.String(s.cfg.Version)
	w.Key("startedAt")
	w.Time(s.started)
	w.Key("uptimeSeconds")
	w.Int(int64(now.Sub(s.started) / time.Second))
	w.Key("datasets")
	w.BeginArray()
	for _, d := range s.datasets {
		w.Begin()
		w.Key("name")
		w.String(d.name)
		w.Key("records")
		w.Int(int64(d.size))
		w.End()
	}
	w.EndArray()
	w.Key("storage")
	w.Begin()
	w.Key("kind")
	w.String(s.db.Kind())
	w.Key("state")
	w.String("ok")
	w.Key("sizeBytes")
	w.Int(p.size)
	w.End()
	if r := s.cfg.Redis; r != nil {
		w.Key("redis")
		w.Begin()
		w.Key("state")
		w.String(p.redis)
		w.Key("fallbacks")
		w.Int(int64(r.Fallbacks()))
		w.End()
	}
	w.End()
	c.Send(fasthttp.StatusOK)
}

func (s *Server) openAPI(c *rest.Ctx) {
	c.SendStatic(s.openapiStatic) // immutable for the server's life
}
