package main

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	dataversion "fiplan/data/version"
	"fiplan/handlers/hooks"
)

// receiver is a webhook endpoint that checks each request's Standard
// Webhooks signature and counts the deliveries of each event id. While
// its gate is shut it holds every request, and reports when `hold`
// requests wait at once; a held request whose connection dies (its node
// was killed) is counted as cut, not delivered.
type receiver struct {
	secret string
	hold   int
	full   chan struct{} // closed when hold requests wait
	gate   chan struct{} // closed to let them through

	mu      sync.Mutex
	waiting int
	cut     int
	bad     []string
	seen    map[string]int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	sec, perr := strconv.ParseInt(ts, 10, 64)
	want, serr := hooks.Sign(rc.secret, id, time.Unix(sec, 0), body)
	var ev struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	_ = json.Unmarshal(body, &ev)
	if err != nil || perr != nil || serr != nil || !hmac.Equal([]byte(want.Signature), []byte(r.Header.Get("webhook-signature"))) ||
		ev.ID != id || ev.Type != store.CheckinDue {
		rc.mu.Lock()
		rc.bad = append(rc.bad, id)
		rc.mu.Unlock()
		w.WriteHeader(400)
		return
	}
	rc.mu.Lock()
	rc.waiting++
	if rc.waiting == rc.hold {
		close(rc.full)
	}
	rc.mu.Unlock()
	select {
	case <-rc.gate:
	case <-r.Context().Done():
		rc.mu.Lock()
		rc.waiting--
		rc.cut++
		rc.mu.Unlock()
		return
	}
	rc.mu.Lock()
	rc.waiting--
	rc.seen[id]++
	rc.mu.Unlock()
	w.WriteHeader(204)
}

func (rc *receiver) counts() (distinct, total, cut int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, n := range rc.seen {
		total += n
	}
	return len(rc.seen), total, rc.cut
}

// The goal across nodes, with real processes: three fiplan binaries on
// one PostgreSQL schema raise the same due check-ins (each stored once)
// and deliver them to one local receiver; one node is killed with
// SIGKILL while each node has deliveries in flight (the receiver holds
// them until all three have eight, each node's senders). Every event
// arrives at least once, none is lost, no id arrives that was not raised,
// and the killed node's claims are delivered by the others once its lease
// (FI_DELIVERY_LEASE, 3 s here) ends.
func TestDeliveryAcrossThreeProcessesOneKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("three processes and 3,000 deliveries: run in full by the README's command")
	}
	if os.Getenv("FI_TEST_POSTGRES") == "" {
		t.Skip("multi-node tests skipped: set FI_TEST_POSTGRES to run them")
	}
	began := time.Now()
	db := pgSchema(t)
	const users, perUser, senders = 30, 100, 8
	rc := &receiver{secret: "whsec_c2VjcmV0LW9mLXRoZS1yZWNlaXZlcg==", hold: 3 * senders, full: make(chan struct{}), gate: make(chan struct{}),
		seen: map[string]int{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	want := seedDue(t, db, srv.URL, rc.secret, users, perUser)
	seeded := time.Since(began)

	// Local mode (no JWT setting) allows the loopback receiver; the nodes
	// share the secret kept in the database.
	env := []string{"FI_DB=" + db, "FI_DELIVERY_LEASE=3s", "FI_RATE_PUBLIC=off"}
	nodes := []*server{spawn(t, env...), spawn(t, env...), spawn(t, env...)}
	for _, n := range nodes {
		n.wait(t)
	}
	select {
	case <-rc.full:
	case <-time.After(45 * time.Second):
		d, _, _ := rc.counts()
		t.Fatalf("the three nodes never had %d deliveries in flight at once (%d delivered)", rc.hold, d)
	}
	if err := nodes[2].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = nodes[2].cmd.Wait()
	killed := time.Now()
	// The receiver sees the killed node's connections close; a request it
	// has not noticed yet is answered to a dead node, which never settles
	// it: sent again after the lease, a duplicate by event id.
	var first time.Time
	for {
		_, _, cut := rc.counts()
		if cut > 0 && first.IsZero() {
			first = time.Now()
		}
		if cut >= senders || (cut > 0 && time.Since(first) > 2*time.Second) {
			break
		}
		if time.Since(killed) > 20*time.Second {
			t.Fatal("no delivery in flight was cut by the kill")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(rc.gate)
	for {
		if d, _, _ := rc.counts(); d >= len(want) {
			break
		}
		if time.Since(killed) > 45*time.Second {
			d, _, _ := rc.counts()
			t.Fatalf("%d of %d events delivered 45 s after the kill", d, len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
	distinct, total, cut := rc.counts()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.bad) > 0 {
		t.Fatalf("%d requests with a bad signature or body: %v", len(rc.bad), rc.bad[:min(5, len(rc.bad))])
	}
	for id := range rc.seen {
		if !want[id] {
			t.Errorf("event %s was delivered but never raised", id)
		}
	}
	for id := range want {
		if rc.seen[id] < 1 {
			t.Errorf("event %s lost", id)
		}
	}
	t.Logf("%d events raised and delivered by three processes (one killed mid-run, %d of its deliveries cut in flight): %d requests, %d duplicates by event id; seeding %v, all %v",
		len(want), cut, total, total-distinct, seeded.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))
}

// seedDue writes, straight into the schema at db, users each with one
// webhook endpoint at url (subscribed to checkin.due, signed with
// secret) and perUser saved plans made two years ago whose check-in date
// was yesterday, each with a watch of this binary's data version (so no
// node computes it again); it returns the ids of the check-ins the nodes
// will raise.
func seedDue(t *testing.T, db, url, secret string, users, perUser int) map[string]bool {
	t.Helper()
	pg, err := postgres.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	now := time.Now().UTC()
	due := now.AddDate(0, 0, -1)
	mmdd, created := due.Format("01-02"), now.AddDate(-2, 0, 0).Truncate(time.Second)
	want := map[string]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, users)
	for u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("node-user-%02d", u)
			if err := pg.CreateHook(store.Hook{ID: "wh_" + strconv.Itoa(u), User: user, URL: url + "/" + user, Events: []string{store.CheckinDue},
				Secret: secret, CreatedAt: created}, hooks.MaxHooks); err != nil {
				errs <- err
				return
			}
			for i := range perUser {
				id := fmt.Sprintf("pln_%02d_%03d", u, i)
				doc, _ := json.Marshal(map[string]any{"id": id, "name": "plan " + id, "createdAt": created, "updatedAt": created,
					"checkinDate": mmdd, "input": map[string]any{"currentAge": 40, "annualIncome": 50000, "annualExpenses": 30000}})
				w := store.PlanWatch{Name: "plan " + id, Data: dataversion.Data()}
				if err := pg.CreatePlan(user, id, doc, perUser, nil, &w); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				want[store.EventID(store.CheckinDue, user, id, strconv.Itoa(due.Year()))] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || len(want) != users*perUser {
		t.Fatalf("seeded %d check-ins for %s", len(want), url)
	}
	return want
}
