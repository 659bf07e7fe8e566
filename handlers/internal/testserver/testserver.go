// Package testserver runs the real handlers.Server for the tests of the
// domain packages (handlers/<domain>): the one harness,
// handlers/internal/harness, with the server built, and what those tests
// share (MCP sessions, API keys, fuzzing and benchmark servers). Every
// response it sees is checked against the server's OpenAPI document.
package testserver

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/limit"
)

// Secret signs the session tokens of every harness.
var Secret = harness.Secret

// Harness runs a handlers.Server over an in-memory listener with a movable
// clock: handlers/internal/harness's, with what the domain packages'
// tests add.
type Harness struct {
	*harness.Harness[*handlers.Server]
}

// Resp is one response: its status, headers, raw body and the body decoded
// as a JSON object.
type Resp = harness.Resp

// Option changes the server's configuration before it is built.
type Option func(*handlers.Config)

// WithRates sets the three tiers' rate limits.
func WithRates(public, free, pro string) Option {
	return func(c *handlers.Config) {
		c.RatePublic, _ = limit.ParseRate(public)
		c.RateFree, _ = limit.ParseRate(free)
		c.RatePro, _ = limit.ParseRate(pro)
	}
}

// New starts a harness on a fresh store in t's temporary directory.
func New(t *testing.T, opts ...Option) *Harness {
	t.Helper()
	return Start(t, filepath.Join(t.TempDir(), "fiplan.db"), opts...)
}

// Start starts a harness on the bbolt store at dbPath.
func Start(t *testing.T, dbPath string, opts ...Option) *Harness {
	t.Helper()
	return &Harness{harness.Start(t, dbPath, func(db *store.DB, v *auth.Verifier, clock func() time.Time) (*handlers.Server, error) {
		cfg := handlers.Config{Version: "test", DB: db, Verifier: v, Now: clock}
		WithRates("60/1m", "600/1m", "6000/1m")(&cfg) // the documented defaults
		for _, o := range opts {
			o(&cfg)
		}
		return handlers.New(cfg)
	})}
}

// ExpectError checks an error envelope.
func ExpectError(t *testing.T, r *Resp, status int, code string) {
	t.Helper()
	harness.ExpectError(t, r, status, code)
}

// Bearer is the Authorization header carrying tok, as Do takes headers.
func Bearer(tok string) []string { return harness.Bearer(tok) }

// Conform checks a response of s against its OpenAPI document.
func Conform(tb testing.TB, s *handlers.Server, method, path string, status int, body []byte) {
	tb.Helper()
	harness.Conform(tb, s, method, path, status, body)
}

// ConformAs is Conform for a response of the given Content-Type.
func ConformAs(tb testing.TB, s *handlers.Server, method, path string, status int, contentType string, body []byte) {
	tb.Helper()
	harness.ConformAs(tb, s, method, path, status, contentType, body)
}

// Serve passes rc through s and checks the response against the document.
func Serve(tb testing.TB, s *handlers.Server, rc *fasthttp.RequestCtx) {
	tb.Helper()
	harness.Serve(tb, s, rc)
}

// DecodedBody is the response body with its Content-Encoding undone.
func DecodedBody(tb testing.TB, res *fasthttp.Response) []byte { return harness.DecodedBody(tb, res) }

// CompileDoc loads an OpenAPI document into a JSON Schema compiler.
func CompileDoc(tb testing.TB, raw []byte) *jsonschema.Compiler { return harness.CompileDoc(tb, raw) }

// Pointer is the JSON pointer into the compiled document through parts.
func Pointer(parts ...string) string { return harness.Pointer(parts...) }

// WithDB runs the server on db instead of the harness's own bbolt store.
func WithDB(db store.Store) Option { return func(c *handlers.Config) { c.DB = db } }

// PGStore is a PostgreSQL store in a fresh schema of FI_TEST_POSTGRES,
// closed when t ends; without FI_TEST_POSTGRES the test is skipped.
func PGStore(t *testing.T) store.Store {
	t.Helper()
	return harness.PGStore(t)
}
