package hooks_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/hooks"
)

// flakyMailer fails every mail of the queue; event mails are not sent
// here.
type flakyMailer struct{ calls atomic.Int64 }

func (m *flakyMailer) SendEvent(context.Context, *store.Job) error {
	return errors.New("not in this test")
}
func (m *flakyMailer) SendMail(context.Context, *store.Mail) error {
	m.calls.Add(1)
	return errors.New("451 try again later")
}

// A mail that keeps failing is tried on the webhooks' backoff and given
// up after the last, leaving the queue; a worker without a mailer leaves
// the queue to the nodes that have one.
func TestMailQueueBackoffAndGiveUp(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "fiplan.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	if err := db.QueueMail(store.Mail{ID: "mail_1", User: "ann", Kind: store.MailVerify, To: "ann@example.com", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	off := &hooks.Worker{DB: db, Now: clock}
	if n, err := off.DeliverMails(context.Background()); err != nil || n != 0 {
		t.Fatalf("a worker with email off claimed %d mails: %v", n, err)
	}
	m := &flakyMailer{}
	w := &hooks.Worker{DB: db, Now: clock, Mail: m}
	for i := range len(hooks.Backoff) + 1 {
		if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
			t.Fatalf("attempt %d: claimed %d: %v", i+1, n, err)
		}
		if i < len(hooks.Backoff) {
			if n, _ := w.DeliverMails(context.Background()); n != 0 {
				t.Fatalf("attempt %d: tried again before its backoff", i+1)
			}
			now = now.Add(hooks.Backoff[i])
		}
	}
	if got := m.calls.Load(); got != int64(len(hooks.Backoff)+1) {
		t.Fatalf("%d attempts, want %d", got, len(hooks.Backoff)+1)
	}
	if ms, err := db.ClaimMails(now.Add(48*time.Hour), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("a mail given up is still queued: %+v %v", ms, err)
	}
	// A store that fails: the error is the caller's, for the log.
	db.Close()
	if _, err := w.DeliverMails(context.Background()); err == nil {
		t.Fatal("a closed store claimed without an error")
	}
}
