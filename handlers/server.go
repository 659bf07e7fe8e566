// Package handlers is fiplan's HTTP layer: routing, middleware and the
// mapping between request/response bodies and the calculators and stores.
//
// Every request passes, in order: request id, panic recovery, routing (an
// unknown path is 404 ENDPOINT_NOT_FOUND before anything else, a known
// path with another method 405), authentication, rate limiting, then the
// route's handler. The chain allocates nothing for a public request.
package handlers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/VictoriaMetrics/metrics"
	"github.com/valyala/fasthttp"

	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/program"
	"fiplan/data/store"
	"fiplan/data/taxtable"
	"fiplan/handlers/account"
	"fiplan/handlers/auth"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/calculator"
	"fiplan/handlers/errcode"
	"fiplan/handlers/features"
	"fiplan/handlers/limit"
	"fiplan/handlers/places"
	"fiplan/handlers/portfolio"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
	"fiplan/handlers/taxes"
)

// Config is what a Server needs; cmd/fiplan fills it from flags.
type Config struct {
	Version  string
	DB       store.Store
	Verifier *auth.Verifier
	// Rates: anonymous per client IP, and per user by tier.
	RatePublic, RateFree, RatePro limit.Rate
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	Logger         *slog.Logger
	// MaxBody is the request body limit in bytes (default 1 MiB).
	MaxBody int
	// MaxKeys caps API keys per user (default 25).
	MaxKeys int
	// RateKeys caps the keys each rate limiter tracks (default 1<<20).
	RateKeys int
	// Now is the clock (default time.Now); tests move it.
	Now func() time.Time
	// Web, when set, serves every path outside /api/ (the web app).
	Web fasthttp.RequestHandler
	// MaxExpensive bounds the expensive requests (Monte Carlo, tax
	// optimisation) running at once; past it they get 503 with
	// Retry-After (default 2 x GOMAXPROCS).
	MaxExpensive int
}

// Server serves the API. Create it with New and stop it with Close.
type Server struct {
	cfg      Config
	db       store.Store
	verifier *auth.Verifier
	log      *slog.Logger
	now      func() time.Time
	started  time.Time
	routes   []*rest.Route
	router   rest.Router
	openapi  []byte
	datasets []dataset
	history  history.Series
	cities   *geo.Table
	vocab    *schema.Vocabulary
	places   *places.Handlers
	features *features.Handlers
	account  *account.Handlers
	tools    *portfolio.Handlers
	calc     *calculator.Handlers

	statusDoc *rest.Doc
	tax       *taxes.Handlers
	programs  *program.Table
	taxes     *taxtable.Table
	fx        *fx.Table

	public *limit.Limiter[[16]byte]
	free   *limit.Limiter[string]
	pro    *limit.Limiter[string]

	idPrefix [16]byte
	idSeq    atomic.Uint64

	touchMu sync.Mutex
	touched map[string]time.Time // store.KeyRef -> last use, not yet written
	tiers   sync.Map             // user -> auth.Tier already saved with the account

	metrics *serverMetrics
	heavy   *rest.Gate // the expensive requests running at once

	stop chan struct{}
	done sync.WaitGroup
}

type dataset struct {
	name string
	size int
}

// New builds a Server. It starts background work (rate-limit sweeps, API
// key last-use writes) that Close stops.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil || cfg.Verifier == nil {
		return nil, errors.New("cannot create server: DB and Verifier are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = 25
	}
	if cfg.RateKeys <= 0 {
		cfg.RateKeys = 1 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxExpensive <= 0 {
		cfg.MaxExpensive = 2 * runtime.GOMAXPROCS(0)
	}
	set := metrics.NewSet()
	s := &Server{
		cfg:      cfg,
		db:       observeStore(cfg.DB, set),
		heavy:    rest.NewGate(cfg.MaxExpensive),
		verifier: cfg.Verifier,
		log:      cfg.Logger,
		now:      cfg.Now,
		public:   limit.New[[16]byte](cfg.RatePublic, cfg.RateKeys, limit.HashAddr),
		free:     limit.New[string](cfg.RateFree, cfg.RateKeys, limit.HashString),
		pro:      limit.New[string](cfg.RatePro, cfg.RateKeys, limit.HashString),
		touched:  map[string]time.Time{},
		stop:     make(chan struct{}),
	}
	s.started = s.now()
	if _, err := rand.Read(s.idPrefix[:8]); err != nil {
		return nil, fmt.Errorf("cannot seed request ids: %w", err)
	}
	hex.Encode(s.idPrefix[:], s.idPrefix[:8])
	if err := s.loadDatasets(); err != nil {
		return nil, err
	}
	if err := s.build(); err != nil {
		return nil, err
	}
	s.routes = s.table()
	s.metrics = newServerMetrics(set, s.routes, s.heavy)
	for _, r := range s.routes {
		if err := s.router.Add(r); err != nil {
			return nil, err
		}
	}
	doc, err := rest.OpenAPI(rest.Info{Title: "fiplan", Version: cfg.Version, Description: rest.Description, SessionCookie: SessionCookie}, s.routes)
	if err != nil {
		return nil, err
	}
	s.openapi = doc
	s.done.Add(1)
	go s.background()
	return s, nil
}

// build makes the domains' handlers, their declarations compiled against
// the server's vocabulary.
func (s *Server) build() (err error) {
	if s.vocab, err = vocabulary(s.fx); err != nil {
		return err
	}
	if s.places, err = places.New(s.vocab, s.cities, s.programs); err != nil {
		return err
	}
	if s.tax, err = taxes.New(s.vocab, s.taxes, s.programs, s.fx); err != nil {
		return err
	}
	if s.features, err = features.New(s.vocab, s.db, s.now, s.log); err != nil {
		return err
	}
	if s.tools, err = portfolio.New(s.vocab); err != nil {
		return err
	}
	if s.calc, err = calculator.New(s.vocab, s.history, s.now, s.features.Flag); err != nil {
		return err
	}
	s.calc.Gate, s.tax.Gate = s.heavy, s.heavy
	s.account, err = account.New(s.vocab, account.Config{DB: s.db, FX: s.fx, Now: s.now, MaxKeys: s.cfg.MaxKeys, Pending: memory{s}})
	if err != nil {
		return err
	}
	return s.newStatusDoc()
}

// memory is what the server holds about users between writes, as the
// account routes see it.
type memory struct{ s *Server }

func (m memory) KeyUse(owner, id string) (time.Time, bool) {
	m.s.touchMu.Lock()
	t, ok := m.s.touched[store.KeyRef(owner, id)]
	m.s.touchMu.Unlock()
	return t, ok
}

func (m memory) Exposures(user string, dst map[string]string) {
	m.s.features.PendingExposures(user, dst)
}

func (m memory) Forget(user string) {
	m.s.features.Forget(user)
	m.s.forgetTouched(user)
	m.s.tiers.Delete(user)
}

// Close stops background work and writes pending API-key use times. It
// does not close the DB or the Verifier, which the caller owns.
func (s *Server) Close() {
	select {
	case <-s.stop:
		return
	default:
	}
	close(s.stop)
	s.done.Wait()
	s.flushTouched()
	s.features.Flush()
	s.places.Close()
}

func (s *Server) background() {
	defer s.done.Done()
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			now := s.now().UnixNano()
			s.public.Sweep(now)
			s.free.Sweep(now)
			s.pro.Sweep(now)
			s.flushTouched()
			s.features.Flush()
		}
	}
}

// HTTP returns a fasthttp server configured against slow and oversized
// clients, serving s.
func (s *Server) HTTP() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:               s.Serve,
		ErrorHandler:          s.serveError,
		Name:                  "fiplan",
		ReadTimeout:           10 * time.Second,
		WriteTimeout:          10 * time.Second,
		IdleTimeout:           60 * time.Second,
		ReadBufferSize:        8 << 10, // caps the request line and headers
		MaxRequestBodySize:    s.cfg.MaxBody,
		NoDefaultServerHeader: true,
		NoDefaultContentType:  true,
		CloseOnShutdown:       true,
		Logger:                fasthttpLogger{s.log},
	}
}

type fasthttpLogger struct{ log *slog.Logger }

func (l fasthttpLogger) Printf(format string, args ...any) {
	l.log.Debug(fmt.Sprintf(format, args...))
}

// serveError answers requests that fasthttp could not read.
func (s *Server) serveError(rc *fasthttp.RequestCtx, err error) {
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	s.requestID(c)
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		c.Error(errcode.PayloadTooLarge, "request body is larger than "+strconv.Itoa(s.cfg.MaxBody)+" bytes")
	case errors.Is(err, fasthttp.ErrSmallReadBuffer):
		c.Error(errcode.HeaderTooLarge, "request headers are too large")
	case isTimeout(err):
		// Typically a browser's preconnected socket that stayed idle past
		// ReadTimeout. 408 with Connection: close makes the browser send
		// its next request on a new connection; a 400 here would be read
		// as the answer to whatever it sends on this socket next.
		c.RC.SetConnectionClose()
		c.Error(errcode.RequestTimeout, "no complete request arrived in time")
	default:
		c.Error(errcode.BadRequest, "malformed HTTP request")
	}
	s.observe(c, s.now().Sub(c.Start()))
	s.accessLog(c)
}

// Serve is the fasthttp request handler.
func (s *Server) Serve(rc *fasthttp.RequestCtx) {
	if s.cfg.Web != nil && !bytes.HasPrefix(rc.Path(), apiPrefix) {
		s.cfg.Web(rc)
		return
	}
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	defer s.finish(c)
	s.requestID(c)
	c.SetClient(s.clientIP(c))
	n := s.router.Lookup(rc.Path(), c.Params())
	if n == nil {
		c.Error(errcode.EndpointNotFound, "no such endpoint")
		return
	}
	r := n.Route(rc.Method())
	if r == nil {
		rc.Response.Header.Set(fasthttp.HeaderAllow, n.Allow())
		c.Error(errcode.MethodNotAllowed, "method not allowed; see the Allow header")
		return
	}
	c.SetRoute(r)
	if !s.authenticate(c) || !s.limit(c) {
		return
	}
	if len(rc.Request.Body()) > s.cfg.MaxBody {
		c.Error(errcode.PayloadTooLarge, "request body is larger than "+strconv.Itoa(s.cfg.MaxBody)+" bytes")
		return
	}
	if !c.CheckQuery() {
		return
	}
	r.Handler(c)
}

var apiPrefix = []byte("/api/")

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// finish recovers a panicking handler into 500 and writes the access log.
func (s *Server) finish(c *rest.Ctx) {
	if p := recover(); p != nil {
		s.log.Error("panic serving request", "panic", fmt.Sprint(p), "requestId", string(c.RequestID()), "stack", string(debug.Stack()))
		c.RC.Response.Header.Del(fasthttp.HeaderAllow)
		c.Error(errcode.Internal, "internal error; retry after a moment")
	}
	s.observe(c, s.now().Sub(c.Start()))
	s.accessLog(c)
}

func (s *Server) accessLog(c *rest.Ctx) {
	if !s.log.Enabled(context.Background(), slog.LevelInfo) {
		return
	}
	rc := c.RC
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request",
		slog.String("method", bytesconv.String(rc.Method())),
		slog.String("path", bytesconv.String(rc.Path())),
		slog.Int("status", rc.Response.StatusCode()),
		slog.Int64("us", s.now().Sub(c.Start()).Microseconds()),
		slog.String("id", bytesconv.String(c.RequestID())),
	)
}

// requestID echoes a sane incoming X-Request-ID or makes one.
func (s *Server) requestID(c *rest.Ctx) {
	in := c.RC.Request.Header.Peek("X-Request-ID")
	if !saneID(in) {
		b := append(c.IDBuffer(), s.idPrefix[:]...)
		b = append(b, '-')
		in = strconv.AppendUint(b, s.idSeq.Add(1), 36)
	}
	c.SetRequestID(in)
}

func saneID(b []byte) bool {
	if len(b) == 0 || len(b) > 40 {
		return false
	}
	for _, ch := range b {
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '-', ch == '_', ch == '.', ch == ':':
		default:
			return false
		}
	}
	return true
}

// clientIP is the peer address, or, when the peer is a trusted proxy, the
// right-most X-Forwarded-For address that is not itself a trusted proxy.
func (s *Server) clientIP(c *rest.Ctx) [16]byte {
	var addr netip.Addr
	if ip := c.RC.RemoteIP(); ip != nil {
		addr, _ = netip.AddrFromSlice(ip)
		addr = addr.Unmap()
	}
	if len(s.cfg.TrustedProxies) > 0 && s.trusted(addr) {
		xff := c.RC.Request.Header.Peek(fasthttp.HeaderXForwardedFor)
		for len(xff) > 0 {
			i := len(xff) - 1
			for i >= 0 && xff[i] != ',' {
				i--
			}
			part := trimSpace(xff[i+1:])
			if i < 0 {
				xff = nil
			} else {
				xff = xff[:i]
			}
			a, err := netip.ParseAddr(bytesconv.String(part))
			if err != nil {
				break // a malformed hop: trust nothing beyond it
			}
			addr = a.Unmap()
			if !s.trusted(addr) {
				break
			}
		}
	}
	return addr.As16()
}

func addrString(a [16]byte) string { return netip.AddrFrom16(a).Unmap().String() }

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
