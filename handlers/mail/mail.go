// Package mail sends fiplan's email: the verification of a user's address
// and the event mails of the outbox's email channel, each with a one-click
// unsubscribe link (RFC 8058) that needs no sign-in. It speaks SMTP
// through go-mail.
package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"fiplan/data/store"
)

// Config is where mail goes from and how its links are made.
type Config struct {
	// URL is the SMTP server: smtp://[user:pass@]host[:port] (STARTTLS
	// when the server offers it, port 587 by default) or
	// smtps://[user:pass@]host[:port] (TLS from the start, port 465).
	// Empty: email is off.
	URL string
	// From is the sender address.
	From string
	// PublicURL is the server's externally visible base URL: the links
	// in the mails point under it.
	PublicURL string
	// Secret is the server's secret; the tokens' key is derived from it.
	Secret []byte
	Now    func() time.Time
}

// Mailer sends fiplan's mails through one SMTP server.
type Mailer struct {
	host, user, pass, from, base string
	port                         int
	ssl                          bool
	key                          []byte
	now                          func() time.Time
}

// ParseURL checks an SMTP URL of Config.URL's forms.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		// url.Parse's message may quote the URL, password included.
		return nil, errors.New("not an smtp:// or smtps:// URL of a host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, errors.New("the SMTP port must be from 1 to 65535")
		}
	}
	return u, nil
}

// New makes the mailer of cfg; nil and no error when cfg.URL is empty
// (email is off).
func New(cfg Config) (*Mailer, error) {
	if cfg.URL == "" {
		return nil, nil
	}
	u, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if _, err := netmail.ParseAddress(cfg.From); err != nil {
		return nil, fmt.Errorf("the sender %q is not an email address", cfg.From)
	}
	if len(cfg.Secret) < 16 {
		return nil, errors.New("the server's secret is too short to sign mail links")
	}
	m := &Mailer{host: u.Hostname(), from: cfg.From, base: strings.TrimRight(cfg.PublicURL, "/"), ssl: u.Scheme == "smtps",
		key: deriveKey(cfg.Secret), now: cfg.Now}
	m.port = 587
	if m.ssl {
		m.port = 465
	}
	if p := u.Port(); p != "" {
		m.port, _ = strconv.Atoi(p)
	}
	if u.User != nil {
		m.user = u.User.Username()
		m.pass, _ = u.User.Password()
	}
	if m.now == nil {
		m.now = time.Now
	}
	return m, nil
}

// Server names the SMTP server, without credentials, for the log.
func (m *Mailer) Server() string { return net.JoinHostPort(m.host, strconv.Itoa(m.port)) }

func (m *Mailer) client() (*gomail.Client, error) {
	opts := []gomail.Option{gomail.WithPort(m.port), gomail.WithTimeout(30 * time.Second)}
	if m.ssl {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if m.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(m.user), gomail.WithPassword(m.pass))
	}
	return gomail.NewClient(m.host, opts...)
}

func (m *Mailer) send(ctx context.Context, msg *gomail.Msg) error {
	c, err := m.client()
	if err != nil {
		return fmt.Errorf("cannot reach SMTP server %s: %w", m.Server(), err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("cannot send mail through %s: %w", m.Server(), err)
	}
	return nil
}

func (m *Mailer) message(to, subject, body string) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(m.from); err != nil {
		return nil, fmt.Errorf("cannot use sender %q: %w", m.from, err)
	}
	if err := msg.To(to); err != nil {
		return nil, fmt.Errorf("cannot use recipient %q: %w", to, err)
	}
	msg.Subject(subject)
	msg.SetDateWithValue(m.now())
	msg.SetBodyString(gomail.TypeTextPlain, body)
	return msg, nil
}

// SendMail sends a mail of the queue: its Message-ID is the mail's id,
// so a mail sent twice (a worker died before settling it) is one message
// to a client that drops duplicates.
func (m *Mailer) SendMail(ctx context.Context, q *store.Mail) error {
	switch q.Kind {
	case store.MailVerify:
		return m.sendVerify(ctx, q.User, q.To, q.ID+"@fiplan")
	}
	return fmt.Errorf("cannot send mail %q: unknown kind %q", q.ID, q.Kind)
}

// sendVerify mails addr a link that verifies it as user's, good for
// VerifyTTL, under the Message-ID id.
func (m *Mailer) sendVerify(ctx context.Context, user, addr, id string) error {
	tok, err := sign(m.key, purposeVerify, claims{User: user, Address: addr, Expires: m.now().Add(VerifyTTL).Unix()})
	if err != nil {
		return err
	}
	link := m.base + VerifyPath + "?token=" + tok
	msg, err := m.message(addr, "fiplan: confirm your email address",
		"Open this link to confirm that fiplan may send its notifications to "+addr+":\n\n"+link+
			"\n\nThe link works for "+strconv.Itoa(int(VerifyTTL/time.Hour))+" hours. If you did not ask for it, ignore this mail.\n")
	if err != nil {
		return err
	}
	msg.SetMessageIDWithValue(id)
	return m.send(ctx, msg)
}

// UnsubscribeURL is the one-click link that turns off mails of type typ
// to user.
func (m *Mailer) UnsubscribeURL(user, typ string) (string, error) {
	tok, err := sign(m.key, purposeUnsub, claims{User: user, Type: typ, Expires: m.now().Add(UnsubTTL).Unix()})
	if err != nil {
		return "", err
	}
	return m.base + UnsubscribePath + "?token=" + tok, nil
}

// SendEvent mails the event of j to the address of its email channel,
// with RFC 8058's List-Unsubscribe and List-Unsubscribe-Post headers. The
// Message-ID is the delivery's, so a mail sent twice (at least once) is
// one message to a client that drops duplicates.
func (m *Mailer) SendEvent(ctx context.Context, j *store.Job) error {
	addr, ok := strings.CutPrefix(j.URL, "mailto:")
	if !ok || addr == "" {
		return fmt.Errorf("the email channel's address %q is not a mailto: URL", j.URL)
	}
	var ev struct {
		Type   string          `json:"type"`
		PlanID string          `json:"planId"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(j.Body, &ev); err != nil {
		return fmt.Errorf("cannot read event %q: %w", j.EventID, err)
	}
	unsub, err := m.UnsubscribeURL(j.User, ev.Type)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(describe(ev.Type))
	b.WriteString("\n\n")
	if ev.PlanID != "" {
		b.WriteString("Plan: " + ev.PlanID + "\n")
	}
	b.WriteString("Event: " + j.EventID + "\nDetails: " + string(ev.Data) + "\n\n")
	b.WriteString("To stop these mails (" + ev.Type + "), open " + unsub + "\n")
	msg, err := m.message(addr, "fiplan: "+subject(ev.Type), b.String())
	if err != nil {
		return err
	}
	msg.SetMessageIDWithValue(j.ID + "@fiplan")
	if msg.SetListUnsubscribeOneClick(unsub) != nil {
		// A public URL of plain http (local mode): the same headers,
		// though RFC 8058 asks mail clients for https.
		msg.SetListUnsubscribe(unsub)
		msg.SetListUnsubscribePost()
	}
	return m.send(ctx, msg)
}

func subject(typ string) string {
	switch typ {
	case store.CheckinDue:
		return "your yearly check-in is due"
	case "guardrail.crossed":
		return "a withdrawal guardrail was crossed"
	case "plan.offtrack":
		return "a plan is off track"
	case "fi.reached":
		return "you reached your FI number"
	case "data.updated":
		return "new data changed a saved plan"
	}
	return typ
}

func describe(typ string) string {
	return "Something happened to one of your saved plans: " + subject(typ) + "."
}
