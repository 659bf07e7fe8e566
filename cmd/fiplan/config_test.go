package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"fiplan/handlers"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestCORSOriginsSetting(t *testing.T) {
	t.Parallel()
	c, err := parseConfig(nil, env("FI_CORS_ORIGINS", " https://app.example , http://localhost:3000,HTTPS://Caps.Example"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://app.example", "http://localhost:3000", "https://caps.example"}; !slices.Equal(c.corsOrigins, want) {
		t.Fatalf("origins %q, want %q", c.corsOrigins, want)
	}
	c, err = parseConfig([]string{"-cors-origins", "https://flag.example"}, env("FI_CORS_ORIGINS", "https://env.example"), io.Discard)
	if err != nil || !slices.Equal(c.corsOrigins, []string{"https://flag.example"}) {
		t.Fatalf("the flag does not win: %q %v", c.corsOrigins, err)
	}
	if c, err := parseConfig(nil, env(), io.Discard); err != nil || len(c.corsOrigins) != 0 {
		t.Fatalf("default: %q %v", c.corsOrigins, err)
	}
	for _, bad := range []string{"*", "https://*.example", "app.example", "https://app.example/", "https://app.example/path", "ftp://app.example", "https://u@app.example", "https://app.example?x", "https://"} {
		_, err := parseConfig(nil, env("FI_CORS_ORIGINS", bad), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "-cors-origins (FI_CORS_ORIGINS)") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestAccessLogSetting(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]handlers.AccessLog{"": handlers.AccessAll, "all": handlers.AccessAll, "errors": handlers.AccessErrors, "off": handlers.AccessOff} {
		c, err := parseConfig(nil, env("FI_ACCESS_LOG", in), io.Discard)
		if err != nil || c.accessLog != want {
			t.Errorf("FI_ACCESS_LOG=%q: %v %v", in, c, err)
		}
	}
	if c, err := parseConfig([]string{"-access-log", "off"}, env("FI_ACCESS_LOG", "errors"), io.Discard); err != nil || c.accessLog != handlers.AccessOff {
		t.Errorf("the flag does not win: %v", err)
	}
	if _, err := parseConfig(nil, env("FI_ACCESS_LOG", "some"), io.Discard); err == nil || !strings.Contains(err.Error(), "-access-log (FI_ACCESS_LOG)") {
		t.Errorf("a bad value: %v", err)
	}
}

// -h and a mistyped flag print the settings, and never a value taken from
// the environment: the secrets and the database and Redis passwords stay
// unprinted, and -h names the subcommands.
func TestHelpPrintsNoSecret(t *testing.T) {
	t.Parallel()
	secrets := env(
		"FI_JWT_SECRET", "jwt-secret-value-that-is-long-enough-1",
		"FI_DB", "postgres://fiplan:db-password-1@127.0.0.1:1/x",
		"FI_REDIS_URL", "redis://:redis-password-1@127.0.0.1:1/0",
		"FI_OIDC_CLIENT_SECRET", "oidc-secret-1",
		"FI_JWT_ISSUER", "issuer-1", "FI_JWT_AUDIENCE", "audience-1", "FI_ADDR", "127.0.0.1:1",
	)
	for _, args := range [][]string{{"-h"}, {"-help"}, {"-nope"}, {"token", "-h"}, {"token", "-nope"}, {"mcp", "-h"},
		{"backup", "-h"}, {"restore", "-h"}, {"migrate", "-h"}} {
		var stdout, stderr strings.Builder
		code := run(context.Background(), args, secrets, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		for _, s := range []string{"jwt-secret-value", "db-password-1", "redis-password-1", "oidc-secret-1", "issuer-1", "audience-1"} {
			if strings.Contains(out, s) {
				t.Errorf("%v prints %q:\n%s", args, s, out)
			}
		}
		if len(args) == 1 && args[0] != "-nope" {
			if code != 0 || !strings.Contains(out, "fiplan token") || !strings.Contains(out, "fiplan backup") || !strings.Contains(out, "-jwt-secret") {
				t.Errorf("%v: exit %d, no subcommands or settings:\n%s", args, code, out)
			}
		}
		if args[len(args)-1] == "-nope" && code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	// The variables still take effect, and a flag still wins over them.
	c, err := parseConfig([]string{"-addr", "127.0.0.1:2"}, secrets, io.Discard)
	if err != nil || c.jwtSecret != "jwt-secret-value-that-is-long-enough-1" || c.addr != "127.0.0.1:2" || c.redis == nil || c.redis.Password != "redis-password-1" {
		t.Fatalf("settings: %+v %v", c, err)
	}
}

// Local mode signs anyone in: by default it listens on loopback only; an
// address given by flag or variable is used as given, and so is the
// default outside local mode.
func TestLocalModeListensOnLoopback(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args  []string
		env   func(string) string
		local bool
		want  string
	}{
		{nil, env(), true, "127.0.0.1:8080"},
		{nil, env(), false, ":8080"},
		{nil, env("FI_ADDR", ":8080"), true, ":8080"},
		{[]string{"-addr", ":9000"}, env(), true, ":9000"},
		{nil, env("FI_ADDR", "0.0.0.0:8080"), true, "0.0.0.0:8080"},
	} {
		cfg, err := parseConfig(c.args, c.env, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := listenAddr(cfg, c.local); got != c.want {
			t.Errorf("%v (local %v): %q, want %q", c.args, c.local, got, c.want)
		}
	}
	cfg, err := parseConfig(nil, env("FI_ALLOWED_HOSTS", " API.Fiplan.example, fiplan.example "), io.Discard)
	if err != nil || !slices.Equal(cfg.hosts, []string{"api.fiplan.example", "fiplan.example"}) {
		t.Fatalf("allowed hosts: %q %v", cfg.hosts, err)
	}
	if _, err := parseConfig(nil, env("FI_ALLOWED_HOSTS", "https://x.example/"), io.Discard); err == nil || !strings.Contains(err.Error(), "-allowed-hosts (FI_ALLOWED_HOSTS)") {
		t.Fatalf("a URL as a host: %v", err)
	}
}

// Anonymous IPv6 clients are counted per /64 unless FI_RATE_IPV6_PREFIX
// says otherwise; a length outside 32..128 stops start-up with exit 2.
func TestRateIPv6PrefixSetting(t *testing.T) {
	t.Parallel()
	if c, err := parseConfig(nil, env(), io.Discard); err != nil || c.rateIPv6 != 64 {
		t.Fatalf("default: %v %v", c, err)
	}
	for in, want := range map[string]int{"32": 32, "48": 48, "56": 56, "128": 128} {
		if c, err := parseConfig(nil, env("FI_RATE_IPV6_PREFIX", in), io.Discard); err != nil || c.rateIPv6 != want {
			t.Errorf("FI_RATE_IPV6_PREFIX=%s: %v %v", in, c, err)
		}
	}
	if c, err := parseConfig([]string{"-rate-ipv6-prefix", "56"}, env("FI_RATE_IPV6_PREFIX", "48"), io.Discard); err != nil || c.rateIPv6 != 56 {
		t.Errorf("the flag does not win: %v", err)
	}
	for _, bad := range []string{"31", "129", "0", "-64", "64.5", "/64", "sixty-four"} {
		var stderr strings.Builder
		code := run(t.Context(), []string{"-rate-ipv6-prefix", bad}, env(), io.Discard, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "-rate-ipv6-prefix (FI_RATE_IPV6_PREFIX)") || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("-rate-ipv6-prefix %s: exit %d, %q", bad, code, stderr.String())
		}
	}
}

// An https public URL makes the server want https Origins on a cookie's
// unsafe requests; an http one (the local default) does not.
func TestHostsSecureFromPublicURL(t *testing.T) {
	for u, want := range map[string]bool{"https://fiplan.example": true, "HTTPS://fiplan.example": true, "http://localhost:8080": false} {
		if got := hosts(&config{publicURL: u}); got.Secure != want || len(got.Names) == 0 || got.Names[0] != "fiplan.example" && want {
			t.Errorf("hosts(%q) = %+v, want Secure %v", u, got, want)
		}
	}
}
