package plans_test

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers"
	"fiplan/handlers/internal/testserver"
)

// polled counts the sign-out mirror's polls, which share the one
// connection: a poll that falls inside a request is the mirror's round
// trip, not the request's.
type polled struct {
	*postgres.DB
	polls atomic.Int64
}

func (p *polled) MarksAfter(after int64, fn func(id string, until time.Time)) (int64, error) {
	p.polls.Add(1)
	return p.DB.MarksAfter(after, fn)
}

// An asset write that takes two watched plans off their path writes the
// asset, judges the stored assets and emits both events, with a delivery
// to the user's endpoint each, in a handful of round trips: the events go
// to the database together, not one statement after another.
func TestWatchedAssetWriteRoundTrips(t *testing.T) {
	if os.Getenv("FI_TEST_POSTGRES") == "" {
		t.Skip("FI_TEST_POSTGRES is not set")
	}
	pg, err := postgres.Open(context.Background(), pgtest.Schema(t, "fiplan_handlers_")+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Close() })
	db := &polled{DB: pg}
	h := testserver.New(t, testserver.WithDB(db), func(c *handlers.Config) { c.Webhooks.Local = true })
	tok := h.Token("trips", "free", "")
	for _, name := range []string{"first", "second"} {
		savePlan(t, h, tok, name, `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,`+
			`"currentSavings":500000,"targetRetirementAge":60}`)
	}
	r := h.Do("POST", "/api/v1/user/webhooks", `{"url":"http://127.0.0.1:9/hook","events":["plan.offtrack","fi.reached"]}`, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("register: %d %s", r.Status, r.Raw)
	}
	write := func(method, path, body string, want int) int64 {
		t.Helper()
		before, polls := db.RoundTrips(), db.polls.Load()
		r := h.Do(method, path, body, testserver.Bearer(tok)...)
		n := db.RoundTrips() - before - (db.polls.Load() - polls)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Raw)
		}
		return n
	}
	// The first write prepares the statements; the events of both plans
	// are raised by it, so the counted writes move the total far enough
	// each time to raise two more.
	r = h.Do("POST", "/api/v1/assets", `{"name":"warm-up","value":1,"currency":"USD"}`, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("warm-up: %d %s", r.Status, r.Raw)
	}
	warm := r.Data()["id"].(string)
	if n := len(eventsOf(t, h, tok, "plan.offtrack")); n != 2 {
		t.Fatalf("plan.offtrack after the first asset: %d, want 2", n)
	}
	create := write("POST", "/api/v1/assets", `{"name":"fund","value":900000,"currency":"USD"}`, 201)
	if n := len(eventsOf(t, h, tok, "plan.offtrack")); n != 4 {
		t.Fatalf("plan.offtrack after the total passed the path: %d, want 4", n)
	}
	r = h.Do("GET", "/api/v1/user/deliveries?limit=100", "", testserver.Bearer(tok)...)
	if r.Status != 200 {
		t.Fatalf("deliveries: %d %s", r.Status, r.Raw)
	}
	if ds, _ := r.Body["data"].([]any); len(ds) < 4 {
		t.Fatalf("deliveries: %d, want one for each of the 4 events at least", len(ds))
	}
	del := write("DELETE", "/api/v1/assets/"+warm, "", 204)
	t.Logf("asset create raising 2 events: %d round trips; asset delete judged against 2 watches: %d", create, del)
	// Create: the pipeline that finds the watches, BEGIN, the write with
	// the reads of watches, endpoints and assets, the events, COMMIT.
	if create > 5 {
		t.Errorf("asset create raising 2 events: %d round trips, want at most 5", create)
	}
	// Delete: the pipeline that finds the watches, BEGIN, the row's lock,
	// the delete with the reads, the events, COMMIT.
	if del > 7 {
		t.Errorf("asset delete: %d round trips, want at most 7", del)
	}
}
