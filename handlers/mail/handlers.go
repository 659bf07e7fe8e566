package mail

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"slices"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Paths of the links the mails carry, under the public URL.
const (
	VerifyPath      = "/api/v1/user/email/verify"
	UnsubscribePath = "/api/v1/unsubscribe"
)

// DB is what the mail routes read and write.
type DB interface {
	GetDoc(user, name string, v any) (bool, error)
	Hooks(user string) ([]store.Hook, error)
	SetMailHook(h store.Hook) error
	DeleteHook(user, id string) error
	QueueMail(m store.Mail) error
	UpdateDoc(user, name string, fn func(old []byte) ([]byte, error)) error
}

// Handlers are the routes of email: ask for a verification mail, follow
// its link, and the one-click unsubscribe.
type Handlers struct {
	db   DB
	m    *Mailer // nil: email is off
	key  []byte
	now  func() time.Time
	Docs struct{ Request, Verify, UnsubscribePage, Unsubscribe *rest.Doc }
}

// NewHandlers serves email's routes; m nil answers the request for a
// verification mail 503 (email is off) and still honours unsubscribe
// links signed under secret.
func NewHandlers(db DB, m *Mailer, secret []byte, now func() time.Time) *Handlers {
	if now == nil {
		now = time.Now
	}
	h := &Handlers{db: db, m: m, key: deriveKey(secret), now: now}
	tokenQ := []rest.Param{{Name: "token", Type: "string", Doc: "The signed token of the link in the mail."}}
	bad := rest.Err(errcode.Validation, "the token is malformed, forged or expired (field token)")
	h.Docs.Request = &rest.Doc{Tag: "email", Status: 202, Summary: "Send a verification mail",
		Desc: "Queues a mail to the profile's email address with a link that verifies it, good for 24 hours from when it is sent; the mail goes out within seconds, retried with backoff while the mail server fails. No event is mailed to an address until it is verified.",
		Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "the profile has no email address (field email)"), rest.Err(errcode.Unavailable, "email is off on this server"),
			rest.Err(errcode.RateLimited, "a verification mail went out less than a minute ago")}}
	h.Docs.Verify = &rest.Doc{Tag: "email", Status: 200, Summary: "Verify an email address",
		Desc:  "The link of the verification mail; needs no sign-in. The address then receives the events the notification preferences choose by email.",
		Query: tokenQ, Errs: []rest.ErrDoc{bad, rest.Err(errcode.NotFound, "the profile's address is no longer the one the link verifies")}}
	h.Docs.UnsubscribePage = &rest.Doc{Tag: "email", Status: 200, Bytes: "text/html", Summary: "Confirm an unsubscribe",
		Desc: "The List-Unsubscribe link of an event mail opened in a browser: a page with a button that sends the POST.", Query: tokenQ, Errs: []rest.ErrDoc{bad}}
	h.Docs.Unsubscribe = &rest.Doc{Tag: "email", Status: 200, FormBody: true, Summary: "One-click unsubscribe (RFC 8058)",
		Desc:  "Turns off email of the link's event type for the link's user; needs no sign-in. The body, List-Unsubscribe=One-Click, is form-encoded and ignored.",
		Query: tokenQ, Errs: []rest.ErrDoc{bad}}
	return h
}

type verified struct {
	Email  string   `json:"email"`
	Events []string `json:"events" doc:"The event types mailed to it."`
}

type unsubscribed struct {
	Type  string `json:"type"`
	Email bool   `json:"email" doc:"Always false: this type is no longer mailed."`
}

// Request queues a mail with a verification link to the signed-in user's
// profile address and answers 202: the mail is in the store's queue
// (store.Mails), which a worker on any node sends, so a node that dies
// after answering loses no mail. At most one a VerifyEvery per user, so
// that an address someone else typed into a profile is not flooded: the
// store keeps when the last was queued, in the transaction that queues
// it, so the limit holds whichever node each request reaches, and a
// request the store fails consumes none of it.
func (h *Handlers) Request(c *rest.Ctx) {
	if h.m == nil {
		c.Error(errcode.Unavailable, "email is off on this server: no SMTP server is configured")
		return
	}
	user := c.Principal.User
	addr, err := h.address(user)
	if err != nil {
		c.Storage(err)
		return
	}
	if addr == "" {
		c.Fail("email", "set an email address in your profile first")
		return
	}
	id, err := store.NewMailID()
	if err != nil {
		c.Internal(err)
		return
	}
	now := h.now().UTC()
	err = h.db.QueueMail(store.Mail{ID: id, User: user, Kind: store.MailVerify, To: addr, CreatedAt: now, NextAt: now, Every: VerifyEvery})
	var soon *store.TooSoonError
	switch {
	case errors.As(err, &soon):
		c.RateLimited(int((soon.Wait + time.Second - 1) / time.Second))
		return
	case err != nil:
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusAccepted, map[string]string{"email": addr})
}

// VerifyEvery is the least time between two verification mails to one
// user.
const VerifyEvery = time.Minute

func (h *Handlers) address(user string) (string, error) {
	var p struct {
		Email *string `json:"email"`
	}
	if _, err := h.db.GetDoc(user, "profile", &p); err != nil || p.Email == nil {
		return "", err
	}
	return *p.Email, nil
}

// token reads and checks the token parameter; on failure it has answered
// 400 VALIDATION_ERROR naming token.
func (h *Handlers) token(c *rest.Ctx, purpose string) (claims, bool) {
	tok := string(c.RC.QueryArgs().Peek("token"))
	if tok == "" {
		c.Fail("token", "the link has no token")
		return claims{}, false
	}
	cl, err := parse(h.key, purpose, tok, h.now())
	switch {
	case errors.Is(err, errExpiredToken):
		c.Fail("token", "the link has expired")
		return cl, false
	case err != nil:
		c.Fail("token", "the link is not valid")
		return cl, false
	}
	return cl, true
}

// Verify follows a verification link: the address, still the profile's,
// becomes the user's email channel, mailed the event types the
// notification preferences choose.
func (h *Handlers) Verify(c *rest.Ctx) {
	cl, ok := h.token(c, purposeVerify)
	if !ok {
		return
	}
	addr, err := h.address(cl.User)
	if err != nil {
		c.Storage(err)
		return
	}
	if addr == "" || addr != cl.Address {
		c.Error(errcode.NotFound, "the profile's email address is no longer the one this link verifies; ask for a new mail")
		return
	}
	evs, err := h.wanted(cl.User)
	if err != nil {
		c.Storage(err)
		return
	}
	hk := store.Hook{ID: store.MailHook, User: cl.User, URL: "mailto:" + addr, Events: evs, CreatedAt: h.now().UTC().Truncate(time.Second)}
	if err := h.db.SetMailHook(hk); err != nil {
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusOK, verified{Email: addr, Events: evs})
}

// Prefs names, for each event type, the notification preference
// (a member of the user's notifications document) whose email switch
// chooses whether events of that type are mailed. Each defaults to on.
// Webhooks follow their own subscriptions, and /user/events lists every
// event, whatever these say.
var Prefs = map[string]string{
	store.FIReached:        "milestones",
	store.CheckinDue:       "checkins",
	store.GuardrailCrossed: "guardrails",
	store.PlanOfftrack:     "offTrack",
	store.DataUpdated:      "dataUpdates",
}

// switches is the email switch of each preference in a notifications
// document; a switch never written is nil (on).
type switches map[string]struct {
	Email *bool `json:"email"`
}

// wanted is the event types user's notification preferences send by
// email, in store.EventTypes' order.
func (h *Handlers) wanted(user string) ([]string, error) {
	var n switches
	if _, err := h.db.GetDoc(user, "notifications", &n); err != nil {
		return nil, err
	}
	out := []string{}
	for _, t := range store.EventTypes {
		// A switch never written follows milestones', which chose for
		// every event type before each had its own (a document kept from
		// then says nothing of the others).
		on := n[Prefs[t]].Email
		if on == nil {
			on = n["milestones"].Email
		}
		if on == nil || *on {
			out = append(out, t)
		}
	}
	return out, nil
}

// switchOff turns off the email switch of pref in user's notifications
// document, in one transaction that keeps every other member.
func (h *Handlers) switchOff(user, pref string) error {
	return h.db.UpdateDoc(user, "notifications", func(old []byte) ([]byte, error) {
		doc := map[string]json.RawMessage{}
		if len(old) > 0 {
			if err := json.Unmarshal(old, &doc); err != nil {
				return nil, err
			}
		}
		// Every switch the document does not hold is written with the
		// value it has now (milestones', see wanted), so switching off
		// milestones does not switch off the types that follow it.
		var ms struct {
			Email *bool `json:"email"`
		}
		if raw, ok := doc["milestones"]; ok {
			if err := json.Unmarshal(raw, &ms); err != nil {
				return nil, err
			}
		}
		for _, p := range Prefs {
			if _, ok := doc[p]; !ok && p != pref {
				doc[p] = json.RawMessage(fmt.Sprintf(`{"email":%t}`, ms.Email == nil || *ms.Email))
			}
		}
		ch := map[string]any{}
		if raw, ok := doc[pref]; ok {
			if err := json.Unmarshal(raw, &ch); err != nil {
				return nil, err
			}
		}
		ch["email"] = false
		raw, err := json.Marshal(ch)
		if err != nil {
			return nil, err
		}
		doc[pref] = raw
		return json.Marshal(doc)
	})
}

// UnsubscribePage answers the link opened in a browser with a page whose
// button sends the one-click POST: a GET changes nothing, so a mail
// scanner that follows links unsubscribes no one.
func (h *Handlers) UnsubscribePage(c *rest.Ctx) {
	cl, ok := h.token(c, purposeUnsub)
	if !ok {
		return
	}
	tok := html.EscapeString(string(c.RC.QueryArgs().Peek("token")))
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribe</title></head><body>` +
		`<h1>Stop these emails?</h1><p>fiplan will no longer email you about <b>` + html.EscapeString(subject(cl.Type)) + `</b> (` + html.EscapeString(cl.Type) + `).</p>` +
		`<form method="post" action="` + UnsubscribePath + `?token=` + tok + `"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
		`<button type="submit">Unsubscribe</button></form></body></html>`
	c.RC.Response.Header.Set("Cache-Control", "no-store")
	c.SendBodyAs(fasthttp.StatusOK, "text/html; charset=utf-8", []byte(page))
}

// Unsubscribe turns off the email of the token's event type for its
// user: the preference that chooses it (Prefs) is switched off, so the
// preferences page shows it, and the email channel follows. It is
// idempotent: a user without an email channel, or not mailed that type,
// is answered as one just unsubscribed.
func (h *Handlers) Unsubscribe(c *rest.Ctx) {
	cl, ok := h.token(c, purposeUnsub)
	if !ok {
		return
	}
	hs, err := h.db.Hooks(cl.User)
	if err != nil {
		c.Storage(err)
		return
	}
	i := slices.IndexFunc(hs, func(hk store.Hook) bool { return hk.ID == store.MailHook })
	pref, known := Prefs[cl.Type]
	if i >= 0 && known && hs[i].Wants(cl.Type) {
		if err := h.switchOff(cl.User, pref); err != nil {
			c.Storage(err)
			return
		}
		if err := h.follow(hs[i]); err != nil {
			c.Storage(err)
			return
		}
	}
	c.JSON(fasthttp.StatusOK, unsubscribed{Type: cl.Type})
}

// follow stores the email channel hk with the event types its user's
// preferences choose.
func (h *Handlers) follow(hk store.Hook) error {
	want, err := h.wanted(hk.User)
	if err != nil {
		return err
	}
	hk.Events = want
	return h.db.SetMailHook(hk)
}

// Written keeps user's email channel in step with a document just
// written: a profile whose address is no longer the verified one drops
// the channel (the new address must be verified first), and new
// notification preferences choose its event types (Prefs). A failure is
// returned for the log; the write itself stands.
func (h *Handlers) Written(user, doc string) error {
	if doc != "profile" && doc != "notifications" {
		return nil
	}
	hs, err := h.db.Hooks(user)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(hs, func(hk store.Hook) bool { return hk.ID == store.MailHook })
	if i < 0 {
		return nil
	}
	hk := hs[i]
	if doc == "profile" {
		addr, err := h.address(user)
		if err != nil || "mailto:"+addr == hk.URL {
			return err
		}
		if err := h.db.DeleteHook(user, store.MailHook); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		return nil
	}
	return h.follow(hk)
}
