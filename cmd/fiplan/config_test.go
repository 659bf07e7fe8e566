package main

import (
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

// Anonymous IPv6 clients are counted per /64 unless FI_RATE_IPV6_PREFIX
// says otherwise; a length outside 32..128 stops start-up with exit 2.
func TestRateIPv6PrefixSetting(t *testing.T) {
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
