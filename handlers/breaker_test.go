package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	testharness "fiplan/handlers/internal/harness"
)

// waitState waits for b to reach want; the breaker keeps real time.
func waitState(t *testing.T, b *breaker, want gobreaker.State) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); b.cb.State() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("breaker %v, want %v", b.cb.State(), want)
		}
	}
}

func TestBreakerOpensOnFailuresToAnswerOnly(t *testing.T) {
	var down atomic.Bool
	ping := func() error {
		if down.Load() {
			return fmt.Errorf("cannot ping db: %w", context.DeadlineExceeded)
		}
		return nil
	}
	b := newBreaker(ping, 20*time.Millisecond, slog.New(slog.DiscardHandler), nil)
	call := func(err error) error {
		if refused := b.admit(); refused != nil {
			return refused
		}
		b.outcome(err)
		return err
	}
	// Answers are not failures, however many.
	for _, answer := range []error{store.ErrNotFound, store.ErrConflict, errors.New("cannot read asset \"x\": invalid id"), store.ErrUnavailable} {
		for range breakerTrips + 1 {
			if err := call(answer); errors.Is(err, errBreaker) {
				t.Fatalf("%v opened the breaker", answer)
			}
		}
	}
	// Failures to answer open it, successes between them notwithstanding.
	timeout := fmt.Errorf("cannot list assets: %w", context.DeadlineExceeded)
	for range breakerTrips - 1 {
		_ = call(timeout)
		_ = call(nil)
	}
	if b.open() {
		t.Fatalf("open after %d failures", breakerTrips-1)
	}
	_ = call(timeout)
	if !b.open() {
		t.Fatalf("closed after %d failures", breakerTrips)
	}
	var later interface{ RetryAfter() int }
	if err := call(nil); !errors.Is(err, errBreaker) || !errors.As(err, &later) || later.RetryAfter() != breakerRetry {
		t.Fatalf("an open breaker let a call through: %v", err)
	}
	// Half-open, clients are still refused: the probe is the background's,
	// and while the store does not answer it opens the breaker again.
	down.Store(true)
	waitState(t, b, gobreaker.StateHalfOpen)
	if err := call(nil); !errors.Is(err, errBreaker) {
		t.Fatalf("a half-open breaker let a client's call through: %v", err)
	}
	b.probe()
	if b.cb.State() != gobreaker.StateOpen {
		t.Fatalf("a failed probe left the breaker %v", b.cb.State())
	}
	down.Store(false)
	waitState(t, b, gobreaker.StateHalfOpen)
	b.probe()
	if b.open() {
		t.Fatalf("a probe that reached the store left the breaker %v", b.cb.State())
	}
	// One failed readiness check opens it at once, whatever its error.
	b.readiness(errors.New("cannot ping db: connection refused"))
	if !b.open() {
		t.Fatal("a failed readiness check left the breaker closed")
	}
	waitState(t, b, gobreaker.StateHalfOpen)
	b.readiness(nil) // a readiness check that passes closes it too
	if b.open() {
		t.Fatal("a passing readiness check left a half-open breaker open")
	}
	b.readiness(store.ErrUnavailable) // a store still starting is not news
	if b.open() {
		t.Fatal("a store not reached since start opened the breaker")
	}
}

// A closed breaker costs a store call no allocation, whatever the store
// answered; only a failure to answer reaches the library.
func TestBreakerClosedPathAllocatesNothing(t *testing.T) {
	b := newBreaker(func() error { return nil }, time.Second, slog.New(slog.DiscardHandler), nil)
	for _, outcome := range []error{nil, store.ErrNotFound, store.ErrConflict} {
		n := testing.AllocsPerRun(200, func() {
			if err := b.admit(); err != nil {
				t.Fatal(err)
			}
			b.outcome(outcome)
		})
		if n != 0 {
			t.Errorf("outcome %v: %v allocations a call, want 0", outcome, n)
		}
	}
	if c := b.cb.Counts(); c.TotalFailures != 0 {
		t.Fatalf("answers counted as failures: %+v", c)
	}
	b.outcome(fmt.Errorf("cannot list assets: %w", context.DeadlineExceeded))
	if c := b.cb.Counts(); c.TotalFailures != 1 {
		t.Fatalf("a failure to answer was not counted: %+v", c)
	}
}

func TestUnreachable(t *testing.T) {
	netErr := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	for err, want := range map[error]bool{
		fmt.Errorf("cannot list assets: %w", context.DeadlineExceeded):               true,
		fmt.Errorf("cannot list assets: %w", netErr):                                 true,
		errors.Join(store.ErrNotFound, fmt.Errorf("conn: %w", netErr)):               true,
		fmt.Errorf("a: %w", fmt.Errorf("b: %w", &net.DNSError{Err: "no such host"})): true,
		store.ErrNotFound: false,
		errors.Join(store.ErrConflict, errors.New("dup")): false,
		errors.New("cannot read asset: invalid id"):       false,
	} {
		if got := unreachable(err); got != want {
			t.Errorf("unreachable(%v) = %v, want %v", err, got, want)
		}
	}
}

// A call that fails after the breaker left closed does not decide the
// half-open breaker: the probe does.
func TestBreakerLateFailureLeavesHalfOpen(t *testing.T) {
	b := newBreaker(func() error { return nil }, 20*time.Millisecond, slog.New(slog.DiscardHandler), nil)
	if err := b.admit(); err != nil {
		t.Fatal(err)
	}
	b.readiness(errors.New("cannot ping db: connection refused"))
	waitState(t, b, gobreaker.StateHalfOpen)
	b.outcome(fmt.Errorf("cannot list assets: %w", context.DeadlineExceeded))
	if st := b.cb.State(); st != gobreaker.StateHalfOpen {
		t.Fatalf("a late failure moved the half-open breaker to %v", st)
	}
	b.probe()
	if b.open() {
		t.Fatal("a probe that reached the store left the breaker open")
	}
}

// hangingStore is a store whose database stops answering on demand: its
// ping and asset list fail as a deadline that passed, and count the calls
// that reached it.
type hangingStore struct {
	store.Store
	down  atomic.Bool
	calls atomic.Int64
}

var errHung = fmt.Errorf("cannot reach db: %w", context.DeadlineExceeded)

func (h *hangingStore) Ping() error {
	if h.down.Load() {
		return errHung
	}
	return h.Store.Ping()
}

func (h *hangingStore) AppendAssets(dst []byte, user string, category, offset, limit int) ([]byte, int, error) {
	h.calls.Add(1)
	if h.down.Load() {
		return dst, 0, errHung
	}
	return h.Store.AppendAssets(dst, user, category, offset, limit)
}

func hangingHarness(t *testing.T, opts ...option) (*harness, *hangingStore) {
	db, err := store.Open(filepath.Join(t.TempDir(), "hang.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	hs := &hangingStore{Store: db}
	return newHarness(t, append([]option{withDB(hs), func(c *Config) { c.breakerOpen = 20 * time.Millisecond }}, opts...)...), hs
}

// A database that stops answering: after a few failures, or at once after
// a failed readiness check, database routes answer 503 with Retry-After
// without asking it, the routes that need none keep a signed-in caller,
// and once a background probe reaches it again everything answers.
func TestStoreBreaker(t *testing.T) {
	h, hs := hangingHarness(t)
	tok := bearer(h.Token("ada", "free", ""))
	if r := h.Do("GET", "/api/v1/assets", "", tok...); r.Status != 200 {
		t.Fatalf("assets: %d %s", r.Status, r.Raw)
	}
	hs.down.Store(true)
	for i := range breakerTrips {
		expectError(t, h.Do("GET", "/api/v1/assets", "", tok...), 500, errcode.Database)
		if n := hs.calls.Load(); n != int64(i+2) {
			t.Fatalf("call %d reached the store %d times", i+1, n)
		}
	}
	r := h.Do("GET", "/api/v1/assets", "", tok...)
	expectError(t, r, 503, errcode.Unavailable)
	if r.Header["Retry-After"] != fmt.Sprint(breakerRetry) || r.Body["retryAfter"] != float64(breakerRetry) {
		t.Fatalf("open breaker: %v %s", r.Header, r.Raw)
	}
	if n := hs.calls.Load(); n != breakerTrips+1 {
		t.Fatalf("the open breaker let a call reach the store (%d calls)", n)
	}
	calc := `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000}`
	if r := h.Do("POST", "/api/v1/calculator", calc, tok...); r.Status != 200 {
		t.Fatalf("the calculator with a session while the breaker is open: %d %s", r.Status, r.Raw)
	}
	if !h.S.breaker.open() || h.S.breaker.probing.Load() {
		t.Fatal("the breaker closed, or is probing, while the store does not answer")
	}
	hs.down.Store(false)
	waitState(t, h.S.breaker, gobreaker.StateClosed)
	if r := h.Do("GET", "/api/v1/assets", "", tok...); r.Status != 200 {
		t.Fatalf("assets after the store came back: %d %s", r.Status, r.Raw)
	}
	// Refused: the list of assets, and the calculator's sign-out check.
	if text := scrape(t, h.S); !containsLine(text, "fiplan_store_breaker_refused_total 2") || !containsLine(text, "fiplan_store_breaker_open 0") {
		t.Fatalf("breaker metrics:\n%s", text)
	}

	// A failed readiness check opens it before any request fails.
	h2, hs2 := hangingHarness(t)
	hs2.down.Store(true)
	expectError(t, h2.Do("GET", "/readyz", ""), 503, errcode.Unavailable)
	expectError(t, h2.Do("GET", "/api/v1/assets", "", bearer(h2.Token("bo", "free", ""))...), 503, errcode.Unavailable)
	if n := hs2.calls.Load(); n != 0 {
		t.Fatalf("after a failed readiness check, %d calls reached the store", n)
	}
}

func containsLine(text, line string) bool {
	return strings.Contains("\n"+text, "\n"+line+"\n")
}

// /mcp with an API key while the breaker is open: the key cannot be looked
// up, so the answer is 503 with Retry-After in the API's envelope, not the
// 401 that would send the client to sign in again.
func TestMCPWhileTheBreakerIsOpen(t *testing.T) {
	h, hs := hangingHarness(t, withMCP(false))
	key, _ := h.APIKey("ada", "free")
	hs.down.Store(true)
	expectError(t, h.Do("GET", "/readyz", ""), 503, errcode.Unavailable)
	res := testharness.RawMCP(t, h.HTTPClient("Bearer "+key), "POST", "", testharness.Initialize)
	if res.Header.Get("Retry-After") != fmt.Sprint(breakerRetry) {
		t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	testharness.MCPRefused(t, res, 503, errcode.Unavailable, "an API key while the breaker is open")
}
