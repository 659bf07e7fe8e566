// Command fiplan serves the fiplan API.
//
//	fiplan [flags]                      serve (see -h for every setting)
//	fiplan token -sub NAME [-tier pro] [-role admin] [-ttl 1h]
//	fiplan migrate [-db PATH|URL]       upgrade the store's schema and exit
//	fiplan migrate -from FILE           copy a bbolt file into the empty PostgreSQL database FI_DB
//	fiplan mcp [-sub local] [-tier pro] serve the MCP tools over stdio as a local user
//	fiplan backup -o FILE               copy the bbolt file, while the server runs
//	fiplan restore -i FILE              put a copy back (the server stopped)
//	fiplan -version
//
// A bad setting ends start-up with one line naming it and exit code 2.
// SIGINT or SIGTERM stop accepting, finish in-flight requests (up to 15
// seconds), close the database and exit 0.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
	"fiplan/handlers/mail"
	"fiplan/handlers/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "token" {
		return token(ctx, args[1:], getenv, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return mcpStdio(ctx, args[1:], getenv, os.Stdin, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "migrate" {
		return migrate(ctx, args[1:], getenv, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "backup" {
		return backup(ctx, args[1:], getenv, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "restore" {
		return restore(ctx, args[1:], getenv, stdout, stderr)
	}
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	if cfg.version {
		fmt.Fprintln(stdout, "fiplan", binaryBuild())
		return 0
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.logLevel}))
	if err := serve(ctx, cfg, log); err != nil {
		return fail(stderr, err)
	}
	return 0
}

type fasthttpLogger struct{ log *slog.Logger }

func (l fasthttpLogger) Printf(format string, args ...any) {
	l.log.Debug(fmt.Sprintf(format, args...))
}

func fail(stderr io.Writer, err error) int {
	if errors.Is(err, errHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "fiplan:", err)
	return 2
}

var errHelp = flagErrHelp()

// serve runs the server until ctx is done.
func serve(ctx context.Context, cfg *config, log *slog.Logger) error {
	// SIGHUP is caught before anything listens: a reload sent the moment the
	// node answers must not meet Go's default action, which ends the process.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	// Every other setting is put to use before the address is bound, so
	// that a failure names the setting at fault, not a busy port.
	raw, err := startStore(ctx, cfg.db, log)
	if err != nil {
		return &settingError{"db", "FI_DB", err}
	}
	// The web app's sign-outs and the API's checks share one mirror of the
	// sign-out marks, so that a sign-out here holds here at once.
	db := store.NewMirror(raw, nil)
	defer db.Close()

	secret := []byte(cfg.jwtSecret)
	local := cfg.jwtSecret == "" && cfg.jwks == "" && cfg.oidcIssuer == ""
	if local {
		if secret, err = db.Secret(); errors.Is(err, store.ErrUnavailable) {
			return errLocalWait
		} else if err != nil {
			return &settingError{"db", "FI_DB", fmt.Errorf("cannot keep the local secret: %w", err)}
		}
	}
	vcfg := auth.Config{
		Secret: secret, JWKS: cfg.jwks, Issuer: cfg.issuer, Audience: cfg.audience,
		CacheSize: 1 << 16, Logger: log,
	}
	if cfg.oidcIssuer != "" && cfg.jwks == "" {
		// The session is the provider's ID token: its keys, its issuer,
		// and this client as the audience, unless configured otherwise.
		vcfg.Discovery = cfg.oidcIssuer
		if vcfg.Issuer == "" {
			vcfg.Issuer = cfg.oidcIssuer
		}
		if vcfg.Audience == "" {
			vcfg.Audience = cfg.oidcClientID
		}
	}
	verifier, err := auth.NewVerifier(vcfg)
	if err != nil {
		if vcfg.Discovery != "" {
			return &settingError{"oidc-issuer", "FI_OIDC_ISSUER", err}
		}
		return &settingError{"jwt-jwks", "FI_JWT_JWKS", err}
	}
	defer verifier.Close()

	// The cookie-sealing key comes from every server secret there is; the
	// one kept in the db makes sealed cookies outlive a restart.
	var localSecret []byte
	if local {
		localSecret = secret
	}
	// The app's session check is the server's, built below; no request
	// reaches the app before the server listens.
	var s *handlers.Server
	session := func(tok []byte) (auth.Principal, error) { return s.Session(tok) }
	app, err := webApp(ctx, cfg, db, verifier, session, localSecret, log)
	if err != nil {
		return err
	}

	var shared *limit.Redis
	if cfg.redis != nil {
		// go-redis logs every failed dial itself; the limiter's one
		// warning a minute says it for us.
		redis.SetLogger(redisLog{log})
		rdb := redis.NewClient(cfg.redis)
		defer rdb.Close()
		shared = limit.NewRedis(rdb, 0, log)
		// Fail-open: an unreachable Redis does not stop start-up.
		if err := shared.Ping(ctx); err != nil {
			log.Warn("redis does not answer: rate limits are this node's own until it does", "addr", cfg.redis.Addr, "err", err)
		}
	}
	mailCfg, err := mailChannel(cfg, db)
	if err != nil {
		return err
	}
	s, err = handlers.New(handlers.Config{
		Version: buildVersion(), DB: db, Verifier: verifier,
		RatePublic: cfg.ratePublic, RateFree: cfg.rateFree, RatePro: cfg.ratePro, RateIPv6Prefix: cfg.rateIPv6,
		TrustedProxies: cfg.trusted, CORSOrigins: cfg.corsOrigins, AccessLog: cfg.accessLog,
		Logger: log, Web: app, Redis: shared, Conns: cfg.conns, Hosts: hosts(cfg),
		MCP:      &mcp.Settings{PublicURL: cfg.publicURL, Issuer: cfg.oidcIssuer},
		Webhooks: handlers.Webhooks{Local: local, Deliver: true, Lease: cfg.lease},
		Mail:     mailCfg,
	})
	if err != nil {
		return err
	}
	defer s.Close()

	ln, err := net.Listen("tcp", listenAddr(cfg, local))
	if err != nil {
		return &settingError{"addr", "FI_ADDR", err}
	}
	defer ln.Close()
	var mln net.Listener
	if cfg.metricsAddr != "" {
		if mln, err = net.Listen("tcp", cfg.metricsAddr); err != nil {
			return &settingError{"metrics-addr", "FI_METRICS_ADDR", err}
		}
		defer mln.Close()
	}
	if mailCfg.Mailer == nil {
		log.Info("email channel off: FI_SMTP_URL is not set; no mail is sent, webhooks deliver as before")
	} else {
		log.Info("email channel on", "smtp", mailCfg.Mailer.Server(), "from", cfg.smtpFrom)
	}
	if local {
		log.Warn("running in local mode: session tokens are signed with a secret generated and kept in the db; sign in at /auth/login or make one with `fiplan token -sub NAME`, and set FI_OIDC_ISSUER, FI_JWT_SECRET or FI_JWT_JWKS in production", "db", dbName(cfg.db))
	}

	srv := s.HTTP()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.Listen(ln)) }()
	log.Info("listening", "addr", ln.Addr().String(), "db", dbName(cfg.db), "version", buildVersion())
	if mln != nil {
		msrv := &fasthttp.Server{Handler: s.Metrics, Name: "fiplan", ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second,
			NoDefaultServerHeader: true, Logger: fasthttpLogger{log}}
		go msrv.Serve(mln)    //nolint:errcheck // ends when the listener closes
		defer msrv.Shutdown() //nolint:errcheck // the process is ending
		log.Info("serving metrics", "addr", mln.Addr().String(), "path", "/metrics")
	}
	for waiting := true; waiting; {
		select {
		case err := <-errc:
			return fmt.Errorf("cannot serve: %w", err)
		case <-hup:
			log.Warn("SIGHUP ignored: fiplan reads its settings at start only; restart it (SIGTERM drains) to change them")
		case <-ctx.Done():
			waiting = false
		}
	}
	// Readiness fails first, so that balancers stop sending before the
	// listener closes.
	s.Drain()
	log.Info("shutting down: /readyz answers 503; closing the listener after the balancers' checks", "grace", handlers.DrainGrace.String())
	select {
	case <-time.After(handlers.DrainGrace):
	case err := <-errc:
		return fmt.Errorf("cannot serve: %w", err)
	}
	log.Info("shutting down: draining in-flight requests")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.ShutdownWithContext(sctx); err != nil {
		log.Warn("shutdown did not drain in time", "err", err)
	}
	return nil
}

// redisLog sends go-redis's own messages to the debug level.
type redisLog struct{ log *slog.Logger }

func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}

// publicHost is the host (and port) of the public URL.
// hosts are the names requests may carry in Host, and whether the public
// URL is https.
func hosts(cfg *config) handlers.Hosts {
	h := handlers.NewHosts(publicHost(cfg.publicURL), cfg.hosts...)
	h.Secure = strings.HasPrefix(strings.ToLower(cfg.publicURL), "https://")
	return h
}

func publicHost(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil {
		return ""
	}
	return u.Host
}

// listenAddr is where to listen: the configured address, except that local
// mode, which signs anyone in, listens on loopback only unless an address
// was chosen.
func listenAddr(cfg *config, local bool) string {
	if local && !cfg.addrChosen && strings.HasPrefix(cfg.addr, ":") {
		return "127.0.0.1" + cfg.addr
	}
	return cfg.addr
}

// mailChannel is the email channel of cfg: off, with a log line, when no
// SMTP server is set. Its links are signed with the secret kept in the
// store, the same on every node; while email is off, the links of mails
// sent before still work when that secret can be read.
func mailChannel(cfg *config, db store.Store) (handlers.Mail, error) {
	var m handlers.Mail
	if cfg.smtpURL == "" {
		if secret, ok, err := db.PeekSecret(); err == nil && ok {
			m.Secret = secret
		}
		return m, nil
	}
	secret, err := db.Secret()
	if err != nil {
		return m, &settingError{"smtp-url", "FI_SMTP_URL", fmt.Errorf("cannot keep the secret that signs mail links: %w", err)}
	}
	m.Secret = secret
	if m.Mailer, err = mail.New(mail.Config{URL: cfg.smtpURL, From: cfg.smtpFrom, PublicURL: cfg.publicURL, Secret: secret}); err != nil {
		return m, &settingError{"smtp-url", "FI_SMTP_URL", err}
	}
	return m, nil
}
