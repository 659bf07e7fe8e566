package hooks_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers/hooks"
)

// idCounter is a webhook receiver that counts the deliveries of each
// event id.
type idCounter struct {
	mu   sync.Mutex
	seen map[string]int
}

func (c *idCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.seen[r.Header.Get("webhook-id")]++
	c.mu.Unlock()
	w.WriteHeader(204)
}

// Three nodes share one PostgreSQL database; one claims a batch and dies
// before sending it (as kill -9 would leave it). The two others deliver
// every other event once, and each of the dead node's once its lease has
// ended: every event arrives, none is lost, and a repeat could only carry
// an id already delivered.
func TestThreeNodesOneKilled(t *testing.T) {
	url := pgtest.Schema(t, "fiplan_hooks_")
	var nodes [3]*postgres.DB
	for i := range nodes {
		db, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = db
		defer db.Close()
	}
	rcv := &idCounter{seen: map[string]int{}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	start := time.Now().UTC().Truncate(time.Second)
	var clock atomic.Int64
	clock.Store(start.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).UTC() }
	const users, perUser = 10, 100
	want := map[string]bool{}
	for u := range users {
		user := fmt.Sprintf("user%02d", u)
		if err := nodes[0].CreateHook(store.Hook{ID: "wh_" + user, User: user, URL: srv.URL, Events: []string{store.CheckinDue},
			Secret: "whsec_c2VjcmV0", CreatedAt: start}, hooks.MaxHooks); err != nil {
			t.Fatal(err)
		}
		var evs []store.Event
		for i := range perUser {
			id := store.EventID(store.CheckinDue, user, fmt.Sprint(i))
			want[id] = true
			evs = append(evs, store.Event{ID: id, User: user, Type: store.CheckinDue, CreatedAt: start, Data: []byte(`{}`)})
		}
		if _, err := nodes[u%3].Emit(evs, start); err != nil {
			t.Fatal(err)
		}
	}
	lease := 2 * time.Minute
	orphans, err := nodes[2].Claim(now(), lease, 50)
	if err != nil || len(orphans) != 50 {
		t.Fatalf("the doomed node's claim: %d %v", len(orphans), err)
	}
	nodes[2].Close() // killed: its claims are never settled
	drain := func() {
		var wg sync.WaitGroup
		for _, db := range nodes[:2] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := &hooks.Worker{DB: db, Client: hooks.NewClient(true), Now: now, Lease: lease, Batch: 20}
				for {
					n, err := w.Deliver(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					if n == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	drain()
	rcv.mu.Lock()
	if len(rcv.seen) != len(want)-len(orphans) {
		t.Fatalf("before the lease ends: %d events delivered, want %d", len(rcv.seen), len(want)-len(orphans))
	}
	rcv.mu.Unlock()
	clock.Add(int64(lease + time.Second))
	drain()
	for id := range want {
		if rcv.seen[id] != 1 {
			t.Errorf("event %s delivered %d times", id, rcv.seen[id])
		}
	}
	if len(rcv.seen) != len(want) {
		t.Errorf("%d ids received, %d raised", len(rcv.seen), len(want))
	}
}
