package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
)

// runMails checks the mail queue: a mail queued once under its id, a
// claim that holds until its lease ends and is then claimed again by
// another worker, a settle refused to a lost lease, a failure kept for its
// retry, a mail sent or given up leaving the queue, concurrent claims that
// never share a mail, erasure, what the queue refuses, and the least time
// between two mails of a kind to a user (Every), held against concurrent
// requests.
func runMails(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"MailLeaseSettle", testMailLeaseSettle},
		{"MailGiveUp", testMailGiveUp},
		{"MailClaimConcurrent", testMailClaimConcurrent},
		{"MailErase", testMailErase},
		{"MailRefused", testMailRefused},
		{"MailEvery", testMailEvery},
		{"MailEveryConcurrent", testMailEveryConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func queued(user, id string) store.Mail {
	return store.Mail{ID: id, User: user, Kind: store.MailVerify, To: user + "@example.com", CreatedAt: t0}
}

func testMailLeaseSettle(t *testing.T, s store.Store) {
	if err := s.QueueMail(queued("ann", "mail_1")); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueMail(queued("ann", "mail_1")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a mail queued twice under one id: %v, want ErrConflict", err)
	}
	if ms, err := s.ClaimMails(t0.Add(-time.Second), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("claimed before due: %+v %v", ms, err)
	}
	ms, err := s.ClaimMails(t0, time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].To != "ann@example.com" || ms[0].Kind != store.MailVerify || ms[0].Lease == "" {
		t.Fatalf("claim: %+v %v", ms, err)
	}
	first := ms[0]
	if again, _ := s.ClaimMails(t0.Add(30*time.Second), time.Minute, 10); len(again) != 0 {
		t.Fatalf("claimed again within the lease: %+v", again)
	}
	// The first worker died: after its lease another claims the mail.
	again, err := s.ClaimMails(t0.Add(2*time.Minute), time.Minute, 10)
	if err != nil || len(again) != 1 || again[0].ID != first.ID || again[0].Lease == first.Lease {
		t.Fatalf("after the lease: %+v %v", again, err)
	}
	if err := s.SettleMail(store.Attempt{ID: first.ID, User: "ann", Lease: first.Lease, At: t0, OK: true}); !errors.Is(err, store.ErrStale) {
		t.Fatalf("settle under a lost lease: %v, want ErrStale", err)
	}
	retry := t0.Add(10 * time.Minute)
	if err := s.SettleMail(store.Attempt{ID: first.ID, User: "ann", Lease: again[0].Lease, At: t0, Error: "SMTP down", Retry: retry}); err != nil {
		t.Fatal(err)
	}
	if ms, _ := s.ClaimMails(retry.Add(-time.Second), time.Minute, 10); len(ms) != 0 {
		t.Fatalf("claimed before its retry: %+v", ms)
	}
	ms, err = s.ClaimMails(retry, time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].Attempts != 1 || ms[0].LastError != "SMTP down" {
		t.Fatalf("retry claim: %+v %v", ms, err)
	}
	if err := s.SettleMail(store.Attempt{ID: first.ID, User: "ann", Lease: ms[0].Lease, At: retry, OK: true}); err != nil {
		t.Fatal(err)
	}
	// Sent: gone from the queue, and a settle again finds nothing.
	if ms, err := s.ClaimMails(retry.Add(time.Hour), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("a sent mail claimed: %+v %v", ms, err)
	}
	if err := s.SettleMail(store.Attempt{ID: first.ID, User: "ann", Lease: ms[0].Lease, At: retry, OK: true}); !errors.Is(err, store.ErrStale) {
		t.Fatalf("a sent mail settled again: %v, want ErrStale", err)
	}
	// Mails are not events.
	if evs, total, err := s.Events("ann", 0, 10); err != nil || total != 0 || len(evs) != 0 {
		t.Fatalf("a queued mail listed as an event: %+v %d %v", evs, total, err)
	}
}

func testMailGiveUp(t *testing.T, s store.Store) {
	if err := s.QueueMail(queued("ann", "mail_1")); err != nil {
		t.Fatal(err)
	}
	ms, err := s.ClaimMails(t0, time.Minute, 10)
	if err != nil || len(ms) != 1 {
		t.Fatal(ms, err)
	}
	if err := s.SettleMail(store.Attempt{ID: ms[0].ID, User: "ann", Lease: ms[0].Lease, At: t0, Error: "mailbox unavailable"}); err != nil {
		t.Fatal(err)
	}
	if ms, err := s.ClaimMails(t0.Add(48*time.Hour), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("a mail given up claimed: %+v %v", ms, err)
	}
}

func testMailClaimConcurrent(t *testing.T, s store.Store) {
	const mails = 40
	for i := range mails {
		if err := s.QueueMail(queued(fmt.Sprintf("u%d", i%4), fmt.Sprintf("mail_%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ms, err := s.ClaimMails(t0, time.Hour, 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(ms) == 0 {
					return
				}
				mu.Lock()
				for _, m := range ms {
					seen[m.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != mails {
		t.Fatalf("claimed %d mails, want %d", len(seen), mails)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times within its lease", id, n)
		}
	}
}

func testMailErase(t *testing.T, s store.Store) {
	if err := s.QueueMail(queued("ann", "mail_a")); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueMail(queued("bob", "mail_b")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteUser("ann"); err != nil {
		t.Fatal(err)
	}
	ms, err := s.ClaimMails(t0.Add(time.Hour), time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].User != "bob" {
		t.Fatalf("after erasing ann: %+v %v, want bob's mail alone", ms, err)
	}
}

func testMailRefused(t *testing.T, s store.Store) {
	for _, m := range []store.Mail{
		{ID: "mail_x", User: "", Kind: store.MailVerify, To: "a@example.com", CreatedAt: t0},
		{ID: "", User: "ann", Kind: store.MailVerify, To: "a@example.com", CreatedAt: t0},
		{ID: "mail_\x00", User: "ann", Kind: store.MailVerify, To: "a@example.com", CreatedAt: t0},
		{ID: "mail_x", User: "ann", Kind: "", To: "a@example.com", CreatedAt: t0},
		{ID: "mail_x", User: "ann", Kind: store.MailVerify, To: "", CreatedAt: t0},
	} {
		if err := s.QueueMail(m); err == nil {
			t.Errorf("queued %+v", m)
		}
	}
	if ms, err := s.ClaimMails(t0.Add(time.Hour), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("a refused mail was queued: %+v %v", ms, err)
	}
	if err := s.SettleMail(store.Attempt{ID: "mail_none", User: "ann", Lease: "x", At: t0, OK: true}); !errors.Is(err, store.ErrStale) {
		t.Fatalf("settle of no mail: %v, want ErrStale", err)
	}
}

// every is ann's mail id queued at t0+at, at most one a minute.
func every(id string, at time.Duration) store.Mail {
	m := queued("ann", id)
	m.CreatedAt, m.Every = t0.Add(at), time.Minute
	return m
}

// wait is the wait a *store.TooSoonError says, or -1 for another error.
func wait(err error) time.Duration {
	var soon *store.TooSoonError
	if !errors.As(err, &soon) {
		return -1
	}
	return soon.Wait
}

func testMailEvery(t *testing.T, s store.Store) {
	if err := s.QueueMail(every("mail_1", 0)); err != nil {
		t.Fatal(err)
	}
	if w := wait(s.QueueMail(every("mail_2", 20*time.Second))); w != 40*time.Second {
		t.Fatalf("a second mail 20s later: wait %v, want 40s", w)
	}
	// Sent at once, the first mail still holds the second back.
	ms, err := s.ClaimMails(t0.Add(time.Hour), time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].ID != "mail_1" {
		t.Fatalf("queued: %+v %v, want mail_1 alone", ms, err)
	}
	if err := s.SettleMail(store.Attempt{ID: "mail_1", User: "ann", Lease: ms[0].Lease, At: t0, OK: true}); err != nil {
		t.Fatal(err)
	}
	if w := wait(s.QueueMail(every("mail_2", 59*time.Second))); w != time.Second {
		t.Fatalf("59s later, the first mail sent: wait %v, want 1s", w)
	}
	// Another user, another kind, and a mail without Every are not held
	// back by ann's.
	bob := queued("bob", "mail_b")
	bob.CreatedAt, bob.Every = t0.Add(time.Second), time.Minute
	other := every("mail_o", time.Second)
	other.Kind = "other"
	plain := queued("ann", "mail_p")
	plain.CreatedAt = t0.Add(2 * time.Second)
	for _, m := range []store.Mail{bob, other, plain} {
		if err := s.QueueMail(m); err != nil {
			t.Fatalf("%s: %v", m.ID, err)
		}
	}
	// The plain mail counts: the next with Every waits a minute from it.
	if w := wait(s.QueueMail(every("mail_2", time.Minute))); w != 2*time.Second {
		t.Fatalf("a minute after the first, 58s after the plain mail: wait %v, want 2s", w)
	}
	if err := s.QueueMail(every("mail_2", time.Minute+2*time.Second)); err != nil {
		t.Fatalf("a minute after the last: %v", err)
	}
	// A mail refused (its id queued) leaves the last time as it was.
	if err := s.QueueMail(every("mail_2", 3*time.Minute)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a queued id again: %v, want ErrConflict", err)
	}
	if err := s.QueueMail(every("mail_3", 3*time.Minute+time.Second)); err != nil {
		t.Fatalf("a second after a refused mail: %v, want queued", err)
	}
	// Erasure forgets the last time with the user.
	if err := s.DeleteUser("ann"); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueMail(every("mail_4", 3*time.Minute+2*time.Second)); err != nil {
		t.Fatalf("after erasure: %v, want queued", err)
	}
}

func testMailEveryConcurrent(t *testing.T, s store.Store) {
	const tries = 8
	errs := make(chan error, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.QueueMail(every(fmt.Sprintf("mail_%d", i), time.Duration(i)*time.Second))
		}()
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		switch {
		case err == nil:
			ok++
		case wait(err) <= 0:
			t.Errorf("refused with %v, want a *TooSoonError", err)
		}
	}
	ms, err := s.ClaimMails(t0.Add(time.Hour), time.Minute, 2*tries)
	if ok != 1 || err != nil || len(ms) != 1 {
		t.Fatalf("%d queued at once, %d in the queue (%v), want 1", ok, len(ms), err)
	}
}
