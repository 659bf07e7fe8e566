package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
)

// runOutbox checks the webhook endpoints, the events' outbox and the
// delivery leases: the cap, the secret's rotation, an event stored once
// under its id with one delivery per subscribed endpoint, a claim that
// holds until its lease ends and is then claimed again, a settle refused
// to a lost lease, concurrent claims that never share a delivery, and
// export without secrets and erasure.
func runOutbox(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"HookCapAndRotate", testHookCapAndRotate},
		{"EmitOnceWithDeliveries", testEmitOnce},
		{"ClaimLeaseSettle", testClaimLeaseSettle},
		{"ClaimConcurrent", testClaimConcurrent},
		{"SettlePostponed", testSettlePostponed},
		{"OutboxExportAndErase", testOutboxExportAndErase},
		{"MailHook", testMailHook},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func hook(user, id string, events ...string) store.Hook {
	return store.Hook{ID: id, User: user, URL: "https://example.com/" + id, Events: events, Secret: "whsec_" + id, CreatedAt: t0}
}

func event(user, id, typ string) store.Event {
	return store.Event{ID: id, User: user, Type: typ, CreatedAt: t0, Data: []byte(`{"n":1}`)}
}

func testHookCapAndRotate(t *testing.T, s store.Store) {
	for i := range 3 {
		if err := s.CreateHook(hook("ann", fmt.Sprintf("wh_%d", i), "checkin.due"), 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateHook(hook("ann", "wh_9", "checkin.due"), 3); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("a fourth endpoint under a cap of 3: %v, want ErrLimit", err)
	}
	h, err := s.RotateHook("ann", "wh_1", "whsec_new")
	if err != nil || h.Secret != "whsec_new" || h.URL != "https://example.com/wh_1" {
		t.Fatalf("rotate: %+v %v", h, err)
	}
	if _, err := s.RotateHook("bob", "wh_1", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another user's endpoint rotated: %v", err)
	}
	if err := s.DeleteHook("bob", "wh_1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another user's endpoint deleted: %v", err)
	}
	if err := s.DeleteHook("ann", "wh_0"); err != nil {
		t.Fatal(err)
	}
	hs, err := s.Hooks("ann")
	if err != nil || len(hs) != 2 || hs[0].ID != "wh_1" || hs[0].Secret != "whsec_new" {
		t.Fatalf("hooks: %+v %v", hs, err)
	}
}

func testEmitOnce(t *testing.T, s store.Store) {
	if err := s.CreateHook(hook("ann", "wh_a", "checkin.due"), 10); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateHook(hook("ann", "wh_b", "fi.reached"), 10); err != nil {
		t.Fatal(err)
	}
	evs := []store.Event{event("ann", "evt_1", "checkin.due"), event("ghost", "evt_2", "checkin.due")}
	n, err := s.Emit(evs, t0)
	if err != nil || n != 1 {
		t.Fatalf("emit: %d %v, want 1 (the user without an account skipped)", n, err)
	}
	if n, err := s.Emit(evs, t0); err != nil || n != 0 {
		t.Fatalf("emit again: %d %v, want 0", n, err)
	}
	got, total, err := s.Events("ann", 0, 10)
	if err != nil || total != 1 || got[0].ID != "evt_1" || string(got[0].Data) != `{"n":1}` {
		t.Fatalf("events: %+v %d %v", got, total, err)
	}
	dls, total, err := s.Deliveries("ann", 0, 10)
	if err != nil || total != 1 || dls[0].HookID != "wh_a" || dls[0].Status != store.Pending || dls[0].ID != store.DeliveryID("evt_1", "wh_a") {
		t.Fatalf("deliveries: %+v %d %v", dls, total, err)
	}
	test := event("ann", "evt_t", "test")
	test.Hook = "wh_b"
	if n, err := s.Emit([]store.Event{test}, t0); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	if dls, _, _ := s.Deliveries("ann", 0, 1); len(dls) != 1 || dls[0].HookID != "wh_b" {
		t.Errorf("a test event goes to its endpoint alone, newest first: %+v", dls)
	}
}

func testClaimLeaseSettle(t *testing.T, s store.Store) {
	if err := s.CreateHook(hook("ann", "wh_a", "checkin.due"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Emit([]store.Event{event("ann", "evt_1", "checkin.due")}, t0); err != nil {
		t.Fatal(err)
	}
	if jobs, err := s.Claim(t0.Add(-time.Second), time.Minute, 10); err != nil || len(jobs) != 0 {
		t.Fatalf("claimed before due: %+v %v", jobs, err)
	}
	jobs, err := s.Claim(t0, time.Minute, 10)
	if err != nil || len(jobs) != 1 || jobs[0].URL != "https://example.com/wh_a" || jobs[0].Secret != "whsec_wh_a" || len(jobs[0].Body) == 0 {
		t.Fatalf("claim: %+v %v", jobs, err)
	}
	first := jobs[0]
	if again, _ := s.Claim(t0.Add(30*time.Second), time.Minute, 10); len(again) != 0 {
		t.Fatalf("claimed again within the lease: %+v", again)
	}
	// The first worker died: after its lease another claims the delivery.
	again, err := s.Claim(t0.Add(2*time.Minute), time.Minute, 10)
	if err != nil || len(again) != 1 || again[0].ID != first.ID || again[0].Lease == first.Lease {
		t.Fatalf("after the lease: %+v %v", again, err)
	}
	stale := store.Attempt{ID: first.ID, User: "ann", Lease: first.Lease, At: t0, OK: true}
	if err := s.Settle(stale); !errors.Is(err, store.ErrStale) {
		t.Fatalf("settle under a lost lease: %v, want ErrStale", err)
	}
	retry := t0.Add(10 * time.Minute)
	a := store.Attempt{ID: first.ID, User: "ann", Lease: again[0].Lease, At: t0.Add(2 * time.Minute), Status: 500, Error: "HTTP 500", Retry: retry}
	if err := s.Settle(a); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.Claim(retry.Add(-time.Second), time.Minute, 10); len(j) != 0 {
		t.Fatalf("claimed before its retry: %+v", j)
	}
	j, err := s.Claim(retry, time.Minute, 10)
	if err != nil || len(j) != 1 || j[0].Attempts != 1 {
		t.Fatalf("retry claim: %+v %v", j, err)
	}
	if err := s.Settle(store.Attempt{ID: first.ID, User: "ann", Lease: j[0].Lease, At: retry, OK: true, Status: 204}); err != nil {
		t.Fatal(err)
	}
	dls, _, _ := s.Deliveries("ann", 0, 10)
	if len(dls) != 1 || dls[0].Status != store.Delivered || dls[0].Attempts != 2 || dls[0].LastStatus != 204 {
		t.Fatalf("delivered: %+v", dls)
	}
	if j, _ := s.Claim(retry.Add(time.Hour), time.Minute, 10); len(j) != 0 {
		t.Fatalf("a delivered delivery claimed: %+v", j)
	}
	// Removing the endpoint fails what is pending for it.
	if _, err := s.Emit([]store.Event{event("ann", "evt_2", "checkin.due")}, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteHook("ann", "wh_a"); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.Claim(retry.Add(time.Hour), time.Minute, 10); len(j) != 0 {
		t.Fatalf("a removed endpoint's delivery claimed: %+v", j)
	}
	if dls, _, _ := s.Deliveries("ann", 0, 1); dls[0].Status != store.Failed {
		t.Errorf("a removed endpoint's delivery: %+v, want failed", dls[0])
	}
}

func testClaimConcurrent(t *testing.T, s store.Store) {
	if err := s.CreateHook(hook("ann", "wh_a", "checkin.due"), 10); err != nil {
		t.Fatal(err)
	}
	const events = 60
	var evs []store.Event
	for i := range events {
		evs = append(evs, event("ann", fmt.Sprintf("evt_%03d", i), "checkin.due"))
	}
	if _, err := s.Emit(evs, t0); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				jobs, err := s.Claim(t0, time.Hour, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(jobs) == 0 {
					return
				}
				mu.Lock()
				for _, j := range jobs {
					seen[j.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != events {
		t.Fatalf("claimed %d deliveries, want %d", len(seen), events)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times within its lease", id, n)
		}
	}
}

func testOutboxExportAndErase(t *testing.T, s store.Store) {
	if err := s.CreateHook(hook("ann", "wh_a", "checkin.due"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Emit([]store.Event{event("ann", "evt_1", "checkin.due")}, t0); err != nil {
		t.Fatal(err)
	}
	e, err := s.Export("ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Hooks) != 1 || e.Hooks[0].Secret != "" || e.Hooks[0].URL == "" || len(e.Events) != 1 || len(e.Deliveries) != 1 {
		t.Fatalf("export: hooks %+v events %+v deliveries %+v", e.Hooks, e.Events, e.Deliveries)
	}
	if err := s.DeleteUser("ann"); err != nil {
		t.Fatal(err)
	}
	hs, _ := s.Hooks("ann")
	evs, n, _ := s.Events("ann", 0, 10)
	dls, m, _ := s.Deliveries("ann", 0, 10)
	if len(hs)+len(evs)+len(dls)+n+m != 0 {
		t.Fatalf("after erasure: %+v %+v %+v", hs, evs, dls)
	}
	if j, err := s.Claim(t0.Add(time.Hour), time.Minute, 10); err != nil || len(j) != 0 {
		t.Fatalf("an erased user's delivery claimed: %+v %v", j, err)
	}
}

func testSettlePostponed(t *testing.T, s store.Store) {
	if err := s.CreateHook(hook("ann", "wh_a", "checkin.due"), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Emit([]store.Event{event("ann", "evt_1", "checkin.due")}, t0); err != nil {
		t.Fatal(err)
	}
	jobs, err := s.Claim(t0, time.Minute, 10)
	if err != nil || len(jobs) != 1 {
		t.Fatal(jobs, err)
	}
	later := t0.Add(30 * time.Second)
	if err := s.Settle(store.Attempt{ID: jobs[0].ID, User: "ann", Lease: jobs[0].Lease, At: t0, Retry: later, Postponed: true}); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.Claim(later.Add(-time.Second), time.Minute, 10); len(j) != 0 {
		t.Fatalf("claimed before its postponed time: %+v", j)
	}
	j, err := s.Claim(later, time.Minute, 10)
	if err != nil || len(j) != 1 || j[0].Attempts != 0 {
		t.Fatalf("after the postponement: %+v %v, want one claim with no attempt counted", j, err)
	}
}

// testMailHook checks the email channel: outside the cap, replaced in
// place, and given deliveries of the types it names as any endpoint is.
func testMailHook(t *testing.T, s store.Store) {
	mh := store.Hook{ID: store.MailHook, User: "ann", URL: "mailto:ann@example.com", Events: []string{"fi.reached", "checkin.due"}, CreatedAt: t0}
	if err := s.SetMailHook(mh); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := s.CreateHook(hook("ann", fmt.Sprintf("wh_%d", i), "checkin.due"), 2); err != nil {
			t.Fatalf("the email channel counted toward the cap: %v", err)
		}
	}
	if err := s.CreateHook(hook("ann", "wh_9", "checkin.due"), 2); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("a third endpoint under a cap of 2: %v, want ErrLimit", err)
	}
	mh.Events = []string{"checkin.due"}
	if err := s.SetMailHook(mh); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMailHook(store.Hook{ID: "wh_x", User: "ann", URL: "mailto:x@example.com"}); err == nil {
		t.Fatal("SetMailHook stored a hook of another id")
	}
	hs, err := s.Hooks("ann")
	if err != nil || len(hs) != 3 {
		t.Fatalf("hooks: %+v %v", hs, err)
	}
	n := 0
	for _, h := range hs {
		if h.ID == store.MailHook {
			n++
			if h.URL != "mailto:ann@example.com" || len(h.Events) != 1 || h.Events[0] != "checkin.due" {
				t.Fatalf("email channel after replace: %+v", h)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d email channels", n)
	}
	if _, err := s.Emit([]store.Event{event("ann", "evt_mail1", "fi.reached"), event("ann", "evt_mail2", "checkin.due")}, t0); err != nil {
		t.Fatal(err)
	}
	dls, _, err := s.Deliveries("ann", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	mail := 0
	for _, d := range dls {
		if d.HookID == store.MailHook {
			mail++
			if d.EventType != "checkin.due" {
				t.Errorf("an unsubscribed type was mailed: %+v", d)
			}
		}
	}
	if mail != 1 {
		t.Fatalf("%d email deliveries, want 1: %+v", mail, dls)
	}
}
