// Package handlers is fiplan's HTTP layer: routing, middleware and the
// mapping between request/response bodies and the calculators and stores.
//
// Every request passes, in order: request id, panic recovery, routing (an
// unknown path is 404 ENDPOINT_NOT_FOUND before anything else, a known
// path with another method 405), authentication, rate limiting, then the
// route's handler. The chain allocates nothing for a public request.
package handlers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/VictoriaMetrics/metrics"
	"github.com/valyala/fasthttp"

	"fiplan/compute/fiscore"
	"fiplan/data/fx"
	geodata "fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/program"
	"fiplan/data/store"
	"fiplan/data/taxtable"
	"fiplan/data/version"
	"fiplan/handlers/account"
	"fiplan/handlers/auth"
	"fiplan/handlers/calculator"
	"fiplan/handlers/features"
	"fiplan/handlers/geo"
	"fiplan/handlers/health"
	"fiplan/handlers/hooks"
	"fiplan/handlers/limit"
	"fiplan/handlers/mail"
	"fiplan/handlers/mcp"
	"fiplan/handlers/plans"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
	"fiplan/handlers/tax"
)

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
	cities   *geodata.Table
	vocab    *schema.Vocabulary
	places   *geo.Handlers
	features *features.Handlers
	account  *account.Handlers
	health   *health.Handlers
	calc     *calculator.Handlers
	plans    *plans.Handlers
	hooks    *hooks.Handlers
	mail     *mail.Handlers
	mcp      *mcp.Handler
	// mcpRoutes name /mcp's requests in the metrics and the access log.
	mcpRoutes mcpRoutes
	// webRoutes name the web app's requests in the metrics and the access
	// log.
	webRoutes webRoutes

	// openapiStatic is openapi with its ETag and compressed forms.
	openapiStatic *rest.Static

	statusDoc *rest.Doc
	probe     atomic.Pointer[probe] // the last check /status reports
	probes    probes                // /livez and /readyz
	tax       *tax.Handlers
	programs  *program.Table
	taxes     *taxtable.Table
	fx        *fx.Table

	public limit.Checker[[16]byte]
	free   limit.Checker[string]
	pro    limit.Checker[string]
	sweep  []func(now int64) // the local limiters' sweeps

	idPrefix [16]byte
	idSeq    atomic.Uint64

	floods floods // the access log's sampling of 429s

	touchMu sync.Mutex
	touched map[string]time.Time // store.KeyRef -> last use, not yet written
	tiers   sync.Map             // user -> issue time (int64) of the newest token whose tier this node saved

	metrics        *serverMetrics
	heavy          *rest.Gate // the expensive requests running at once
	flagSyncWarned time.Time  // owned by background

	keptSecretState // the store's secret, once read

	marks     *store.Mirror // the sign-out marks as this node knows them
	breaker   *breaker      // opens while the store does not answer (breaker.go)
	ownsMarks bool          // marks was started by New, and is stopped by Close

	stop chan struct{}
	done sync.WaitGroup
}

// New builds a Server. It starts background work (rate-limit sweeps, API
// key last-use writes) that Close stops.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil || cfg.Verifier == nil {
		return nil, errors.New("cannot create server: DB and Verifier are required")
	}
	cfg.defaults()
	set := metrics.NewSet()
	marks, shared := mirror(cfg)
	br := newBreaker(marks.Ping, cfg.breakerOpen, cfg.Logger, set)
	s := &Server{
		cfg:       cfg,
		db:        observeStore(marks, br, set),
		breaker:   br,
		marks:     marks,
		ownsMarks: !shared,
		heavy:     rest.NewGate(cfg.MaxExpensive),
		verifier:  cfg.Verifier,
		log:       cfg.Logger,
		now:       cfg.Now,
		touched:   map[string]time.Time{},
		stop:      make(chan struct{}),
	}
	s.started = s.now()
	s.limits()
	if cfg.Web != nil {
		s.cfg.Web = s.limitSignIn(cfg.Web)
	}
	var err error
	if s.idPrefix, err = idPrefix(); err != nil {
		return nil, err
	}
	if err := s.loadDatasets(); err != nil {
		return nil, err
	}
	if err := s.build(); err != nil {
		return nil, err
	}
	if err := s.doors(set); err != nil {
		return nil, err
	}
	if cfg.MCP != nil {
		s.mcp, err = mcp.New(mcp.Config{
			Settings: *cfg.MCP, Version: cfg.Version, Routes: s.routes, Serve: s.Serve, Verify: s.Credential, Logger: s.log, Admit: s.admitMCP,
			SessionKey: s.mcpSessionKey, Now: s.now,
			EndSession: func(id string, until time.Time) error {
				_, err := s.db.Revoke(mcpSessionMark+id, until, s.now())
				return err
			},
			SessionEnded: func(id string) (bool, error) { return s.db.Revoked(mcpSessionMark+id, s.now()) },
			Datasets:     mcp.Datasets{Cities: s.cities, FX: s.fx, Programs: s.programs, Taxes: s.taxes, History: s.history},
		})
		if err != nil {
			return nil, err
		}
	}
	s.done.Add(2)
	go s.background()
	go func() {
		defer s.done.Done()
		s.breaker.run(s.stop)
	}()
	if cfg.Webhooks.Deliver {
		s.done.Add(1)
		go s.deliver()
	}
	return s, nil
}

// doors builds the route tables of the API, /mcp and the web app, their
// metrics in set, the router and the OpenAPI document.
func (s *Server) doors(set *metrics.Set) error {
	s.routes = s.table()
	s.mcpRoutes = newMCPRoutes()
	s.webRoutes = newWebRoutes()
	doors := append(slices.Clip(s.routes), s.mcpRoutes.all()...)
	if s.cfg.Web != nil {
		doors = append(doors, s.webRoutes.all()...)
	}
	s.metrics = newServerMetrics(set, doors, s.heavy)
	s.metrics.pools = newPoolMetrics(set, s.marks.Store, s.cfg.Redis)
	set.NewGauge("fiplan_signout_mirror_lag_seconds", func() float64 { return min(s.marks.Lag(), store.MirrorLagCap).Seconds() })
	for _, r := range s.routes {
		if err := s.router.Add(r); err != nil {
			return err
		}
	}
	doc, err := rest.OpenAPI(rest.Info{Title: "fiplan", Version: s.cfg.Version, Description: rest.Description, SessionCookie: SessionCookie}, s.routes)
	if err != nil {
		return err
	}
	s.openapi, s.openapiStatic = doc, rest.NewStatic(doc)
	return nil
}

// defaults fills in the settings left zero.
func (cfg *Config) defaults() {
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
	if cfg.breakerOpen <= 0 {
		cfg.breakerOpen = time.Second
	}
	if cfg.MaxExpensive <= 0 {
		cfg.MaxExpensive = 2 * runtime.GOMAXPROCS(0)
	}
}

// mirror is the sign-out marks' mirror the server reads: the one given as
// the store (shared with the web app), else one of its own.
func mirror(cfg Config) (m *store.Mirror, shared bool) {
	if m, ok := cfg.DB.(*store.Mirror); ok {
		return m, true
	}
	return store.NewMirror(cfg.DB, cfg.Now), false
}

// build makes the domains' handlers, their declarations compiled against
// the server's vocabulary.
func (s *Server) build() (err error) {
	if s.vocab, err = vocabulary(s.fx); err != nil {
		return err
	}
	if s.places, err = geo.New(s.vocab, geo.Config{Cities: s.cities, Programs: s.programs}); err != nil {
		return err
	}
	if s.tax, err = tax.New(s.vocab, tax.Config{Taxes: s.taxes, Programs: s.programs, FX: s.fx, Gate: s.heavy}); err != nil {
		return err
	}
	if s.features, err = features.New(s.vocab, features.Config{DB: s.db, Now: s.now, Log: s.log}); err != nil {
		return err
	}
	if s.health, err = health.New(s.vocab); err != nil {
		return err
	}
	if s.calc, err = calculator.New(s.vocab, calculator.Deps{History: s.history, Now: s.now, Flags: s.features, Taxes: s.taxes, Cities: s.cities, FX: s.fx, Gate: s.heavy, Limiter: limiter{s},
		Series: func(user, id string) (*history.UserSeries, bool, error) { return s.account.Series(user, id) }}); err != nil {
		return err
	}
	s.account, err = account.New(s.vocab, account.Config{DB: s.db, FX: s.fx, Now: s.now, MaxKeys: s.cfg.MaxKeys, Pending: memory{s},
		// The FI score of a user with saved plans is of one of them.
		ScorePlan: func(c *rest.Ctx, id string, in *fiscore.Input) bool { return s.plans.ScorePlan(c, id, in) },
		Written: func(user, doc string) {
			if err := s.mail.Written(user, doc); err != nil {
				s.log.Warn("cannot bring the email channel in step with a write", "doc", doc, "err", err)
			}
		}})
	if err != nil {
		return err
	}
	s.db.WatchAssets(s.account.Watch)
	if s.hooks, err = hooks.New(s.vocab, hooks.Config{DB: s.db, Now: s.now, Local: s.cfg.Webhooks.Local}); err != nil {
		return err
	}
	secret := s.cfg.Mail.Secret
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return err
		}
	}
	s.mail = mail.NewHandlers(s.db, s.cfg.Mail.Mailer, secret, s.now)
	if s.plans, err = plans.New(s.vocab, plans.Config{DB: s.db, Calc: s.calc, Now: s.now, Answer: s.calc.Doc, OptimizeBody: s.calc.OptimizeBody(),
		DataVersion: version.Data()}); err != nil {
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
	if s.ownsMarks {
		s.marks.Stop()
	}
	s.flushTouched()
	s.features.Flush()
	s.places.Close()
	s.calc.Close()
}

func (s *Server) background() {
	defer s.done.Done()
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	flags := time.NewTicker(flagSyncEvery)
	defer flags.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-flags.C:
			s.syncFlags()
		case <-t.C:
			now := s.now().UnixNano()
			for _, sweep := range s.sweep {
				sweep(now)
			}
			s.floods.sweep(s.now(), s.log)
			s.flushTouched()
			s.features.Flush()
		}
	}
}

// deliver runs the webhook worker until Close.
func (s *Server) deliver() {
	defer s.done.Done()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-s.stop; cancel() }()
	w := &hooks.Worker{DB: s.db, Client: hooks.NewClient(s.cfg.Webhooks.Local), Now: s.now, Log: s.log, Recheck: s.plans.Recheck,
		Lease: s.cfg.Webhooks.Lease}
	if s.cfg.Mail.Mailer != nil {
		w.Mail = s.cfg.Mail.Mailer
	}
	w.Run(ctx)
}

// MCP is the Model Context Protocol handler; nil unless Config.MCP is set.
func (s *Server) MCP() *mcp.Handler { return s.mcp }

// HTTP returns a fasthttp server configured against slow and oversized
// clients, serving s.
func (s *Server) HTTP() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:            s.serveNet,
		ErrorHandler:       s.serveError,
		Name:               "fiplan",
		ReadTimeout:        10 * time.Second,
		WriteTimeout:       10 * time.Second,
		IdleTimeout:        60 * time.Second,
		ReadBufferSize:     readBuffer, // caps the request line and headers together
		MaxRequestBodySize: s.cfg.MaxBody,
		// The body is read as it arrives (loadBody), never into a buffer
		// of the declared Content-Length: a client announcing a megabyte
		// and sending a byte holds a byte.
		StreamRequestBody:     true,
		ExpectHandler:         s.expect,
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
