package store

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// Outbox is a user's webhook endpoints, the events raised about the user
// and the deliveries of those events to the endpoints.
//
//   - Emit writes each event once, under its id: an event whose id is stored
//     already is skipped, so that a job raising time-based events on several
//     nodes, or twice, raises each once. In the same transaction it writes
//     one pending delivery of the event to each of the user's endpoints
//     subscribed to its type (the outbox), so an event is never stored
//     without its deliveries nor a delivery without its event.
//   - Claim leases due deliveries to one worker: a claimed delivery is not
//     claimed again until its lease ends, and then it is, so a worker that
//     died mid-delivery loses nothing (at least once). On PostgreSQL, nodes
//     claim with FOR UPDATE SKIP LOCKED and never wait on each other.
//   - Settle records an attempt of a claimed delivery; ErrStale when the
//     lease was lost (it ended and another worker claimed the delivery).
//
// Secrets are stored as they are (they must sign), as the local-mode JWT
// secret is; Hooks returns them, and the callers that answer users drop
// them.
type Outbox interface {
	// CreateHook stores h; ErrLimit when its user has max endpoints.
	CreateHook(h Hook, max int) error
	// SetMailHook stores or replaces the user's email channel: the hook
	// whose id is MailHook and whose URL is mailto: and a verified
	// address. It does not count towards CreateHook's cap; its Events are
	// the types the user's email preferences choose (empty: none).
	SetMailHook(h Hook) error
	// Hooks lists user's endpoints, oldest first, secrets included.
	Hooks(user string) ([]Hook, error)
	// DeleteHook removes an endpoint; ErrNotFound when user has none by id.
	DeleteHook(user, id string) error
	// RotateHook replaces an endpoint's secret and returns the endpoint;
	// ErrNotFound when user has none by id.
	RotateHook(user, id, secret string) (Hook, error)
	// Emit stores the events not stored yet and their deliveries, in one
	// transaction, and says how many were new. An event for a user who
	// has no account is skipped.
	Emit(evs []Event, now time.Time) (int, error)
	// Events lists user's events, newest first, skipping offset and
	// taking at most limit; total counts them all.
	Events(user string, offset, limit int) ([]Event, int, error)
	// Deliveries lists user's deliveries as Events lists events.
	Deliveries(user string, offset, limit int) ([]Delivery, int, error)
	// Claim leases up to max deliveries due at now until now+lease.
	Claim(now time.Time, lease time.Duration, max int) ([]Job, error)
	// Settle records the attempt of a claimed delivery.
	Settle(a Attempt) error
	// EachPlan calls fn with every saved plan of every user; doc is valid
	// only during the call.
	EachPlan(fn func(user string, doc []byte) error) error
}

// Delivery states.
const (
	Pending   = "pending"
	Delivered = "delivered"
	Failed    = "failed"
)

// Hook is one webhook endpoint of a user.
type Hook struct {
	ID        string    `json:"id"`
	User      string    `json:"user"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	Secret    string    `json:"secret"`
	CreatedAt time.Time `json:"createdAt"`
}

// MailHook is the id of a user's email channel among its hooks: not of
// the grammar of webhook ids, so no webhook route reaches it.
const MailHook = "email"

// Wants reports whether h is subscribed to events of type typ.
func (h *Hook) Wants(typ string) bool {
	return slices.Contains(h.Events, typ)
}

// Event is something that happened to a user's plan or data. Its JSON is
// the body a webhook receives.
type Event struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"createdAt"`
	PlanID    string          `json:"planId,omitempty"`
	Data      json.RawMessage `json:"data"`
	// User is who the event concerns.
	User string `json:"-"`
	// Hook, when set, sends the event to that endpoint alone, whatever it
	// is subscribed to (a test event).
	Hook string `json:"-"`
}

// Delivery is one event's delivery to one endpoint.
type Delivery struct {
	ID         string    `json:"id"`
	User       string    `json:"user"`
	EventID    string    `json:"eventId"`
	EventType  string    `json:"eventType"`
	HookID     string    `json:"webhookId"`
	Status     string    `json:"status"`
	Attempts   int       `json:"attempts"`
	NextAt     time.Time `json:"nextAt"`
	LastStatus int       `json:"lastStatus,omitempty"`
	LastError  string    `json:"lastError,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
	Lease      string    `json:"lease,omitempty"` // the token of the claim holding it
}

// Job is a claimed delivery with what sending it needs.
type Job struct {
	Delivery
	URL, Secret string
	Body        []byte // the event's JSON
}

// Attempt is the outcome of sending a claimed delivery.
type Attempt struct {
	ID, User, Lease string
	At              time.Time
	OK              bool
	Status          int    // the endpoint's HTTP status, 0 when none
	Error           string // why it failed
	// Retry is when to try again after a failure; zero gives up (Failed).
	Retry time.Time
	// Postponed: the delivery was not sent (the user's deliveries are over
	// their rate); it is tried at Retry and no attempt is counted.
	Postponed bool
}

// DeliveryID is the stable id of event's delivery to hook.
func DeliveryID(event, hook string) string {
	s := sha256.Sum256([]byte(event + "\x00" + hook))
	return "dlv_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(s[:16]))
}

// In a user bucket:
//
//	webhooks      hook id -> Hook JSON
//	events        8-byte sequence -> Event JSON; eventIDs: id -> sequence
//	deliveries    8-byte sequence -> Delivery JSON; deliveryIDs: id -> sequence
//
// and at the top, due: 8-byte big-endian unix nanoseconds, the user, NUL,
// the delivery id -> nothing: when each pending delivery may next be
// claimed (its retry time, or the end of its lease).
var (
	bucketHooks       = []byte("webhooks")
	bucketEvents      = []byte("events")
	bucketEventIDs    = []byte("eventIDs")
	bucketDeliveries  = []byte("deliveries")
	bucketDeliveryIDs = []byte("deliveryIDs")
	bucketDue         = []byte("due")
)

func dueKey(at time.Time, user, id string) []byte {
	k := make([]byte, 8, 8+len(user)+1+len(id))
	binary.BigEndian.PutUint64(k, uint64(max(at.UnixNano(), 0)))
	k = append(k, user...)
	k = append(k, 0)
	return append(k, id...)
}

// CreateHook stores h in one transaction that decides the cap.
func (d *DB) CreateHook(h Hook, max int) error {
	if !validID(h.User) || !validID(h.ID) {
		return wrap("create webhook", errors.New("invalid user or webhook id"))
	}
	err := d.update(func(tx *bolt.Tx) error {
		b, err := ensureHooks(tx, h.User)
		if err != nil {
			return err
		}
		if b.Get([]byte(h.ID)) != nil {
			return ErrConflict
		}
		n := countUpTo(b, max+1)
		if b.Get([]byte(MailHook)) != nil {
			n--
		}
		if n >= max {
			return ErrLimit
		}
		return putJSON(b, []byte(h.ID), h)
	})
	return wrap("create webhook", err)
}

// SetMailHook stores or replaces h, the user's email channel.
func (d *DB) SetMailHook(h Hook) error {
	if !validID(h.User) || h.ID != MailHook {
		return wrap("set email channel", errors.New("invalid user or email channel id"))
	}
	err := d.update(func(tx *bolt.Tx) error {
		b, err := ensureHooks(tx, h.User)
		if err != nil {
			return err
		}
		return putJSON(b, []byte(h.ID), h)
	})
	return wrap("set email channel", err)
}

// ensureHooks is user's webhooks bucket, the user and the bucket made
// when absent; for write transactions.
func ensureHooks(tx *bolt.Tx, user string) (*bolt.Bucket, error) {
	u, err := ensureUser(tx, user, now())
	if err != nil {
		return nil, err
	}
	return u.CreateBucketIfNotExists(bucketHooks)
}

// Hooks lists user's endpoints, oldest first.
func (d *DB) Hooks(user string) ([]Hook, error) {
	var out []Hook
	err := d.view(func(tx *bolt.Tx) error {
		var err error
		out, err = hooksOf(tx, user)
		return err
	})
	return out, wrap("list webhooks", err)
}

func hooksOf(tx *bolt.Tx, user string) ([]Hook, error) {
	out := []Hook{}
	if !validID(user) {
		return out, nil
	}
	u, err := userBucket(tx, user)
	if err != nil || u == nil || u.Bucket(bucketHooks) == nil {
		return out, err
	}
	err = u.Bucket(bucketHooks).ForEach(func(k, v []byte) error {
		var h Hook
		if err := json.Unmarshal(v, &h); err != nil {
			return fmt.Errorf("webhook %q: %w", k, err)
		}
		out = append(out, h)
		return nil
	})
	slices.SortStableFunc(out, func(a, b Hook) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, err
}

// hookBucket is user's webhooks bucket; ErrNotFound when there is none.
func hookBucket(tx *bolt.Tx, user string) (*bolt.Bucket, error) {
	if !validID(user) {
		return nil, ErrNotFound
	}
	u, err := userBucket(tx, user)
	if err != nil {
		return nil, err
	}
	if u == nil || u.Bucket(bucketHooks) == nil {
		return nil, ErrNotFound
	}
	return u.Bucket(bucketHooks), nil
}

// DeleteHook removes user's endpoint id; its pending deliveries fail when
// claimed.
func (d *DB) DeleteHook(user, id string) error {
	err := d.update(func(tx *bolt.Tx) error {
		b, err := hookBucket(tx, user)
		if err != nil {
			return err
		}
		if b.Get([]byte(id)) == nil {
			return ErrNotFound
		}
		return b.Delete([]byte(id))
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("delete webhook", err)
}

// RotateHook replaces the secret of user's endpoint id.
func (d *DB) RotateHook(user, id, secret string) (Hook, error) {
	var h Hook
	err := d.update(func(tx *bolt.Tx) error {
		b, err := hookBucket(tx, user)
		if err != nil {
			return err
		}
		ok, err := getJSON(b, []byte(id), &h)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		h.Secret = secret
		return putJSON(b, []byte(id), h)
	})
	if errors.Is(err, ErrNotFound) {
		return h, err
	}
	return h, wrap("rotate webhook secret", err)
}

// Emit stores the new events and their deliveries in one transaction.
func (d *DB) Emit(evs []Event, at time.Time) (int, error) {
	n := 0
	err := d.update(func(tx *bolt.Tx) error {
		n = 0
		due, err := top(tx, bucketDue)
		if err != nil {
			return err
		}
		for i := range evs {
			fresh, err := emit(tx, due, &evs[i], at.UTC().Round(0))
			if err != nil {
				return err
			}
			if fresh {
				n++
			}
		}
		if n == 0 {
			return errNoChange
		}
		return nil
	})
	return n, wrap("emit events", err)
}

func emit(tx *bolt.Tx, due *bolt.Bucket, ev *Event, at time.Time) (bool, error) {
	if !validID(ev.User) || !validID(ev.ID) {
		return false, nil
	}
	u, err := userBucket(tx, ev.User)
	if err != nil || u == nil {
		return false, err
	}
	all, ids, err := seqBuckets(u, bucketEvents, bucketEventIDs)
	if err != nil {
		return false, err
	}
	if ids.Get([]byte(ev.ID)) != nil {
		return false, nil
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return false, err
	}
	if err := putSeq(all, ids, ev.ID, raw); err != nil {
		return false, err
	}
	hooks, err := hooksOf(tx, ev.User)
	if err != nil {
		return false, err
	}
	dall, dids, err := seqBuckets(u, bucketDeliveries, bucketDeliveryIDs)
	if err != nil {
		return false, err
	}
	for i := range hooks {
		h := &hooks[i]
		if (ev.Hook != "" && ev.Hook != h.ID) || (ev.Hook == "" && !h.Wants(ev.Type)) {
			continue
		}
		dl := Delivery{ID: DeliveryID(ev.ID, h.ID), User: ev.User, EventID: ev.ID, EventType: ev.Type, HookID: h.ID,
			Status: Pending, NextAt: at, CreatedAt: at, UpdatedAt: at}
		raw, err := json.Marshal(dl)
		if err != nil {
			return false, err
		}
		if err := putSeq(dall, dids, dl.ID, raw); err != nil {
			return false, err
		}
		if err := due.Put(dueKey(at, ev.User, dl.ID), nil); err != nil {
			return false, err
		}
	}
	return true, nil
}

func seqBuckets(u *bolt.Bucket, all, ids []byte) (*bolt.Bucket, *bolt.Bucket, error) {
	a, err := u.CreateBucketIfNotExists(all)
	if err != nil {
		return nil, nil, err
	}
	i, err := u.CreateBucketIfNotExists(ids)
	return a, i, err
}

func putSeq(all, ids *bolt.Bucket, id string, raw []byte) error {
	seq, err := all.NextSequence()
	if err != nil {
		return err
	}
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	if err := all.Put(k[:], raw); err != nil {
		return err
	}
	return ids.Put([]byte(id), k[:])
}

// newestFirst pages the JSON in user's bucket name, newest first.
func (d *DB) newestFirst(user string, name []byte, offset, limit int, fn func(raw []byte) error) (total int, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		if !validID(user) {
			return nil
		}
		u, err := userBucket(tx, user)
		if err != nil || u == nil || u.Bucket(name) == nil {
			return err
		}
		b := u.Bucket(name)
		total = int(b.Sequence()) // only ever appended to
		c := b.Cursor()
		i := 0
		for k, v := c.Last(); k != nil && i < offset+limit; k, v = c.Prev() {
			if i >= offset {
				if err := fn(v); err != nil {
					return err
				}
			}
			i++
		}
		return nil
	})
	return total, err
}

// Events lists user's events, newest first.
func (d *DB) Events(user string, offset, limit int) ([]Event, int, error) {
	out := []Event{}
	total, err := d.newestFirst(user, bucketEvents, offset, limit, func(raw []byte) error {
		var e Event
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		e.User = user
		out = append(out, e)
		return nil
	})
	return out, total, wrap("list events", err)
}

// Deliveries lists user's deliveries, newest first.
func (d *DB) Deliveries(user string, offset, limit int) ([]Delivery, int, error) {
	out := []Delivery{}
	total, err := d.newestFirst(user, bucketDeliveries, offset, limit, func(raw []byte) error {
		var dl Delivery
		if err := json.Unmarshal(raw, &dl); err != nil {
			return err
		}
		out = append(out, dl)
		return nil
	})
	return out, total, wrap("list deliveries", err)
}

// lookupDelivery finds user's delivery id: its bucket, key (a copy) and
// record; a nil bucket when there is none.
func lookupDelivery(tx *bolt.Tx, user, id string) (*bolt.Bucket, []byte, Delivery, error) {
	var dl Delivery
	u, err := userBucket(tx, user)
	if err != nil || u == nil || u.Bucket(bucketDeliveryIDs) == nil {
		return nil, nil, dl, err
	}
	k := u.Bucket(bucketDeliveryIDs).Get([]byte(id))
	if k == nil {
		return nil, nil, dl, nil
	}
	k = bytes.Clone(k)
	b := u.Bucket(bucketDeliveries)
	ok, err := getJSON(b, k, &dl)
	if err != nil || !ok {
		return nil, nil, dl, err
	}
	return b, k, dl, nil
}

// Claim leases due deliveries in one transaction.
func (d *DB) Claim(at time.Time, lease time.Duration, max int) ([]Job, error) {
	var jobs []Job
	err := d.update(func(tx *bolt.Tx) error {
		jobs = jobs[:0]
		due, err := top(tx, bucketDue)
		if err != nil {
			return err
		}
		taken, err := takeDue(due, at, max)
		if err != nil {
			return err
		}
		for _, t := range taken {
			job, ok, err := claim(tx, due, t[0], t[1], at.UTC().Round(0), lease)
			if err != nil {
				return err
			}
			if ok {
				jobs = append(jobs, job)
			}
		}
		return nil
	})
	return jobs, wrap("claim deliveries", err)
}

func claim(tx *bolt.Tx, due *bolt.Bucket, user, id string, at time.Time, lease time.Duration) (Job, bool, error) {
	var j Job
	b, k, dl, err := lookupDelivery(tx, user, id)
	if err != nil || b == nil || dl.Status != Pending {
		return j, false, err // erased with its user, or settled
	}
	u, err := userBucket(tx, user)
	if err != nil {
		return j, false, err
	}
	var h Hook
	found := false
	if hb := u.Bucket(bucketHooks); hb != nil {
		if found, err = getJSON(hb, []byte(dl.HookID), &h); err != nil {
			return j, false, err
		}
	}
	var body []byte
	if ids := u.Bucket(bucketEventIDs); ids != nil {
		if seq := ids.Get([]byte(dl.EventID)); seq != nil {
			body = bytes.Clone(u.Bucket(bucketEvents).Get(seq))
		}
	}
	dl.UpdatedAt = at
	if !found || body == nil {
		dl.Status, dl.LastError, dl.Lease = Failed, "the endpoint was removed", ""
		return j, false, putJSON(b, k, dl)
	}
	token, err := newToken()
	if err != nil {
		return j, false, err
	}
	dl.Lease, dl.NextAt = token, at.Add(lease)
	if err := due.Put(dueKey(dl.NextAt, user, id), nil); err != nil {
		return j, false, err
	}
	return Job{Delivery: dl, URL: h.URL, Secret: h.Secret, Body: body}, true, putJSON(b, k, dl)
}

// Settle records an attempt of a claimed delivery. Concurrent settles
// share a transaction and its fsync (bbolt's Batch).
func (d *DB) Settle(a Attempt) error {
	err := d.batch(func(tx *bolt.Tx) error {
		due, err := top(tx, bucketDue)
		if err != nil {
			return err
		}
		b, k, dl, err := lookupDelivery(tx, a.User, a.ID)
		if err != nil {
			return err
		}
		if b == nil {
			return ErrNotFound
		}
		if dl.Status != Pending || dl.Lease == "" || dl.Lease != a.Lease {
			return ErrStale
		}
		if err := due.Delete(dueKey(dl.NextAt, a.User, a.ID)); err != nil {
			return err
		}
		settle(&dl, &a)
		if dl.Status == Pending {
			if err := due.Put(dueKey(dl.NextAt, a.User, a.ID), nil); err != nil {
				return err
			}
		}
		return putJSON(b, k, dl)
	})
	if errors.Is(err, ErrStale) || errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("settle delivery", err)
}

// settle applies a to dl: both stores share it.
func settle(dl *Delivery, a *Attempt) {
	at := a.At.UTC().Round(0)
	if a.Postponed {
		dl.Lease, dl.UpdatedAt, dl.NextAt = "", at, a.Retry.UTC().Round(0)
		return
	}
	dl.Attempts++
	dl.Lease, dl.UpdatedAt, dl.LastStatus, dl.LastError = "", at, a.Status, a.Error
	switch {
	case a.OK:
		dl.Status = Delivered
	case a.Retry.IsZero():
		dl.Status = Failed
	default:
		dl.NextAt = a.Retry.UTC().Round(0)
	}
}

// Settle is settle for other stores.
func Settle(dl *Delivery, a *Attempt) { settle(dl, a) }

// EachPlan calls fn with every saved plan in one read transaction.
func (d *DB) EachPlan(fn func(user string, doc []byte) error) error {
	err := d.view(func(tx *bolt.Tx) error {
		us, err := users(tx)
		if err != nil {
			return err
		}
		return us.ForEachBucket(func(name []byte) error {
			all, _, err := planBuckets(us.Bucket(name), false)
			if err != nil || all == nil {
				return err
			}
			user := string(name)
			return eachPlan(all, func(doc []byte) error { return fn(user, doc) })
		})
	})
	return wrap("read plans", err)
}

func newToken() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", b), nil
}

// Event types.
const (
	CheckinDue       = "checkin.due"
	GuardrailCrossed = "guardrail.crossed"
	PlanOfftrack     = "plan.offtrack"
	FIReached        = "fi.reached"
	DataUpdated      = "data.updated"
	TestEvent        = "test"
)

// EventTypes are the types an endpoint may subscribe to.
var EventTypes = []string{CheckinDue, GuardrailCrossed, PlanOfftrack, FIReached, DataUpdated}

// EventID is the stable id of the event that parts (its type, user, plan
// and whatever makes it one) name: evt_ and 26 characters of base32, the
// same on every node and every run, so the outbox stores it once.
func EventID(parts ...string) string {
	s := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "evt_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(s[:16]))
}

// takeDue removes from the due index up to max entries due at or before
// at, in order, and returns the user and id each named; none due is
// errNoChange, so the transaction writes nothing.
func takeDue(due *bolt.Bucket, at time.Time, max int) ([][2]string, error) {
	var keys [][]byte
	limit := dueKey(at, "", "")[:8]
	c := due.Cursor()
	for k, _ := c.First(); k != nil && len(keys) < max && bytes.Compare(k[:8], limit) <= 0; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	if len(keys) == 0 {
		return nil, errNoChange
	}
	out := make([][2]string, 0, len(keys))
	for _, k := range keys {
		if err := due.Delete(k); err != nil {
			return nil, err
		}
		user, id, _ := strings.Cut(string(k[8:]), "\x00")
		out = append(out, [2]string{user, id})
	}
	return out, nil
}
