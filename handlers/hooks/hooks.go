// Package hooks serves a plan that keeps running: the user's webhook
// endpoints (/user/webhooks), the events raised about the user's plans
// (/user/events) and their deliveries (/user/deliveries), and the Worker
// that signs and sends the deliveries and raises the yearly check-ins.
package hooks

import (
	"strconv"
	"time"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// MaxHooks caps the endpoints of one user.
const MaxHooks = 10

// Hooks is the webhook endpoint as an owned document; its id grammar is
// wh_ and 26 characters of base32 (a-z, 2-7). Its list is short and
// answered whole; it has no entity tag.
var Hooks = owned.NewKind(owned.Kind{Noun: "webhook", Article: "a", Plural: "endpoints", Tag: "webhooks", Prefix: "wh_",
	Max: MaxHooks, Remedy: "remove an endpoint first", Unpaged: true})

// HookID is the grammar of an endpoint id.
var HookID = Hooks.ID

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
	notFound := Hooks.NotFoundDoc()
	d := &s.Docs
	d.List = Hooks.Doc(owned.List, "List your webhook endpoints", "Your endpoints, oldest first, without their secrets (at most "+max+").", nil, hook)
	d.Create = Hooks.Doc(owned.Create, "Register a webhook endpoint",
		"Registers `url` for the event types in `events`; the answer holds the signing secret, shown only now. Every request carries the "+
			"Standard Webhooks headers webhook-id (the event's id), webhook-timestamp and webhook-signature; a delivery not answered 2xx is "+
			"retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed. At most "+max+" endpoints. "+
			"Example: {\"url\":\"https://home.example/fiplan\",\"events\":[\"checkin.due\",\"guardrail.crossed\"]}.",
		s.inSchema, secret)
	d.Delete = Hooks.Doc(owned.Delete, "Remove a webhook endpoint", "Removes the endpoint; its pending deliveries are marked failed.", nil, nil)
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

func (s *Handlers) List(c *rest.Ctx) { Hooks.List(c, s.appendHooks) }

// appendHooks appends the caller's endpoints, comma-separated, without
// the email channel; the list is short and never paged.
func (s *Handlers) appendHooks(dst []byte, user string, _, _ int) ([]byte, int, error) {
	hs, err := s.db.Hooks(user)
	if err != nil {
		return dst, 0, err
	}
	n := 0
	for i := range hs {
		if hs[i].ID == store.MailHook {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		doc, err := json.Marshal(public(&hs[i]))
		if err != nil {
			return dst, 0, err
		}
		dst = append(dst, doc...)
		n++
	}
	return dst, n, nil
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
	id, err := Hooks.NewID()
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
	if err := s.db.CreateHook(h, MaxHooks); err != nil {
		Hooks.Failed(c, err)
		return
	}
	c.JSON(fasthttp.StatusCreated, hookSecret{hookDoc: public(&h), Secret: secret})
}

func (s *Handlers) Delete(c *rest.Ctx) {
	Hooks.Delete(c, func(user, id string, _ func([]byte) error) error { return s.db.DeleteHook(user, id) })
}

func (s *Handlers) Rotate(c *rest.Ctx) {
	secret, err := NewSecret()
	if err != nil {
		c.Internal(err)
		return
	}
	h, err := s.db.RotateHook(c.Principal.User, string(c.Param("id")), secret)
	if err != nil {
		Hooks.Failed(c, err)
		return
	}
	c.JSON(fasthttp.StatusOK, hookSecret{hookDoc: public(&h), Secret: secret})
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
		Hooks.NotFound(c)
		return
	}
	id, err := owned.NewID("evt_")
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
