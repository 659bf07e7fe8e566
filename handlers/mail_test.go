package handlers

import (
	"context"
	"errors"
	"io"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

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

// raw sends a request without the harness's JSON expectations.
func (h *harness) plain(method, path, contentType, reqBody string) (int, string, string) {
	h.T.Helper()
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(res)
	req.Header.SetMethod(method)
	req.SetRequestURI("http://fiplan.test" + path)
	if contentType != "" {
		req.Header.SetContentType(contentType)
		req.SetBodyString(reqBody)
	}
	c := &fasthttp.Client{Dial: func(string) (net.Conn, error) {
		return h.LN.DialWithLocalAddr(&net.TCPAddr{IP: net.ParseIP(h.IP), Port: 40000})
	}}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.T.Fatal(err)
	}
	return res.StatusCode(), string(res.Header.ContentType()), string(res.Body())
}

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
	status, ct, page := h.plain("GET", unsub, "", "")
	if status != 200 || !strings.HasPrefix(ct, "text/html") || !strings.Contains(page, `method="post"`) {
		t.Fatalf("confirm page: %d %s %s", status, ct, page)
	}
	if hs, _ := h.DB.Hooks("ann"); len(hs) != 1 || !hs[0].Wants(store.FIReached) {
		t.Fatalf("a GET unsubscribed: %+v", hs)
	}
	// The one-click POST, without sign-in, as a mail client sends it.
	status, _, out := h.plain("POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click")
	if status != 200 {
		t.Fatalf("unsubscribe: %d %s", status, out)
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

	// Preferences saved again with email on keep the unsubscribe.
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"milestones":{"email":true}}`, auth...); r.Status != 200 {
		t.Fatalf("notifications: %d %s", r.Status, r.Raw)
	}
	if hs, err := h.DB.Hooks("ann"); err != nil || len(hs) != 1 || hs[0].Wants(store.FIReached) || !hs[0].Wants(store.CheckinDue) {
		t.Fatalf("preferences saved again undid the unsubscribe: %+v %v", hs, err)
	}
	// Email off chooses no type; a new address drops the channel until it
	// is verified.
	if r := h.Do("PATCH", "/api/v1/user/notifications", `{"milestones":{"email":false}}`, auth...); r.Status != 200 {
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
