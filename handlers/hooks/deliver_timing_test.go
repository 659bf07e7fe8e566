package hooks_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/hooks"
)

// BenchmarkRaiseAndDeliver raises the due check-ins of 10,000 saved plans
// (100 users of 100 plans) on one node with bbolt and delivers them,
// signed, to a webhook receiver on loopback: one op is all of it. Under
// -short (CI's pass that keeps every benchmark from rotting) it is 5 users'
// 100 plans; checkins/op says which.
func BenchmarkRaiseAndDeliver(b *testing.B) {
	users, perUser := 100, 100
	if testing.Short() {
		users, perUser = 5, 20
	}
	b.ReportMetric(float64(users*perUser), "checkins/op")
	now := time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)
	for range b.N {
		b.StopTimer()
		db, err := store.Open(filepath.Join(b.TempDir(), "f.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		rcv := &idCounter{seen: map[string]int{}}
		srv := httptest.NewServer(rcv)
		var wg sync.WaitGroup
		for u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				user := fmt.Sprintf("user%03d", u)
				if err := db.CreateHook(store.Hook{ID: "wh_" + user, User: user, URL: srv.URL, Events: []string{store.CheckinDue},
					Secret: "whsec_c2VjcmV0", CreatedAt: now}, hooks.MaxHooks); err != nil {
					b.Error(err)
				}
				for i := range perUser {
					id := fmt.Sprintf("pln_%026d", i)
					doc := fmt.Sprintf(`{"id":%q,"name":"p","createdAt":"2025-06-10T00:00:00Z","input":{}}`, id)
					if err := db.CreatePlan(user, id, []byte(doc), perUser, nil, nil); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		w := &hooks.Worker{DB: db, Client: hooks.NewClient(true), Now: func() time.Time { return now }, Batch: 200, Senders: 16}
		b.StartTimer()
		n, err := w.RaiseDue(now)
		if err != nil || n != users*perUser {
			b.Fatalf("raised %d: %v", n, err)
		}
		for {
			k, err := w.Deliver(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if k == 0 {
				break
			}
		}
		b.StopTimer()
		if len(rcv.seen) != users*perUser {
			b.Fatalf("delivered %d", len(rcv.seen))
		}
		srv.Close()
		db.Close()
	}
}
