// Package hooks serves a plan that keeps running: the user's webhook
// endpoints (/user/webhooks), the events raised about the user's plans
// (/user/events) and their deliveries (/user/deliveries), and the Worker
// that signs and sends the deliveries and raises the yearly check-ins.
package hooks

import (
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// MaxHooks caps the endpoints of one user.
const MaxHooks = 10

// HookID is the grammar of an endpoint id: wh_ and 26 characters of
// base32 (a-z, 2-7), 128 random bits.
var HookID = rest.NewPathParam("id", `^wh_[a-z2-7]{26}$`, 29, "must be a webhook id: wh_ and 26 characters of a-z and 2-7")

func newID(prefix string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// Handlers serve the webhook, event and delivery routes.
type Handlers struct {
	db       store.Store
	now      func() time.Time
	loopback bool
	inSchema *schema.Schema[hookIn]
	// Docs describes the routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	List, Create, Delete, Rotate, Test, Deliveries, Events *rest.Doc
}

// Config is what the routes need.
type Config struct {
	DB  store.Store
	Now func() time.Time
	// Local allows http and loopback endpoints (local mode).
	Local bool
}

// New compiles the routes' declarations against v.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	s := &Handlers{db: cfg.DB, now: cfg.Now, loopback: cfg.Local}
	var err error
	if s.inSchema, err = schema.Compile[hookIn](v); err != nil {
		return nil, err
	}
	hook, err := schema.CompileDoc[hookDoc](v)
	if err != nil {
		return nil, err
	}
	secret, err := schema.CompileDoc[hookSecret](v)
	if err != nil {
		return nil, err
	}
	event, err := schema.CompileDoc[eventDoc](v)
	if err != nil {
		return nil, err
	}
	delivery, err := schema.CompileDoc[deliveryDoc](v)
	if err != nil {
		return nil, err
	}
	s.docs(hook, secret, event, delivery)
	return s, nil
}

func (s *Handlers) docs(hook, secret, event, delivery rest.Schema) {
	max := strconv.Itoa(MaxHooks)
	notFound := rest.Err(errcode.NotFound, "the caller has no webhook with this id (another user's id included)")
	d := &s.Docs
	d.List = &rest.Doc{Tag: "webhooks", Status: 200, List: true, Summary: "List your webhook endpoints",
		Desc: "Your endpoints, oldest first, without their secrets (at most " + max + ").", Data: hook}
	d.Create = &rest.Doc{Tag: "webhooks", Status: 201, Summary: "Register a webhook endpoint",
		Desc: "Registers `url` for the event types in `events`; the answer holds the signing secret, shown only now. Every request carries the " +
			"Standard Webhooks headers webhook-id (the event's id), webhook-timestamp and webhook-signature; a delivery not answered 2xx is " +
			"retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed. At most " + max + " endpoints. " +
			"Example: {\"url\":\"https://home.example/fiplan\",\"events\":[\"checkin.due\",\"guardrail.crossed\"]}.",
		Body: s.inSchema, Data: secret, Errs: []rest.ErrDoc{rest.Err(errcode.Conflict, "the caller already has "+max+" endpoints")}}
	d.Delete = &rest.Doc{Tag: "webhooks", Status: 204, Summary: "Remove a webhook endpoint",
		Desc: "Removes the endpoint; its pending deliveries are marked failed.", Errs: []rest.ErrDoc{notFound}}
	d.Rotate = &rest.Doc{Tag: "webhooks", Status: 200, Summary: "Rotate a webhook endpoint's secret",
		Desc: "Replaces the signing secret at once and answers the new one, shown only now.", Data: secret, Errs: []rest.ErrDoc{notFound}}
	d.Test = &rest.Doc{Tag: "webhooks", Status: 202, Summary: "Send a test event",
		Desc: "Queues an event of type `test` to this endpoint alone, whatever it subscribes to; its delivery shows in GET /user/deliveries.",
		Data: event, Errs: []rest.ErrDoc{notFound}}
	d.Deliveries = &rest.Doc{Tag: "webhooks", Status: 200, List: true, Summary: "Your webhook delivery log",
		Desc: "Every delivery of an event to one of your endpoints, newest first, with its status, attempts and last answer; paged with `limit` and `offset`.",
		Data: delivery, Query: rest.PageQuery}
	d.Events = &rest.Doc{Tag: "webhooks", Status: 200, List: true, Summary: "Your events",
		Desc: "The events raised about your saved plans, newest first: checkin.due (a plan's yearly check-in date, its checkinDate or its " +
			"anniversary), guardrail.crossed (a check-in's withdrawal rate left the guardrail band), " +
			"plan.offtrack (a check-in's total strayed more than 10% from the plan's expected portfolio), fi.reached (a check-in's total " +
			"reached the plan's FI number) and test; paged with `limit` and `offset`.",
		Data: event, Query: rest.PageQuery}
}

func (s *Handlers) List(c *rest.Ctx) {
	hs, err := s.db.Hooks(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	out := make([]hookDoc, 0, len(hs))
	for i := range hs {
		if hs[i].ID != store.MailHook {
			out = append(out, public(&hs[i]))
		}
	}
	s.list(c, out, len(out), MaxHooks, 0)
}

func public(h *store.Hook) hookDoc {
	return hookDoc{ID: h.ID, URL: h.URL, Events: h.Events, CreatedAt: h.CreatedAt}
}

// list answers items as a page of a list.
func (s *Handlers) list(c *rest.Ctx, items any, total, limit, offset int) {
	raw, err := json.Marshal(items)
	if err != nil {
		c.Internal(err)
		return
	}
	c.Begin().Raw(raw)
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

func (s *Handlers) Create(c *rest.Ctx) {
	var in hookIn
	if !rest.Decode(c, s.inSchema, &in) {
		return
	}
	if msg := CheckURL(in.URL, s.loopback); msg != "" {
		c.Fail("url", msg)
		return
	}
	id, err := newID("wh_")
	if err != nil {
		c.Internal(err)
		return
	}
	secret, err := NewSecret()
	if err != nil {
		c.Internal(err)
		return
	}
	h := store.Hook{ID: id, User: c.Principal.User, URL: in.URL, Events: in.Events, Secret: secret, CreatedAt: s.now().UTC().Truncate(time.Second)}
	switch err := s.db.CreateHook(h, MaxHooks); {
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, "webhook limit of "+strconv.Itoa(MaxHooks)+" reached; remove an endpoint first")
	case err != nil:
		c.Storage(err)
	default:
		c.JSON(fasthttp.StatusCreated, hookSecret{hookDoc: public(&h), Secret: secret})
	}
}

func (s *Handlers) Delete(c *rest.Ctx) {
	switch err := s.db.DeleteHook(c.Principal.User, string(c.Param("id"))); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such webhook")
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}

func (s *Handlers) Rotate(c *rest.Ctx) {
	secret, err := NewSecret()
	if err != nil {
		c.Internal(err)
		return
	}
	h, err := s.db.RotateHook(c.Principal.User, string(c.Param("id")), secret)
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such webhook")
	case err != nil:
		c.Storage(err)
	default:
		c.JSON(fasthttp.StatusOK, hookSecret{hookDoc: public(&h), Secret: secret})
	}
}

func (s *Handlers) Test(c *rest.Ctx) {
	user, hook := c.Principal.User, string(c.Param("id"))
	hs, err := s.db.Hooks(user)
	if err != nil {
		c.Storage(err)
		return
	}
	found := false
	for i := range hs {
		found = found || hs[i].ID == hook
	}
	if !found {
		c.Error(errcode.NotFound, "no such webhook")
		return
	}
	id, err := newID("evt_")
	if err != nil {
		c.Internal(err)
		return
	}
	now := s.now().UTC().Truncate(time.Second)
	ev := store.Event{ID: id, User: user, Type: store.TestEvent, CreatedAt: now, Hook: hook,
		Data: json.RawMessage(`{"message":"a test event from fiplan"}`)}
	if _, err := s.db.Emit([]store.Event{ev}, now); err != nil {
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusAccepted, eventOf(&ev))
}

func eventOf(e *store.Event) eventDoc {
	return eventDoc{ID: e.ID, Type: e.Type, CreatedAt: e.CreatedAt, PlanID: e.PlanID, Data: schema.RawObject(e.Data)}
}

func (s *Handlers) Deliveries(c *rest.Ctx) {
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	dls, total, err := s.db.Deliveries(c.Principal.User, offset, limit)
	if err != nil {
		c.Storage(err)
		return
	}
	out := make([]deliveryDoc, len(dls))
	for i, d := range dls {
		out[i] = deliveryDoc{ID: d.ID, EventID: d.EventID, EventType: d.EventType, WebhookID: d.HookID, Status: d.Status, Attempts: d.Attempts,
			NextAt: d.NextAt, LastStatus: d.LastStatus, LastError: d.LastError, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
	}
	s.list(c, out, total, limit, offset)
}

func (s *Handlers) Events(c *rest.Ctx) {
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	evs, total, err := s.db.Events(c.Principal.User, offset, limit)
	if err != nil {
		c.Storage(err)
		return
	}
	out := make([]eventDoc, len(evs))
	for i := range evs {
		out[i] = eventOf(&evs[i])
	}
	s.list(c, out, total, limit, offset)
}
