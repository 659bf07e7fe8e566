package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/hooks"
	"fiplan/handlers/mail"
)

// smtpServer starts Debian's aiosmtpd on a free loopback port, delivering
// into a maildir, and returns its address and the maildir. CI installs
// it; outside CI a machine without it skips the test.
func smtpServer(t *testing.T) (addr, maildir string) {
	t.Helper()
	bin, err := exec.LookPath("aiosmtpd")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("aiosmtpd is not installed: .ci/run installs Debian's python3-aiosmtpd")
		}
		t.Skip("aiosmtpd is not installed (apt-get install python3-aiosmtpd)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	maildir = filepath.Join(t.TempDir(), "Maildir")
	cmd := exec.Command(bin, "-n", "-l", addr, "-c", "aiosmtpd.handlers.Mailbox", maildir)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr, maildir
		}
		if i == 300 {
			t.Fatalf("aiosmtpd does not listen on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mails reads the maildir's messages, waiting until it holds want.
func mails(t *testing.T, dir string, want int) []*netmail.Message {
	t.Helper()
	for i := 0; ; i++ {
		files, _ := filepath.Glob(filepath.Join(dir, "new", "*"))
		if len(files) >= want || i == 250 {
			slices.Sort(files)
			var out []*netmail.Message
			for _, f := range files {
				fh, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				m, err := netmail.ReadMessage(fh)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, m)
				t.Cleanup(func() { fh.Close() })
			}
			if len(out) != want {
				t.Fatalf("the maildir holds %d mails, want %d", len(out), want)
			}
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// find is the one mail whose subject contains sub (a maildir's order is
// not the order of arrival).
func find(t *testing.T, ms []*netmail.Message, sub string) *netmail.Message {
	t.Helper()
	var out *netmail.Message
	for _, m := range ms {
		if strings.Contains(m.Header.Get("Subject"), sub) {
			if out != nil {
				t.Fatalf("two mails with %q in the subject", sub)
			}
			out = m
		}
	}
	if out == nil {
		t.Fatalf("no mail with %q in the subject", sub)
	}
	return out
}

func body(t *testing.T, m *netmail.Message) string {
	t.Helper()
	var r io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var tokenRe = regexp.MustCompile(`token=([A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)`)

func TestEmailChannel(t *testing.T) {
	addr, maildir := smtpServer(t)
	var h *harness
	var mailer *mail.Mailer
	h = newHarness(t, func(c *Config) {
		m, err := mail.New(mail.Config{URL: "smtp://" + addr, From: "fiplan@fiplan.test", PublicURL: "https://fiplan.test", Secret: testSecret,
			Now: func() time.Time { return h.Clock() }})
		if err != nil {
			t.Fatal(err)
		}
		mailer = m
		c.Mail = Mail{Mailer: m, Secret: testSecret}
	})
	auth := bearer(h.Token("ann", "free", ""))
	w := &hooks.Worker{DB: h.DB, Now: h.Clock, Mail: mailer}
	emit := func(typ, key string) {
		t.Helper()
		ev := store.Event{ID: store.EventID(typ, "ann", key), User: "ann", Type: typ, CreatedAt: h.Clock(), Data: []byte(`{"total":1000000}`)}
		if _, err := h.DB.Emit([]store.Event{ev}, h.Clock()); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Deliver(context.Background()); err != nil {
			t.Fatal(err)
		}
	}

	// No address yet: asking for the verification mail is refused.
	expectError(t, h.Do("POST", "/api/v1/user/email/verify", "", auth...), 400, errcode.Validation)
	if r := h.Do("PATCH", "/api/v1/user/profile", `{"email":"ann@example.com"}`, auth...); r.Status != 200 {
		t.Fatalf("profile: %d %s", r.Status, r.Raw)
	}

	// An unverified address gets no event mail: there is no delivery to it.
	emit(store.FIReached, "before")
	if dls, total, err := h.DB.Deliveries("ann", 0, 10); err != nil || total != 0 {
		t.Fatalf("deliveries before verification: %v %d %v", dls, total, err)
	}

	if r := h.Do("POST", "/api/v1/user/email/verify", "", auth...); r.Status != 202 {
		t.Fatalf("verify request: %d %s", r.Status, r.Raw)
	}
	// One a minute: an address typed into someone's profile is not flooded.
	expectError(t, h.Do("POST", "/api/v1/user/email/verify", "", auth...), 429, errcode.RateLimited)
	// The request queued the mail; the worker sends it.
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
		t.Fatalf("the worker sent %d queued mails: %v, want 1", n, err)
	}
	got := mails(t, maildir, 1)
	if to := got[0].Header.Get("To"); !strings.Contains(to, "ann@example.com") {
		t.Fatalf("verification mail to %q", to)
	}
	text := body(t, got[0])
	if !strings.Contains(text, "https://fiplan.test/api/v1/user/email/verify?token=") {
		t.Fatalf("no verification link in %q", text)
	}
	verifyTok := tokenRe.FindStringSubmatch(text)[1]

	// Bad tokens: none, garbage, a changed signature, the wrong purpose.
	expectError(t, h.Do("GET", "/api/v1/user/email/verify", ""), 400, errcode.Validation)
	expectError(t, h.Do("GET", "/api/v1/user/email/verify?token=abc.def", ""), 400, errcode.Validation)
	forged := verifyTok[:len(verifyTok)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(verifyTok, "AA")]
	expectError(t, h.Do("GET", "/api/v1/user/email/verify?token="+forged, ""), 400, errcode.Validation)
	expectError(t, h.Do("POST", "/api/v1/unsubscribe?token="+verifyTok, ""), 400, errcode.Validation)

	r := h.Do("GET", "/api/v1/user/email/verify?token="+verifyTok, "")
	if r.Status != 200 || r.Data()["email"] != "ann@example.com" {
		t.Fatalf("verify: %d %s", r.Status, r.Raw)
	}
	// The channel is not a webhook endpoint.
	if r := h.Do("GET", "/api/v1/user/webhooks", "", auth...); r.Status != 200 || len(r.Body["data"].([]any)) != 0 {
		t.Fatalf("webhooks list shows the email channel: %s", r.Raw)
	}

	// An event mail carries RFC 8058's headers.
	emit(store.FIReached, "after")
	got = mails(t, maildir, 2)
	ev := find(t, got, "FI number")
	list, post := ev.Header.Get("List-Unsubscribe"), ev.Header.Get("List-Unsubscribe-Post")
	if !strings.HasPrefix(list, "<https://fiplan.test/api/v1/unsubscribe?token=") || !strings.HasSuffix(list, ">") {
		t.Fatalf("List-Unsubscribe: %q", list)
	}
	if post != "List-Unsubscribe=One-Click" {
		t.Fatalf("List-Unsubscribe-Post: %q", post)
	}
	if dls, _, err := h.DB.Deliveries("ann", 0, 10); err != nil || len(dls) != 1 || dls[0].Status != store.Delivered || dls[0].HookID != store.MailHook {
		t.Fatalf("email delivery: %+v %v", dls, err)
	}
	unsub := strings.TrimPrefix(strings.TrimSuffix(list, ">"), "<https://fiplan.test")

	// A GET shows a confirm page and changes nothing.
	res := h.Send("GET", unsub, "")
	status, ct, page := res.Status, res.ContentType(), string(res.Raw)
	if status != 200 || !strings.HasPrefix(ct, "text/html") || !strings.Contains(page, `method="post"`) {
		t.Fatalf("confirm page: %d %s %s", status, ct, page)
	}
	if hs, _ := h.DB.Hooks("ann"); len(hs) != 1 || !hs[0].Wants(store.FIReached) {
		t.Fatalf("a GET unsubscribed: %+v", hs)
	}
	// The one-click POST, without sign-in, as a mail client sends it.
	res = h.Send("POST", unsub, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded")
	if res.Status != 200 {
		t.Fatalf("unsubscribe: %d %s", res.Status, res.Raw)
	}
	hs, err := h.DB.Hooks("ann")
	if err != nil || len(hs) != 1 || hs[0].Wants(store.FIReached) || !hs[0].Wants(store.CheckinDue) {
		t.Fatalf("after unsubscribe: %+v %v", hs, err)
	}
	emit(store.FIReached, "unsubscribed")
	emit(store.CheckinDue, "still")
	got = mails(t, maildir, 3)
	find(t, got, "check-in")
	find(t, got, "FI number") // still one: none after the unsubscribe

	// The unsubscribe switched the preference off, where the user sees it;
	// saving other preferences keeps it off.
	r = h.Do("GET", "/api/v1/user/notifications", "", auth...)
	if m := r.Data()["milestones"].(map[string]any); r.Status != 200 || m["email"] != false || m["push"] != true {
		t.Fatalf("preferences after the unsubscribe: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"checkins":{"email":true}}`, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	if hs, err := h.DB.Hooks("ann"); err != nil || len(hs) != 1 || hs[0].Wants(store.FIReached) || !hs[0].Wants(store.CheckinDue) {
		t.Fatalf("preferences saved again undid the unsubscribe: %+v %v", hs, err)
	}
	// Turning it on again chooses the type again.
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"milestones":{"email":true}}`, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	if hs, err := h.DB.Hooks("ann"); err != nil || len(hs) != 1 || !hs[0].Wants(store.FIReached) {
		t.Fatalf("milestones on again: %+v %v", hs, err)
	}
	// Every switch off chooses no type; a new address drops the channel
	// until it is verified.
	off := `{"milestones":{"email":false},"checkins":{"email":false},"guardrails":{"email":false},"offTrack":{"email":false},"dataUpdates":{"email":false}}`
	if r := h.Do("PATCH", "/api/v1/user/notifications", off, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	if hs, err := h.DB.Hooks("ann"); err != nil || len(hs) != 1 || len(hs[0].Events) != 0 {
		t.Fatalf("after email preferences off: %+v %v", hs, err)
	}
	if r := h.Do("PATCH", "/api/v1/user/profile", `{"email":"ann@elsewhere.example"}`, auth...); r.Status != 200 {
		t.Fatalf("profile: %d %s", r.Status, r.Raw)
	}
	if hs, err := h.DB.Hooks("ann"); err != nil || len(hs) != 0 {
		t.Fatalf("a changed address kept the channel: %+v %v", hs, err)
	}
	// The old link names the old address: not found.
	expectError(t, h.Do("GET", "/api/v1/user/email/verify?token="+verifyTok, ""), 404, errcode.NotFound)

	// A verification link expires after a day.
	h.Advance(mail.VerifyTTL + time.Minute)
	r = h.Do("GET", "/api/v1/user/email/verify?token="+verifyTok, "")
	expectError(t, r, 400, errcode.Validation)
	if !strings.Contains(string(r.Raw), "expired") {
		t.Fatalf("expired token: %s", r.Raw)
	}
}

// With no SMTP server, the request for a verification mail is 503 and
// the email channel's deliveries fail without touching webhooks.
func TestEmailOff(t *testing.T) {
	h := newHarness(t)
	auth := bearer(h.Token("bob", "free", ""))
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"bob@example.com"}`, auth...)
	expectError(t, h.Do("POST", "/api/v1/user/email/verify", "", auth...), 503, errcode.Unavailable)
	if err := h.DB.SetMailHook(store.Hook{ID: store.MailHook, User: "bob", URL: "mailto:bob@example.com", Events: []string{store.FIReached}, CreatedAt: h.Clock()}); err != nil {
		t.Fatal(err)
	}
	ev := store.Event{ID: store.EventID("off"), User: "bob", Type: store.FIReached, CreatedAt: h.Clock(), Data: []byte(`{}`)}
	if _, err := h.DB.Emit([]store.Event{ev}, h.Clock()); err != nil {
		t.Fatal(err)
	}
	w := &hooks.Worker{DB: h.DB, Now: h.Clock}
	if _, err := w.Deliver(context.Background()); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	dls, _, err := h.DB.Deliveries("bob", 0, 10)
	if err != nil || len(dls) != 1 || dls[0].Status != store.Pending || !strings.Contains(dls[0].LastError, "email is off") {
		t.Fatalf("deliveries: %+v %v", dls, err)
	}
}

// mailHarness is a server whose mailer sends through the SMTP server at
// addr, with a worker of the same clock and store; wrap, when set,
// stands between the server and its store.
func mailHarness(t *testing.T, addr string, wrap func(store.Store) store.Store) (*harness, *hooks.Worker) {
	t.Helper()
	var h *harness
	var mailer *mail.Mailer
	h = newHarness(t, func(c *Config) {
		m, err := mail.New(mail.Config{URL: "smtp://" + addr, From: "fiplan@fiplan.test", PublicURL: "https://fiplan.test", Secret: testSecret,
			Now: func() time.Time { return h.Clock() }})
		if err != nil {
			t.Fatal(err)
		}
		mailer = m
		c.Mail = Mail{Mailer: m, Secret: testSecret}
		if wrap != nil {
			c.DB = wrap(c.DB)
		}
	})
	return h, &hooks.Worker{DB: h.DB, Now: h.Clock, Mail: mailer, Lease: time.Minute}
}

// The verification mail is queued by the request and sent by a worker: a
// node that claimed it and died leaves it to be sent by another once its
// lease ends, once, and it is no event.
func TestVerifyMailSurvivesACrash(t *testing.T) {
	addr, maildir := smtpServer(t)
	h, w := mailHarness(t, addr, nil)
	auth := bearer(h.Token("cid", "free", ""))
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"cid@example.com"}`, auth...)
	r := h.Do("POST", "/api/v1/user/email/verify", "", auth...)
	if r.Status != 202 || r.Data()["email"] != "cid@example.com" {
		t.Fatalf("verify request: %d %s", r.Status, r.Raw)
	}
	// A node claims the mail and is killed before it sends it.
	dead, err := h.DB.ClaimMails(h.Clock(), w.Lease, 10)
	if err != nil || len(dead) != 1 || dead[0].To != "cid@example.com" {
		t.Fatalf("the doomed node's claim: %+v %v", dead, err)
	}
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 0 {
		t.Fatalf("claimed within the dead node's lease: %d %v", n, err)
	}
	if files, _ := filepath.Glob(filepath.Join(maildir, "new", "*")); len(files) != 0 {
		t.Fatalf("a mail went out within the lease: %v", files)
	}
	h.Advance(w.Lease + time.Second)
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
		t.Fatalf("after the lease: %d %v, want the mail sent", n, err)
	}
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 0 {
		t.Fatalf("sent again: %d %v", n, err)
	}
	got := mails(t, maildir, 1)
	if id := got[0].Header.Get("Message-ID"); id != "<"+dead[0].ID+"@fiplan>" {
		t.Fatalf("Message-ID %q, want the queued mail's id %s", id, dead[0].ID)
	}
	if !strings.Contains(body(t, got[0]), "https://fiplan.test/api/v1/user/email/verify?token=") {
		t.Fatalf("no verification link in %q", body(t, got[0]))
	}
	// The dead node's late settle changes nothing.
	if err := h.DB.SettleMail(store.Attempt{ID: dead[0].ID, User: "cid", Lease: dead[0].Lease, At: h.Clock(), OK: true}); !errors.Is(err, store.ErrStale) {
		t.Fatalf("the dead node's settle: %v, want ErrStale", err)
	}
	// A verification mail is not an event, nor a delivery.
	r = h.Do("GET", "/api/v1/user/events", "", auth...)
	if r.Status != 200 || len(r.Body["data"].([]any)) != 0 {
		t.Fatalf("events list a verification mail: %s", r.Raw)
	}
	r = h.Do("GET", "/api/v1/user/deliveries", "", auth...)
	if r.Status != 200 || len(r.Body["data"].([]any)) != 0 {
		t.Fatalf("deliveries list a verification mail: %s", r.Raw)
	}
}

// An SMTP server that cannot be reached: the request still answers 202
// (the mail is queued), and the worker keeps the mail for its retry with
// the error, sending it once the server answers.
func TestVerifyMailRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	h, w := mailHarness(t, closed, nil)
	auth := bearer(h.Token("dee", "free", ""))
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"dee@example.com"}`, auth...)
	if r := h.Do("POST", "/api/v1/user/email/verify", "", auth...); r.Status != 202 {
		t.Fatalf("verify request: %d %s", r.Status, r.Raw)
	}
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
		t.Fatalf("first attempt: %d %v", n, err)
	}
	if ms, err := h.DB.ClaimMails(h.Clock().Add(hooks.Backoff[0]-time.Second), time.Minute, 10); err != nil || len(ms) != 0 {
		t.Fatalf("claimed before its retry: %+v %v", ms, err)
	}
	ms, err := h.DB.ClaimMails(h.Clock().Add(hooks.Backoff[0]), time.Minute, 10)
	if err != nil || len(ms) != 1 || ms[0].Attempts != 1 || !strings.Contains(ms[0].LastError, "cannot") {
		t.Fatalf("after the failed attempt: %+v %v, want one mail with its error", ms, err)
	}
}

// dupQueue is a store whose first verification mail is queued under the
// id of a mail already queued: the store's transaction fails on the mail
// itself, after reading the user's last mail time.
type dupQueue struct {
	store.Store
	done atomic.Bool
}

func (q *dupQueue) QueueMail(m store.Mail) error {
	if m.Kind == store.MailVerify && q.done.CompareAndSwap(false, true) {
		m.ID = "mail_taken"
	}
	return q.Store.QueueMail(m)
}

// The one verification mail a minute holds across nodes: two servers on
// one PostgreSQL store, the second asked within the minute answers 429
// RATE_LIMITED with the time left and queues nothing, whichever node
// took the first; after the minute, either node queues the next. A
// request the store fails answers 500 DATABASE_ERROR and consumes none
// of the minute.
func TestVerifyMailLimitAcrossNodes(t *testing.T) {
	db := pgStore(t)
	q := &dupQueue{Store: db}
	if err := db.QueueMail(store.Mail{ID: "mail_taken", User: "gil", Kind: "other", To: "gil@example.com", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	shared := func(store.Store) store.Store { return q }
	a, _ := mailHarness(t, "127.0.0.1:25", shared)
	b, _ := mailHarness(t, "127.0.0.1:25", shared)
	auth := bearer(a.Token("gil", "free", ""))
	a.Do("PATCH", "/api/v1/user/profile", `{"email":"gil@example.com"}`, auth...)
	queuedVerify := func(want int) {
		t.Helper()
		ms, err := db.ClaimMails(a.Clock().Add(time.Hour), time.Nanosecond, 10)
		n := 0
		for _, m := range ms {
			if m.Kind == store.MailVerify {
				n++
			}
		}
		if err != nil || n != want {
			t.Fatalf("%d verification mails queued (%v), want %d", n, err, want)
		}
	}
	expectError(t, a.Do("POST", "/api/v1/user/email/verify", "", auth...), 500, errcode.Database)
	queuedVerify(0)
	// The failed request took none of the minute: the other node queues.
	if r := b.Do("POST", "/api/v1/user/email/verify", "", auth...); r.Status != 202 {
		t.Fatalf("after a failed request: %d %s", r.Status, r.Raw)
	}
	a.Advance(20 * time.Second)
	b.Advance(20 * time.Second)
	for _, h := range []*harness{a, b} {
		r := h.Do("POST", "/api/v1/user/email/verify", "", auth...)
		expectError(t, r, 429, errcode.RateLimited)
		if r.Body["retryAfter"] != float64(40) || r.Header["Retry-After"] != "40" {
			t.Fatalf("20s after the first mail: %s Retry-After %q, want 40", r.Raw, r.Header["Retry-After"])
		}
	}
	queuedVerify(1)
	a.Advance(40 * time.Second)
	if r := a.Do("POST", "/api/v1/user/email/verify", "", auth...); r.Status != 202 {
		t.Fatalf("a minute after the first mail: %d %s", r.Status, r.Raw)
	}
	queuedVerify(2)
}

// failingQueue is a store whose mail queue refuses every mail.
type failingQueue struct{ store.Store }

func (failingQueue) QueueMail(store.Mail) error {
	return errors.New("cannot queue mail: the disk is full")
}

// A queue that cannot take the mail answers 500 DATABASE_ERROR, and the
// next request is not held back as if a mail had gone out.
func TestVerifyMailQueueFails(t *testing.T) {
	h, _ := mailHarness(t, "127.0.0.1:25", func(db store.Store) store.Store { return failingQueue{db} })
	auth := bearer(h.Token("eve", "free", ""))
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"eve@example.com"}`, auth...)
	expectError(t, h.Do("POST", "/api/v1/user/email/verify", "", auth...), 500, errcode.Database)
	expectError(t, h.Do("POST", "/api/v1/user/email/verify", "", auth...), 500, errcode.Database)
}

// Each event type is mailed as its own preference says (mail.Prefs): a
// type switched off is not mailed, and still goes to the webhooks
// subscribed to it and into the events list; a type left on is mailed.
func TestEmailPreferencePerType(t *testing.T) {
	addr, maildir := smtpServer(t)
	h, w := mailHarness(t, addr, nil)
	auth := bearer(h.Token("fay", "free", ""))
	// Every preference is a member of the notifications document, on by
	// default.
	r := h.Do("GET", "/api/v1/user/notifications", "", auth...)
	for typ, pref := range mail.Prefs {
		if m, ok := r.Data()[pref].(map[string]any); !ok || m["email"] != true {
			t.Fatalf("preference %q of %s: %s", pref, typ, r.Raw)
		}
	}
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"fay@example.com"}`, auth...)
	h.Do("POST", "/api/v1/user/email/verify", "", auth...)
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
		t.Fatalf("verification mail: %d %v", n, err)
	}
	tok := tokenRe.FindStringSubmatch(body(t, mails(t, maildir, 1)[0]))[1]
	if r := h.Do("GET", "/api/v1/user/email/verify?token="+tok, ""); r.Status != 200 {
		t.Fatalf("verify: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"checkins":{"email":false}}`, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	got := map[string]int{}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		var ev struct{ Type string }
		_ = json.NewDecoder(req.Body).Decode(&ev)
		mu.Lock()
		got[ev.Type]++
		mu.Unlock()
		rw.WriteHeader(204)
	}))
	defer srv.Close()
	if err := h.DB.CreateHook(store.Hook{ID: "wh_fay", User: "fay", URL: srv.URL, Events: []string{store.CheckinDue, store.PlanOfftrack},
		Secret: "whsec_c2VjcmV0", CreatedAt: h.Clock()}, hooks.MaxHooks); err != nil {
		t.Fatal(err)
	}
	var evs []store.Event
	for _, typ := range []string{store.CheckinDue, store.PlanOfftrack} {
		evs = append(evs, store.Event{ID: store.EventID(typ, "fay"), User: "fay", Type: typ, CreatedAt: h.Clock(), Data: []byte(`{}`)})
	}
	if _, err := h.DB.Emit(evs, h.Clock()); err != nil {
		t.Fatal(err)
	}
	w.Client = hooks.NewClient(true)
	if _, err := w.Deliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got[store.CheckinDue] != 1 || got[store.PlanOfftrack] != 1 {
		t.Fatalf("the webhook received %v, want one of each type", got)
	}
	ms := mails(t, maildir, 2)
	find(t, ms, "off track")
	for _, m := range ms {
		if strings.Contains(m.Header.Get("Subject"), "check-in") {
			t.Fatal("checkin.due was mailed with its preference off")
		}
	}
	r = h.Do("GET", "/api/v1/user/events", "", auth...)
	if r.Status != 200 || len(r.Body["data"].([]any)) != 2 {
		t.Fatalf("events: %s, want both", r.Raw)
	}
}

// A notifications document stored when milestones' email switch chose
// for every event type keeps that choice: the per-type switches it does
// not hold read as milestones' (off here), in the document's answer and
// in what the verified address is sent; a switch written later wins.
func TestEmailPreferencesKeptFromMilestones(t *testing.T) {
	addr, maildir := smtpServer(t)
	h, w := mailHarness(t, addr, nil)
	auth := bearer(h.Token("hal", "free", ""))
	if err := h.DB.PutDoc("hal", "notifications", json.RawMessage(`{"milestones":{"email":false,"push":true}}`)); err != nil {
		t.Fatal(err)
	}
	r := h.Do("GET", "/api/v1/user/notifications", "", auth...)
	for _, pref := range mail.Prefs {
		if m, ok := r.Data()[pref].(map[string]any); !ok || m["email"] != false {
			t.Fatalf("preference %q: %s, want email off as milestones", pref, r.Raw)
		}
	}
	h.Do("PATCH", "/api/v1/user/profile", `{"email":"hal@example.com"}`, auth...)
	h.Do("POST", "/api/v1/user/email/verify", "", auth...)
	if n, err := w.DeliverMails(context.Background()); err != nil || n != 1 {
		t.Fatalf("verification mail: %d %v", n, err)
	}
	tok := tokenRe.FindStringSubmatch(body(t, mails(t, maildir, 1)[0]))[1]
	r = h.Do("GET", "/api/v1/user/email/verify?token="+tok, "")
	if r.Status != 200 || len(r.Data()["events"].([]any)) != 0 {
		t.Fatalf("verify: %d %s, want no event type mailed", r.Status, r.Raw)
	}
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"checkins":{"email":true}}`, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	r = h.Do("GET", "/api/v1/user/notifications", "", auth...)
	if r.Data()["checkins"].(map[string]any)["email"] != true || r.Data()["guardrails"].(map[string]any)["email"] != false {
		t.Fatalf("after a PATCH of checkins: %s", r.Raw)
	}
}

// failingDocs is a store whose document writes fail.
type failingDocs struct{ store.Store }

func (failingDocs) UpdateDoc(string, string, func([]byte) ([]byte, error)) error {
	return errors.New("cannot update notifications: the disk is full")
}

// An unsubscribe whose preference cannot be written answers 500 and
// leaves the channel as it was; a link of a type no preference chooses
// changes nothing.
func TestUnsubscribeErrors(t *testing.T) {
	h, w := mailHarness(t, "127.0.0.1:25", func(db store.Store) store.Store { return failingDocs{db} })
	m := w.Mail.(*mail.Mailer)
	if err := h.DB.SetMailHook(store.Hook{ID: store.MailHook, User: "gus", URL: "mailto:gus@example.com", Events: slices.Clone(store.EventTypes), CreatedAt: h.Clock()}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ    string
		status int
	}{{store.CheckinDue, 500}, {store.TestEvent, 200}} {
		link, err := m.UnsubscribeURL("gus", tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		res := h.Send("POST", strings.TrimPrefix(link, "https://fiplan.test"), "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded")
		if res.Status != tc.status {
			t.Fatalf("unsubscribe of %s: %d %s, want %d", tc.typ, res.Status, res.Raw, tc.status)
		}
		if hs, err := h.DB.Hooks("gus"); err != nil || len(hs) != 1 || len(hs[0].Events) != len(store.EventTypes) {
			t.Fatalf("unsubscribe of %s changed the channel: %+v %v", tc.typ, hs, err)
		}
	}
}
