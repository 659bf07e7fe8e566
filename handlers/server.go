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
	geodata "fiplan/data/geo"
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
	"fiplan/handlers/geo"
	"fiplan/handlers/health"
	"fiplan/handlers/limit"
	"fiplan/handlers/mcp"
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
	// RateIPv6Prefix is the prefix length an anonymous IPv6 client is
	// counted by, 32 to 128 (otherwise limit.DefaultIPv6Prefix, 64): one
	// network's addresses share a bucket. IPv4 clients count by address.
	RateIPv6Prefix int
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// AccessLog chooses which requests are logged (default every one).
	AccessLog AccessLog
	// CORSOrigins are the exact origins ("https://app.example") browsers
	// may call the API from; none disables CORS.
	CORSOrigins []string
	Logger      *slog.Logger
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
	// MCP, when set, serves the Model Context Protocol at /mcp and its
	// protected-resource metadata under /.well-known/ (handlers/mcp).
	MCP *mcp.Settings
	// MaxExpensive bounds the expensive requests (Monte Carlo, backtests
	// and goal seeks, tax optimisation) running at once; past it they get
	// 503 with Retry-After (default 2 x GOMAXPROCS).
	MaxExpensive int
	// Redis, when set, holds the rate limits every node shares.
	Redis *limit.Redis
	// Conns bound the connections the listener from Listen holds open.
	Conns ConnLimits
	// Hosts, when it names any, are the hosts a request from the network
	// may name in its Host header; others get 400.
	Hosts Hosts
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
	cities   *geodata.Table
	vocab    *schema.Vocabulary
	places   *geo.Handlers
	features *features.Handlers
	account  *account.Handlers
	health   *health.Handlers
	calc     *calculator.Handlers
	mcp      *mcp.Handler

	// openapiStatic is openapi with its ETag and compressed forms.
	openapiStatic *rest.Static

	statusDoc *rest.Doc
	probe     atomic.Pointer[probe]             // the last check /status reports
	probes    probes                            // /livez and /readyz
	chargeFn  func(c *rest.Ctx, extra int) bool // s.charge, bound once
	tax       *taxes.Handlers
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
		touched:  map[string]time.Time{},
		stop:     make(chan struct{}),
	}
	s.started = s.now()
	s.chargeFn = s.charge
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
	s.openapi, s.openapiStatic = doc, rest.NewStatic(doc)
	if cfg.MCP != nil {
		s.mcp, err = mcp.New(mcp.Config{
			Settings: *cfg.MCP, Version: cfg.Version, Routes: s.routes, Serve: s.Serve, Verify: s.Credential, Logger: s.log, Admit: s.admitMCP,
			Datasets: mcp.Datasets{Cities: s.cities, FX: s.fx, Programs: s.programs, Taxes: s.taxes, History: s.history},
		})
		if err != nil {
			return nil, err
		}
	}
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
	if s.places, err = geo.New(s.vocab, s.cities, s.programs); err != nil {
		return err
	}
	if s.tax, err = taxes.New(s.vocab, s.taxes, s.programs, s.fx); err != nil {
		return err
	}
	if s.features, err = features.New(s.vocab, s.db, s.now, s.log); err != nil {
		return err
	}
	if s.health, err = health.New(s.vocab); err != nil {
		return err
	}
	if s.calc, err = calculator.New(s.vocab, calculator.Deps{History: s.history, Now: s.now, Flag: s.features.Flag, Taxes: s.taxes, Cities: s.cities, FX: s.fx}); err != nil {
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

// The request head's limits. fasthttp reads the request line and headers
// into one buffer of readBuffer bytes and cannot say which part overflowed
// it; within it, Serve holds the URI to maxURI (414) and the header block to
// maxHeaders (431).
const (
	maxURI     = 8 << 10
	maxHeaders = 8 << 10
	readBuffer = maxURI + maxHeaders
)

var (
	msgURITooLong  = "the request URI is longer than " + strconv.Itoa(maxURI) + " bytes"
	msgHeadersSize = "the request headers are larger than " + strconv.Itoa(maxHeaders) + " bytes"
	msgHeadTooBig  = "the request line and headers together are larger than " + strconv.Itoa(readBuffer) + " bytes (at most " + strconv.Itoa(maxURI) + " for the URI and " + strconv.Itoa(maxHeaders) + " for the headers)"
)

// serveError answers requests that fasthttp could not read.
func (s *Server) serveError(rc *fasthttp.RequestCtx, err error) {
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	s.begin(c)
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		s.bodyError(c, err)
	case errors.As(err, &small):
		c.Error(errcode.HeaderTooLarge, msgHeadTooBig)
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

// How drain reads an oversized body: at most drainBytes and drainTime in
// all. A client may pause mid-body (drainPause); once at most the last
// readBuffer bytes are missing, which fasthttp may already have buffered,
// a short silence (drainIdle) means the client is done and waits.
const (
	drainBytes = 16 << 20
	drainTime  = 5 * time.Second
	drainPause = time.Second
	drainIdle  = 50 * time.Millisecond
	drainOpen  = 250 * time.Millisecond // a chunked body, of unknown length
)

// drain reads and discards what the client is still sending after the
// server has decided to answer and close early (a body over the limit).
// Closing a socket with unread data resets the connection, and a client
// still writing its body then sees "connection reset" instead of the
// answer. length is the declared body length, or negative when unknown.
func drain(conn net.Conn, length int) {
	if conn == nil {
		return
	}
	limit := int64(drainBytes)
	if length >= 0 && int64(length) < limit {
		limit = int64(length)
	}
	buf := make([]byte, 32<<10)
	end := time.Now().Add(drainTime)
	for read := int64(0); read < limit; {
		wait := drainIdle
		switch {
		case length < 0:
			wait = drainOpen
		case read < limit-readBuffer:
			wait = drainPause
		}
		d := time.Now().Add(wait)
		if d.After(end) {
			d = end
		}
		if conn.SetReadDeadline(d) != nil {
			break
		}
		n, err := conn.Read(buf)
		read += int64(n)
		if err != nil {
			break
		}
	}
	conn.SetReadDeadline(time.Time{}) //nolint:errcheck // the connection is closed next
}

// Serve is the fasthttp request handler.
func (s *Server) Serve(rc *fasthttp.RequestCtx) {
	bodyErr := loadBody(&rc.Request, s.cfg.MaxBody)
	// A request framed in a way that could smuggle another, or whose path
	// walks up or hides a slash, gets the API's 400 wherever it goes.
	sane := bodyErr == nil && framing(&rc.Request.Header) == "" && pathTrick(rc.Request.URI().PathOriginal()) == ""
	if sane && s.mcp != nil && mcp.Serves(rc.Path()) {
		s.mcp.Serve(rc)
		return
	}
	// The web app serves every path outside /api/ but the probes.
	if sane && s.cfg.Web != nil && !apiPath(rc.Path()) {
		s.cfg.Web(rc)
		return
	}
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	defer s.finish(c)
	s.begin(c)
	c.SetClient(limit.AddrKey(s.clientIP(c), s.cfg.RateIPv6Prefix))
	c.SetCharger(s.chargeFn)
	if msg := framing(&rc.Request.Header); msg != "" {
		rc.SetConnectionClose() // what follows on the connection cannot be trusted
		c.Error(errcode.BadRequest, msg)
		return
	}
	if bodyErr != nil {
		s.bodyError(c, bodyErr)
		return
	}
	if msg := pathTrick(rc.Request.URI().PathOriginal()); msg != "" {
		c.Error(errcode.BadRequest, msg)
		return
	}
	if len(rc.Request.Header.RequestURI()) > maxURI {
		c.Error(errcode.URITooLong, msgURITooLong)
		return
	}
	if len(rc.Request.Header.RawHeaders()) > maxHeaders {
		c.Error(errcode.HeaderTooLarge, msgHeadersSize)
		return
	}
	n := s.router.Lookup(rc.Path(), c.Params())
	if n == nil {
		c.Error(errcode.EndpointNotFound, "no such endpoint")
		return
	}
	if rc.IsOptions() {
		s.options(c, n)
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
	if !c.CheckPath() || !mediaType(c) || !c.CheckQuery() {
		return
	}
	r.Handler(c)
}

var (
	nameTransferEncoding = []byte("transfer-encoding")
	nameContentLength    = []byte("content-length")
	valueChunked         = []byte("chunked")
	valueIdentity        = []byte("identity")
	typeJSON             = []byte("application/json")
	typeMergePatch       = []byte("application/merge-patch+json")
)

var apiPrefix = []byte("/api/")

// pathTrick refuses a request path, as the client sent it, that means
// something else once decoded and normalised: a dot segment ("/./",
// "/../"), an encoded slash, backslash or dot, or a backslash. The router
// sees the decoded, normalised path, so "/api/v1/geo/cities/..%2fuser"
// would otherwise reach /api/v1/user; no route needs any of these.
func pathTrick(p []byte) string {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			return msgPathTrick
		case '%':
			if i+2 < len(p) && (p[i+1] == '2' && (p[i+2] == 'f' || p[i+2] == 'F' || p[i+2] == 'e' || p[i+2] == 'E') ||
				p[i+1] == '5' && (p[i+2] == 'c' || p[i+2] == 'C')) {
				return msgPathTrick
			}
		case '.':
			if (i == 0 || p[i-1] == '/') && (i+1 == len(p) || p[i+1] == '/' ||
				p[i+1] == '.' && (i+2 == len(p) || p[i+2] == '/')) {
				return msgPathTrick
			}
		}
	}
	return ""
}

const msgPathTrick = "the path must not contain dot segments, backslashes or encoded slashes, backslashes or dots"

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// framing refuses the request shapes RFC 9112 leaves ambiguous or that
// request smuggling relies on: an HTTP version other than 1.0 and 1.1,
// Transfer-Encoding other than one "chunked", and Transfer-Encoding
// together with Content-Length. fasthttp refuses the rest (a repeated or
// unknown transfer coding, Transfer-Encoding in HTTP/1.0, two
// Content-Lengths) before the handler. It reads the raw header block, since
// fasthttp drops Content-Length when the body is chunked.
func framing(h *fasthttp.RequestHeader) string {
	if p := h.Protocol(); string(p) != "HTTP/1.1" && string(p) != "HTTP/1.0" {
		return "unsupported HTTP version: send HTTP/1.1 or HTTP/1.0"
	}
	raw := h.RawHeaders()
	te, cl := false, false
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		name = trimSpace(name)
		switch {
		case bytes.EqualFold(name, nameTransferEncoding):
			if te || !bytes.EqualFold(trimSpace(bytes.TrimSuffix(value, []byte{'\r'})), valueChunked) {
				return "Transfer-Encoding other than one \"chunked\" is not accepted"
			}
			te = true
		case bytes.EqualFold(name, nameContentLength):
			cl = true
		}
	}
	if te && cl {
		return "Transfer-Encoding and Content-Length together are ambiguous: send one"
	}
	return ""
}

// mediaType accepts a POST, PUT or PATCH body only as JSON: a Content-Type
// other than application/json (parameters such as charset allowed; a PATCH
// may also say application/merge-patch+json) or any Content-Encoding but
// identity is 415. A request without Content-Type is read as JSON; without
// a body too, the route judges the empty body.
func mediaType(c *rest.Ctx) bool {
	h := &c.RC.Request.Header
	m := h.Method()
	if string(m) != "POST" && string(m) != "PUT" && string(m) != "PATCH" {
		return true
	}
	for _, ce := range h.PeekAll(fasthttp.HeaderContentEncoding) {
		if !bytes.EqualFold(trimSpace(ce), valueIdentity) {
			c.Error(errcode.UnsupportedMedia, "Content-Encoding is not supported: send the body unencoded")
			return false
		}
	}
	ct := h.ContentType()
	if i := bytes.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = trimSpace(ct)
	if len(ct) == 0 || bytes.EqualFold(ct, typeJSON) || (string(m) == "PATCH" && bytes.EqualFold(ct, typeMergePatch)) {
		return true
	}
	c.Error(errcode.UnsupportedMedia, "Content-Type must be application/json")
	return false
}

var (
	headerNoSniff      = []byte("X-Content-Type-Options")
	headerCacheControl = []byte(fasthttp.HeaderCacheControl)
	valueNoSniff       = []byte("nosniff")
	valueNoStore       = []byte("no-store")
)

// begin sets what every response carries: the request id, nosniff so
// that no browser reads a JSON body as anything else, and the CORS grant
// when the request comes from an allowed origin.
func (s *Server) begin(c *rest.Ctx) {
	s.requestID(c)
	h := &c.RC.Response.Header
	h.SetCanonical(headerNoSniff, valueNoSniff)
	if len(s.cfg.CORSOrigins) == 0 {
		return
	}
	h.SetCanonical(headerVary, valueOrigin) // the answer depends on Origin
	if s.corsOrigin(c) {
		h.SetCanonical(headerACAO, c.RC.Request.Header.Peek("Origin"))
		h.SetCanonical(headerACEH, valueExposed)
	}
}

var (
	headerVary   = []byte(fasthttp.HeaderVary)
	headerACAO   = []byte(fasthttp.HeaderAccessControlAllowOrigin)
	headerACEH   = []byte(fasthttp.HeaderAccessControlExposeHeaders)
	headerACAH   = []byte(fasthttp.HeaderAccessControlAllowHeaders)
	headerACMA   = []byte(fasthttp.HeaderAccessControlMaxAge)
	valueOrigin  = []byte("Origin")
	valueExposed = []byte("ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-ID")
	valueAllowed = []byte("Authorization, Content-Type, If-Match, X-Request-ID")
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

// finish recovers a panicking handler into 500, keeps answers about a
// caller's own data out of caches, and writes the access log.
func (s *Server) finish(c *rest.Ctx) {
	if p := recover(); p != nil {
		s.log.Error("panic serving request", "panic", fmt.Sprint(p), "requestId", string(c.RequestID()), "stack", string(debug.Stack()))
		c.RC.Response.Header.Del(fasthttp.HeaderAllow)
		c.Error(errcode.Internal, "internal error; retry after a moment")
	}
	s.observe(c, s.now().Sub(c.Start()))
	if c.Authed || c.RC.Response.StatusCode() == fasthttp.StatusUnauthorized {
		c.RC.Response.Header.SetCanonical(headerCacheControl, valueNoStore)
	}
	s.accessLog(c)
}

func (s *Server) accessLog(c *rest.Ctx) {
	rc := c.RC
	status := rc.Response.StatusCode()
	switch {
	case s.cfg.AccessLog == AccessOff, s.cfg.AccessLog == AccessErrors && status < 400:
		return
	case !s.log.Enabled(context.Background(), slog.LevelInfo):
		return
	}
	suppressed := 0
	if status == fasthttp.StatusTooManyRequests {
		var ok bool
		if ok, suppressed = s.floods.admit(s.floodKey(c), s.now()); !ok {
			return
		}
	}
	attrs := [...]slog.Attr{
		slog.String("method", bytesconv.String(rc.Method())),
		slog.String("path", bytesconv.String(rc.Path())),
		slog.Int("status", status),
		slog.Int64("us", s.now().Sub(c.Start()).Microseconds()),
		slog.String("id", bytesconv.String(c.RequestID())),
		slog.Int("suppressed", suppressed),
	}
	n := len(attrs)
	if suppressed == 0 {
		n--
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs[:n]...)
}

// floodKey names the client a 429 went to: the user, or the address or
// IPv6 network it is counted by.
func (s *Server) floodKey(c *rest.Ctx) string {
	if c.Authed {
		return "user " + c.Principal.User
	}
	a := netip.AddrFrom16(c.Client()).Unmap()
	if bits := limit.IPv6Prefix(s.cfg.RateIPv6Prefix); a.Is6() && bits < limit.MaxIPv6Prefix {
		return netip.PrefixFrom(a, bits).String()
	}
	return a.String()
}

// floodWindow is how often the access log records a 429 for one client;
// the 429s between are counted, and the next line carries the count.
const (
	floodWindow  = 10 * time.Second
	floodClients = 1 << 16 // clients tracked at once; beyond, 429s go uncounted into one total
)

// floods samples the access log's lines for rate-limited requests, so that
// a client hammering the API does not flood the log too.
type floods struct {
	mu       sync.Mutex
	clients  map[string]*flood
	overflow int // 429s left out for clients beyond floodClients
}

type flood struct {
	last       time.Time // when a line was last written
	suppressed int       // 429s since then, not written
}

// admit reports whether a 429 for client at now gets its line, and how
// many of the client's 429s were left out before it.
func (f *floods) admit(client string, now time.Time) (bool, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.clients[client]
	if e == nil {
		if len(f.clients) >= floodClients {
			f.overflow++
			return false, 0
		}
		if f.clients == nil {
			f.clients = map[string]*flood{}
		}
		f.clients[client] = &flood{last: now}
		return true, 0
	}
	if now.Sub(e.last) < floodWindow {
		e.suppressed++
		return false, 0
	}
	n := e.suppressed
	e.last, e.suppressed = now, 0
	return true, n
}

// sweep forgets clients quiet for a window and logs the 429s left out
// for them (and for the clients beyond the table) since their last line.
func (f *floods) sweep(now time.Time, log *slog.Logger) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for client, e := range f.clients {
		if now.Sub(e.last) < floodWindow {
			continue
		}
		if e.suppressed > 0 {
			log.Info("rate-limited requests not logged", "client", client, "suppressed", e.suppressed)
		}
		delete(f.clients, client)
	}
	if f.overflow > 0 {
		log.Info("rate-limited requests not logged", "client", "others", "suppressed", f.overflow)
		f.overflow = 0
	}
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

// idPrefix is what this process's request ids start with: 64 random bits
// in hex, so that ids from two processes do not collide.
func idPrefix() ([16]byte, error) {
	var raw [8]byte
	var p [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return p, fmt.Errorf("cannot seed request ids: %w", err)
	}
	hex.Encode(p[:], raw[:])
	return p, nil
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
// Several X-Forwarded-For lines read as one list joined in order, so a
// client cannot hide the proxy's line behind one of its own.
func (s *Server) clientIP(c *rest.Ctx) [16]byte {
	var addr netip.Addr
	if ip := c.RC.RemoteIP(); ip != nil {
		addr, _ = netip.AddrFromSlice(ip)
		addr = addr.Unmap()
	}
	if len(s.cfg.TrustedProxies) == 0 || !s.trusted(addr) {
		return addr.As16()
	}
	lines := c.RC.Request.Header.PeekAll(fasthttp.HeaderXForwardedFor)
	for l := len(lines) - 1; l >= 0; l-- {
		xff := lines[l]
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
				return addr.As16() // a malformed hop: trust nothing beyond it
			}
			addr = a.Unmap()
			if !s.trusted(addr) {
				return addr.As16()
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

// AccessLog chooses which requests the access log records.
type AccessLog uint8

const (
	AccessAll    AccessLog = iota // every request
	AccessErrors                  // responses with status 400 or more
	AccessOff                     // none
)

// ParseAccessLog reads "all", "errors" or "off".
func ParseAccessLog(s string) (AccessLog, error) {
	switch s {
	case "all":
		return AccessAll, nil
	case "errors":
		return AccessErrors, nil
	case "off":
		return AccessOff, nil
	}
	return 0, fmt.Errorf("%q is not all, errors or off", s)
}
