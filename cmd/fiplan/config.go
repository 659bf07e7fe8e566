package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"fiplan/handlers"

	"fiplan/handlers/limit"
	"fiplan/handlers/mail"
	"fiplan/handlers/web"
)

// config is every setting the README's configuration table lists. Each is a flag and an
// environment variable: the variable wins over the default, the flag over
// the variable.
type config struct {
	addr        string
	db          string
	jwtSecret   string
	jwks        string
	issuer      string
	audience    string
	ratePublic  limit.Rate
	rateFree    limit.Rate
	ratePro     limit.Rate
	rateIPv6    int // prefix length anonymous IPv6 clients are counted by
	trusted     []netip.Prefix
	corsOrigins []string
	redis       *redis.Options // nil: rate limits are this node's own
	accessLog   handlers.AccessLog
	logLevel    slog.Level
	version     bool
	webWarm     bool // compress the web app's pages and files at start

	oidcIssuer       string
	oidcClientID     string
	oidcClientSecret string
	publicURL        string

	metricsAddr string
	smtpURL     string // empty: the email channel is off
	smtpFrom    string
	lease       time.Duration // a worker's claim on a delivery or a queued mail
	conns       handlers.ConnLimits
	hosts       []string // host names admitted beside the public URL's
	// addrChosen is whether FI_ADDR or -addr was given: in local mode the
	// default address is loopback only.
	addrChosen bool
}

// settingError names the setting that stopped start-up.
type settingError struct {
	flag, env string
	err       error
}

func (e *settingError) Error() string {
	return fmt.Sprintf("invalid -%s (%s): %v", e.flag, e.env, e.err)
}

func (e *settingError) Unwrap() error { return e.err }

type setting struct {
	flag, env, def, usage string
	parse                 func(string) error
}

// settings is every setting, declared once: its flag, its variable, its
// default and its usage line (which -h prints, and the README's
// Configuration table repeats, held to it by a test), and how its value
// is parsed into c.
func (c *config) settings() []setting {
	return []setting{
		{"addr", "FI_ADDR", ":8080", "listen address", func(v string) error {
			if v == "" {
				return errors.New("empty address")
			}
			c.addr = v
			return nil
		}},
		{"db", "FI_DB", "fiplan.db", "bbolt file path, or a postgres:// (postgresql://) URL", func(v string) error {
			if v == "" {
				return errors.New("empty path")
			}
			c.db = v
			return nil
		}},
		{"jwt-secret", "FI_JWT_SECRET", "", "HS256 shared secret for session tokens (at least 32 bytes)", func(v string) error {
			if v != "" && len(v) < minSecret {
				return errors.New("the secret must be at least 32 bytes")
			}
			c.jwtSecret = v
			return nil
		}},
		{"jwt-jwks", "FI_JWT_JWKS", "", "JWKS source: a file path or an https URL (RS256, ES256, EdDSA)", func(v string) error {
			if strings.HasPrefix(v, "http://") {
				return errors.New("a JWKS URL must use https")
			}
			c.jwks = v
			return nil
		}},
		{"jwt-issuer", "FI_JWT_ISSUER", "", "when set, the iss claim must match", func(v string) error { c.issuer = v; return nil }},
		{"jwt-audience", "FI_JWT_AUDIENCE", "", "when set, the aud claim must contain it", func(v string) error { c.audience = v; return nil }},
		{"rate-public", "FI_RATE_PUBLIC", "60/1m", "anonymous limit per client IP: N/DURATION or off", rateInto(&c.ratePublic)},
		{"rate-free", "FI_RATE_FREE", "600/1m", "per-user limit on the free tier", rateInto(&c.rateFree)},
		{"rate-pro", "FI_RATE_PRO", "6000/1m", "per-user limit on the pro tier", rateInto(&c.ratePro)},
		{"rate-ipv6-prefix", "FI_RATE_IPV6_PREFIX", strconv.Itoa(limit.DefaultIPv6Prefix), "prefix length anonymous IPv6 clients are counted by (32 to 128; IPv4 clients count by address)", func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < limit.MinIPv6Prefix || n > limit.MaxIPv6Prefix {
				return fmt.Errorf("%q is not a prefix length from %d to %d", v, limit.MinIPv6Prefix, limit.MaxIPv6Prefix)
			}
			c.rateIPv6 = n
			return nil
		}},
		{"redis-url", "FI_REDIS_URL", "", "redis:// or rediss:// URL: rate limits shared by every node (fail-open to each node's own)", func(v string) error {
			c.redis = nil
			if v == "" {
				return nil
			}
			o, err := redis.ParseURL(v)
			if err != nil {
				// go-redis's message may quote the URL, password included.
				return errors.New("not a redis:// or rediss:// URL")
			}
			c.redis = limit.ClientOptions(o)
			return nil
		}},
		{"trusted-proxies", "FI_TRUSTED_PROXIES", "", "comma-separated CIDRs whose X-Forwarded-For is believed", func(v string) error {
			c.trusted = nil
			for _, part := range strings.Split(v, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				p, err := netip.ParsePrefix(part)
				if err != nil {
					return fmt.Errorf("%q is not a CIDR", part)
				}
				c.trusted = append(c.trusted, p.Masked())
			}
			return nil
		}},
		{"cors-origins", "FI_CORS_ORIGINS", "", "comma-separated exact origins (https://app.example) browsers may call from", func(v string) error {
			c.corsOrigins = nil
			for _, part := range strings.Split(v, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				o, err := parseOrigin(part)
				if err != nil {
					return err
				}
				c.corsOrigins = append(c.corsOrigins, o)
			}
			return nil
		}},
		{"access-log", "FI_ACCESS_LOG", "all", "which requests to log: all, errors or off (429s at most once per client per 10 s)", func(v string) error {
			var err error
			c.accessLog, err = handlers.ParseAccessLog(v)
			return err
		}},
		{"oidc-issuer", "FI_OIDC_ISSUER", "", "the identity provider for web sign-in (its discovery URL base)", func(v string) error {
			if v != "" && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://localhost") && !strings.HasPrefix(v, "http://127.0.0.1") {
				return errors.New("the issuer must be an https URL (plain http only on localhost)")
			}
			c.oidcIssuer = v
			return nil
		}},
		{"oidc-client-id", "FI_OIDC_CLIENT_ID", "", "this service's client id at the identity provider", func(v string) error { c.oidcClientID = v; return nil }},
		{"oidc-client-secret", "FI_OIDC_CLIENT_SECRET", "", "the client secret, for a confidential client", func(v string) error { c.oidcClientSecret = v; return nil }},
		{"public-url", "FI_PUBLIC_URL", "http://localhost:8080", "the externally visible base URL (redirects, cookies' Secure flag)", func(v string) error {
			u, err := web.ParsePublicURL(v)
			if err != nil {
				return err
			}
			c.publicURL = u.String()
			return nil
		}},
		{"allowed-hosts", "FI_ALLOWED_HOSTS", "", "comma-separated host names requests may name in Host besides the public URL's (against DNS rebinding)", func(v string) error {
			c.hosts = nil
			for _, part := range strings.Split(v, ",") {
				part = strings.ToLower(strings.TrimSpace(part))
				if part == "" {
					continue
				}
				if strings.ContainsAny(part, "/*@ ") {
					return fmt.Errorf("%q is not a host name", part)
				}
				c.hosts = append(c.hosts, part)
			}
			return nil
		}},
		{"metrics-addr", "FI_METRICS_ADDR", "", "listen address of GET /metrics (Prometheus text format), such as 127.0.0.1:9090; off when empty", func(v string) error {
			c.metricsAddr = v
			return nil
		}},
		{"smtp-url", "FI_SMTP_URL", "", "SMTP server of the email channel: smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps://...; off when empty", func(v string) error {
			if v != "" {
				if _, err := mail.ParseURL(v); err != nil {
					return err
				}
			}
			c.smtpURL = v
			return nil
		}},
		{"smtp-from", "FI_SMTP_FROM", "fiplan@localhost", "sender address of fiplan's mails", func(v string) error {
			if _, err := netmail.ParseAddress(v); err != nil {
				return fmt.Errorf("%q is not an email address", v)
			}
			c.smtpFrom = v
			return nil
		}},
		{"delivery-lease", "FI_DELIVERY_LEASE", "2m", "how long a node's claim holds a webhook delivery or a queued mail: past it, if the node died, another sends it again (at least once); from 1s, longer than a delivery takes (10 s)", func(v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Second || d > 24*time.Hour {
				return fmt.Errorf("%q is not a duration from 1s to 24h", v)
			}
			c.lease = d
			return nil
		}},
		{"max-conns", "FI_MAX_CONNS", "auto", "connections open at once; past it new ones wait (auto: the open-file limit less 128, at most 16384)", func(v string) error {
			c.conns.Max = 0
			if v == "auto" {
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not auto or a count of at least 1", v)
			}
			c.conns.Max = n
			return nil
		}},
		{"max-conns-per-ip", "FI_MAX_CONNS_PER_IP", strconv.Itoa(handlers.DefaultMaxConnsPerIP), "connections one client address holds at once (trusted proxies exempt); off for no limit", func(v string) error {
			if v == "off" {
				c.conns.PerIP = -1
				return nil
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not off or a count of at least 1", v)
			}
			c.conns.PerIP = n
			return nil
		}},
		{"web-warm", "FI_WEB_WARM", "on", "on: compress the web app's pages and files at start, in the background; off: each at its first request", func(v string) error {
			switch v {
			case "on", "off":
				c.webWarm = v == "on"
				return nil
			}
			return fmt.Errorf("%q is not on or off", v)
		}},
		{"log-level", "FI_LOG_LEVEL", "info", "debug, info, warn or error", func(v string) error {
			switch v {
			case "debug":
				c.logLevel = slog.LevelDebug
			case "info":
				c.logLevel = slog.LevelInfo
			case "warn":
				c.logLevel = slog.LevelWarn
			case "error":
				c.logLevel = slog.LevelError
			default:
				return fmt.Errorf("%q is not debug, info, warn or error", v)
			}
			return nil
		}},
	}
}

func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (*config, error) {
	c := &config{}
	settings := c.settings()
	fs := flag.NewFlagSet("fiplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	raw := make([]string, len(settings))
	vars := make(map[string]string, len(settings))
	for i, s := range settings {
		fs.StringVar(&raw[i], s.flag, s.def, s.usage+" ("+s.env+")")
		vars[s.flag] = s.env
	}
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	if err := parseFlags(fs, args, getenv, vars); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { c.addrChosen = c.addrChosen || f.Name == "addr" })
	c.addrChosen = c.addrChosen || getenv("FI_ADDR") != ""
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for i, s := range settings {
		if err := s.parse(raw[i]); err != nil {
			return nil, &settingError{s.flag, s.env, err}
		}
	}
	if c.metricsAddr != "" && c.metricsAddr == c.addr && !strings.HasSuffix(c.addr, ":0") {
		return nil, &settingError{"metrics-addr", "FI_METRICS_ADDR", errors.New("must differ from the public listen address: the metrics are never served there")}
	}
	if c.oidcIssuer != "" && c.oidcClientID == "" {
		return nil, &settingError{"oidc-client-id", "FI_OIDC_CLIENT_ID", errors.New("required with an OIDC issuer")}
	}
	return c, nil
}

func rateInto(dst *limit.Rate) func(string) error {
	return func(v string) error {
		r, err := limit.ParseRate(v)
		*dst = r
		return err
	}
}

// parseOrigin checks that s is an exact origin, scheme://host[:port] with
// nothing after it, and returns it as browsers send it (lower case).
func parseOrigin(s string) (string, error) {
	if strings.Contains(s, "*") {
		return "", fmt.Errorf("%q: list exact origins; wildcards are not accepted", s)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("%q is not an origin such as https://app.example", s)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// minSecret is the shortest HS256 secret a server accepts, in bytes.
const minSecret = 32
