package handlers

import (
	"log/slog"
	"net/netip"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
	"fiplan/handlers/mail"
	"fiplan/handlers/mcp"
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
	// Webhooks sets the webhook routes and their worker.
	Webhooks Webhooks
	// Mail is the email channel; its zero value has email off.
	Mail Mail
	// Hosts, when it names any, are the hosts a request from the network
	// may name in its Host header; others get 400.
	Hosts Hosts

	// breakerOpen is how long the store's circuit breaker stays open
	// before its probe (breaker.go); 0: a second. Tests shorten it.
	breakerOpen time.Duration
}

// Mail is the email channel of the outbox.
type Mail struct {
	// Mailer sends the mails; nil: email is off (webhooks are not).
	Mailer *mail.Mailer
	// Secret signs the links of the mails (verification, unsubscribe):
	// the store's kept secret, the same on every node. Empty: a random
	// one, which is enough while email is off.
	Secret []byte
}

// Webhooks are the settings of the webhook routes and worker.
type Webhooks struct {
	// Local allows http and loopback endpoints (local mode).
	Local bool
	// Deliver runs the worker in this server: it raises the due check-ins
	// and delivers the outbox (every node may run one).
	Deliver bool
	// Lease is how long the worker's claim holds a delivery or a queued
	// mail (zero: the worker's default).
	Lease time.Duration
}
