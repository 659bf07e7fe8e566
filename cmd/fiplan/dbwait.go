package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/handlers/auth"
	"fiplan/handlers/web"
)

// startStore opens the store the server runs on. A PostgreSQL database
// that does not answer does not stop start-up: the store connects (and
// migrates) in the background, and until then its calls fail with
// store.ErrUnavailable. A malformed URL, refused credentials or an
// unusable schema still end start-up, each with its own message.
func startStore(ctx context.Context, db string, log *slog.Logger) (store.Store, error) {
	if postgres.IsURL(db) {
		return postgres.Start(ctx, db, log)
	}
	return store.Open(db, store.Options{LockTimeout: 2 * time.Second})
}

// storeReady is closed once the store serves: at once for bbolt.
func storeReady(db store.Store) <-chan struct{} {
	if m, ok := db.(*store.Mirror); ok {
		db = m.Store
	}
	if r, ok := db.(interface{ Ready() <-chan struct{} }); ok {
		return r.Ready()
	}
	c := make(chan struct{})
	close(c)
	return c
}

// errLocalWait explains why local mode cannot start without its database.
var errLocalWait = errors.New("local mode signs sessions with a secret kept in the database, which does not answer: start the database first, or set FI_JWT_SECRET, FI_JWT_JWKS or FI_OIDC_ISSUER so that the node starts without it")

// webApp builds the web app. Its cookie-sealing key is derived from every
// server secret, the one kept in the database included, so that a cookie
// sealed by one node opens on every other: with a store that has not
// reached its database yet, the app is built once it has, and until then
// the web app's paths answer 503 with Retry-After (the API answers as
// usual).
func webApp(ctx context.Context, cfg *config, db store.Store, verifier *auth.Verifier, session func([]byte) (auth.Principal, error), localSecret []byte, log *slog.Logger) (fasthttp.RequestHandler, error) {
	build := func() (fasthttp.RequestHandler, error) {
		kept, err := db.Secret()
		if err != nil {
			return nil, &settingError{"db", "FI_DB", fmt.Errorf("cannot keep the cookie secret: %w", err)}
		}
		app, err := web.New(ctx, web.Config{
			PublicURL:   cfg.publicURL,
			Secrets:     [][]byte{kept, []byte(cfg.jwtSecret), []byte(cfg.oidcClientSecret)},
			Verifier:    verifier,
			Session:     session,
			OIDC:        web.OIDC{Issuer: cfg.oidcIssuer, ClientID: cfg.oidcClientID, ClientSecret: cfg.oidcClientSecret},
			Logger:      log,
			LocalSecret: localSecret,
			// Sign-outs and spent sign-in flows, seen by every node.
			Revocations: db,
			Warm:        cfg.webWarm,
		})
		if err != nil {
			if cfg.oidcIssuer != "" {
				return nil, &settingError{"oidc-issuer", "FI_OIDC_ISSUER", err}
			}
			return nil, err
		}
		return app.Serve, nil
	}
	ready := storeReady(db)
	select {
	case <-ready:
		return build()
	default:
	}
	var app atomic.Pointer[fasthttp.RequestHandler]
	go func() {
		select {
		case <-ready:
		case <-ctx.Done():
			return
		}
		for {
			h, err := build()
			if err == nil {
				app.Store(&h)
				log.Info("web app serving: the database answers")
				return
			}
			log.Error("the web app cannot start yet: retrying", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(store.UnavailableRetry * time.Second):
			}
		}
	}()
	return func(rc *fasthttp.RequestCtx) {
		if h := app.Load(); h != nil {
			(*h)(rc)
			return
		}
		rc.Error("fiplan is starting: the web app serves once the database answers; retry shortly", fasthttp.StatusServiceUnavailable)
		rc.Response.Header.Set(fasthttp.HeaderRetryAfter, strconv.Itoa(store.UnavailableRetry))
		rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	}, nil
}
