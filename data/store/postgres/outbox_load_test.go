package postgres

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"fiplan/data/store"
)

// TestLoadMovesOutbox: a bbolt file's webhooks (secrets included, so that
// they still sign), events, deliveries and queued mails move with `fiplan
// migrate -from`, and a pending delivery and the mail are claimed on the
// new store.
func TestLoadMovesOutbox(t *testing.T) {
	u := freshSchema(t)
	src, err := store.Open(filepath.Join(t.TempDir(), "fiplan.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := src.CreateHook(store.Hook{ID: "wh_a", User: "mia", URL: "https://example.com/h", Events: []string{store.CheckinDue},
		Secret: "whsec_c2VjcmV0", CreatedAt: at}, 10); err != nil {
		t.Fatal(err)
	}
	evs := []store.Event{
		{ID: "evt_1", User: "mia", Type: store.CheckinDue, CreatedAt: at, PlanID: "pln_a", Data: []byte(`{"a":1}`)},
		{ID: "evt_2", User: "mia", Type: store.CheckinDue, CreatedAt: at, Data: []byte(`{"a":2}`)},
	}
	if _, err := src.Emit(evs, at); err != nil {
		t.Fatal(err)
	}
	if err := src.QueueMail(store.Mail{ID: "mail_1", User: "mia", Kind: store.MailVerify, To: "mia@example.com", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	// Moved with the time it was queued: the next within its minute is
	// still held back on the new store.
	next := store.Mail{ID: "mail_2", User: "mia", Kind: store.MailVerify, To: "mia@example.com", CreatedAt: at.Add(10 * time.Second), Every: time.Minute}
	e, err := src.Everything()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Load(context.Background(), u, e)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if n.Webhooks != 1 || n.Events != 2 || n.Deliveries != 2 || n.Mails != 1 {
		t.Fatalf("Load copied %v", n)
	}
	d := openT(t, u)
	var soon *store.TooSoonError
	if err := d.QueueMail(next); !errors.As(err, &soon) || soon.Wait != 50*time.Second {
		t.Fatalf("a mail 10s after the moved one: %v, want a wait of 50s", err)
	}
	got, total, err := d.Events("mia", 0, 10)
	if err != nil || total != 2 || got[0].ID != "evt_2" || got[1].PlanID != "pln_a" || string(got[1].Data) != `{"a":1}` {
		t.Fatalf("events after the move: %+v %d %v", got, total, err)
	}
	jobs, err := d.Claim(at, time.Minute, 10)
	if err != nil || len(jobs) != 2 || jobs[0].Secret != "whsec_c2VjcmV0" || jobs[0].URL != "https://example.com/h" {
		t.Fatalf("claim after the move: %+v %v", jobs, err)
	}
	ms, err := d.ClaimMails(at, time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].ID != "mail_1" || ms[0].To != "mia@example.com" || ms[0].User != "mia" {
		t.Fatalf("the queued mail after the move: %+v %v", ms, err)
	}
}
