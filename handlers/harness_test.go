package handlers

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	testharness "fiplan/handlers/internal/harness"
	"fiplan/handlers/limit"

	"github.com/valyala/fasthttp"
)

// The wiring package's tests run the one harness, handlers/internal/harness,
// on a Server they build here (they cannot import testserver, which imports
// this package); what they add to it are methods of harness.

var testSecret = testharness.Secret

// harness runs a Server over an in-memory listener with a movable clock.
type harness struct {
	*testharness.Harness[*Server]
}

type resp = testharness.Resp

type option func(*Config)

func withRates(public, free, pro string) option {
	return func(c *Config) {
		c.RatePublic, _ = limit.ParseRate(public)
		c.RateFree, _ = limit.ParseRate(free)
		c.RatePro, _ = limit.ParseRate(pro)
	}
}

func newHarness(t *testing.T, opts ...option) *harness {
	t.Helper()
	return startHarness(t, filepath.Join(t.TempDir(), "fiplan.db"), opts...)
}

func startHarness(t *testing.T, dbPath string, opts ...option) *harness {
	t.Helper()
	return &harness{testharness.Start(t, dbPath, func(db *store.DB, v *auth.Verifier, clock func() time.Time) (*Server, error) {
		cfg := Config{Version: "test", DB: db, Verifier: v, Now: clock}
		withRates("60/1m", "600/1m", "6000/1m")(&cfg) // the documented defaults
		for _, o := range opts {
			o(&cfg)
		}
		s, err := New(cfg)
		if bind, ok := afterNew.LoadAndDelete(&cfg); ok && err == nil {
			bind.(func(*Server))(s)
		}
		return s, err
	})}
}

// afterNew holds, by the Config an option was given, what that option
// needs of the Server New builds from it (the web app's session check).
var afterNew sync.Map

var (
	expectError = testharness.ExpectError
	bearer      = testharness.Bearer
	conformAs   = testharness.ConformAs
	decodedBody = testharness.DecodedBody
)

// serve passes rc through s and checks the response against the document.
func serve(tb testing.TB, s *Server, rc *fasthttp.RequestCtx) {
	tb.Helper()
	testharness.Serve(tb, s, rc)
}
