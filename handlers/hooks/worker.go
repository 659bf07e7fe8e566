package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"fiplan/data/store"
)

// Backoff is the wait before each retry of a failed delivery: the
// schedule the Standard Webhooks specification suggests, about 28 hours
// in all. After the last the delivery is marked failed.
var Backoff = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// Worker delivers the outbox: it claims due deliveries under a lease,
// sends each signed, and records the attempt. On PostgreSQL every node
// runs one, and the store's row locks give each delivery to one of them;
// a node that dies mid-delivery leaves its lease to end, and another node
// sends the delivery again (at least once: receivers drop duplicates by
// the webhook-id header, the event's id). It also raises the check-ins
// that fall due (RaiseDue).
type Worker struct {
	DB     store.Store
	Client *http.Client
	Now    func() time.Time
	Log    *slog.Logger
	// Lease is how long a claim holds a delivery (default 2 minutes, past
	// the client's timeout); Poll the pause when nothing is due (default
	// 1 s); Batch the deliveries claimed at once (default 32); Senders
	// the deliveries sent at once (default 8).
	Lease   time.Duration
	Poll    time.Duration
	Batch   int
	Senders int
	// RaiseEvery is the pause between two runs of RaiseDue (default 1 h).
	RaiseEvery time.Duration
	// PerUser caps the deliveries a minute to one user's endpoints from
	// this worker (default DefaultPerUser); past it they wait.
	PerUser int

	// Recheck, when set, runs with RaiseDue: it computes again the saved
	// plans computed with older embedded data and raises data.updated
	// (plans.Handlers.Recheck).
	Recheck func(now time.Time) (int, error)

	// Mail sends the deliveries to a user's email channel (the hook
	// store.MailHook); nil when no SMTP server is configured, and then
	// they fail as webhooks that cannot be reached do.
	Mail Mailer

	once sync.Once
	rate *userRate
}

func (w *Worker) defaults() {
	w.once.Do(func() {
		if w.PerUser <= 0 {
			w.PerUser = DefaultPerUser
		}
		w.rate = newUserRate(w.PerUser)
	})
	if w.Now == nil {
		w.Now = time.Now
	}
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	if w.Lease <= 0 {
		w.Lease = 2 * time.Minute
	}
	if w.Poll <= 0 {
		w.Poll = time.Second
	}
	if w.Batch <= 0 {
		w.Batch = 32
	}
	if w.Senders <= 0 {
		w.Senders = 8
	}
	if w.RaiseEvery <= 0 {
		w.RaiseEvery = time.Hour
	}
}

// Run delivers until ctx ends. A store that fails (a database down) is
// retried every few seconds and logged at most once a minute.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	var raised, logged time.Time
	warn := func(msg string, err error) {
		if now := time.Now(); now.Sub(logged) >= time.Minute {
			w.Log.Warn(msg, "err", err)
			logged = now
		}
	}
	for ctx.Err() == nil {
		if now := w.Now(); now.Sub(raised) >= w.RaiseEvery {
			_, err := w.RaiseDue(now)
			if err != nil {
				warn("cannot raise due check-ins", err)
			} else if w.Recheck != nil {
				if _, err = w.Recheck(now); err != nil {
					warn("cannot compute plans again on new data", err)
				}
			}
			if err == nil {
				raised = now
			}
			w.rate.sweep(now)
		}
		n, err := w.Deliver(ctx)
		pause := w.Poll
		if err != nil {
			warn("cannot deliver webhooks", err)
			pause = time.Duration(store.UnavailableRetry) * time.Second
		}
		m, merr := w.DeliverMails(ctx)
		if merr != nil {
			warn("cannot send queued mail", merr)
			pause = time.Duration(store.UnavailableRetry) * time.Second
		}
		if n+m == 0 || err != nil || merr != nil {
			select {
			case <-ctx.Done():
			case <-time.After(pause):
			}
		}
	}
}

// Deliver claims one batch of due deliveries and sends them; it says how
// many it claimed.
func (w *Worker) Deliver(ctx context.Context) (int, error) {
	w.defaults()
	jobs, err := w.DB.Claim(w.Now(), w.Lease, w.Batch)
	if err != nil || len(jobs) == 0 {
		return 0, err
	}
	sem := make(chan struct{}, w.Senders)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := range jobs {
		sem <- struct{}{}
		wg.Add(1)
		go func(j *store.Job) {
			defer func() { <-sem; wg.Done() }()
			if err := w.send(ctx, j); err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		}(&jobs[i])
	}
	wg.Wait()
	return len(jobs), first
}

// send makes one attempt of j and records it.
func (w *Worker) send(ctx context.Context, j *store.Job) error {
	a := store.Attempt{ID: j.ID, User: j.User, Lease: j.Lease}
	if ok, next := w.rate.take(j.User, w.Now()); !ok {
		a.At, a.Retry, a.Postponed = w.Now(), next, true
		if err := w.DB.Settle(a); err != nil && !errors.Is(err, store.ErrStale) {
			return err
		}
		return nil
	}
	var err error
	if j.HookID == store.MailHook {
		err = errMailOff
		if w.Mail != nil {
			err = w.Mail.SendEvent(ctx, j)
		}
	} else {
		var h Headers
		h, err = Sign(j.Secret, j.EventID, w.Now(), j.Body)
		if err == nil {
			a.Status, err = post(ctx, w.Client, j.URL, h, j.Body)
		}
	}
	a.At = w.Now()
	switch {
	case err == nil && j.HookID == store.MailHook:
		a.OK = true
	case err != nil:
		a.Error = trim(err.Error())
	case a.Status >= 200 && a.Status < 300:
		a.OK = true
	default:
		a.Error = "the endpoint answered HTTP " + strconv.Itoa(a.Status)
	}
	if !a.OK && j.Attempts < len(Backoff) {
		a.Retry = a.At.Add(Backoff[j.Attempts])
	}
	if err := w.DB.Settle(a); err != nil && !errors.Is(err, store.ErrStale) {
		return err
	}
	return nil
}

// Mailer sends an event's email to the address of a job of the email
// channel (its URL, mailto: and the address), and the queue's mails.
type Mailer interface {
	SendEvent(ctx context.Context, j *store.Job) error
	SendMail(ctx context.Context, m *store.Mail) error
}

// DeliverMails claims one batch of the mail queue's due mails and sends
// them, as Deliver does deliveries: a failure is tried again after the
// same backoff, and after the last it is given up (and logged). A worker
// without a Mailer claims none, so that a node with email off leaves the
// queue to the nodes that have it. It says how many it claimed.
func (w *Worker) DeliverMails(ctx context.Context) (int, error) {
	w.defaults()
	if w.Mail == nil {
		return 0, nil
	}
	ms, err := w.DB.ClaimMails(w.Now(), w.Lease, w.Batch)
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	sem := make(chan struct{}, w.Senders)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := range ms {
		sem <- struct{}{}
		wg.Add(1)
		go func(m *store.Mail) {
			defer func() { <-sem; wg.Done() }()
			if err := w.sendMail(ctx, m); err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		}(&ms[i])
	}
	wg.Wait()
	return len(ms), first
}

// sendMail makes one attempt of the queued mail m and records it.
func (w *Worker) sendMail(ctx context.Context, m *store.Mail) error {
	a := store.Attempt{ID: m.ID, User: m.User, Lease: m.Lease}
	err := w.Mail.SendMail(ctx, m)
	a.At = w.Now()
	switch {
	case err == nil:
		a.OK = true
	case m.Attempts < len(Backoff):
		a.Error, a.Retry = trim(err.Error()), a.At.Add(Backoff[m.Attempts])
	default:
		w.Log.Warn("a queued mail is given up", "mail", m.ID, "kind", m.Kind, "attempts", m.Attempts+1, "err", err)
	}
	if err := w.DB.SettleMail(a); err != nil && !errors.Is(err, store.ErrStale) {
		return err
	}
	return nil
}

var errMailOff = errors.New("email is off on this server: no SMTP server is configured")

func trim(s string) string {
	if len(s) > 300 {
		return s[:300]
	}
	return s
}

// dueWindow is how long after its date a check-in is still raised: a
// node down on the day raises it when it returns, but a plan saved long
// after its date waits for the next year.
const dueWindow = 30 * 24 * time.Hour

// RaiseDue raises checkin.due for every saved plan whose yearly check-in
// date (its checkinDate, MM-DD, else the anniversary of its creation)
// passed within the last 30 days, once a year: the event's id is made of
// the plan and the year, so every run and every node raises it once.
func (w *Worker) RaiseDue(now time.Time) (int, error) {
	w.defaults()
	now = now.UTC()
	var evs []store.Event
	err := w.DB.EachPlan(func(user string, doc []byte) error {
		var p struct {
			ID          string    `json:"id"`
			Name        string    `json:"name"`
			CreatedAt   time.Time `json:"createdAt"`
			CheckinDate string    `json:"checkinDate"`
		}
		if json.Unmarshal(doc, &p) != nil || p.ID == "" {
			return nil
		}
		due, ok := DueDate(p.CheckinDate, p.CreatedAt, now)
		if !ok {
			return nil
		}
		data, err := json.Marshal(map[string]string{"planId": p.ID, "planName": p.Name, "checkinDate": due.Format(time.DateOnly)})
		if err != nil {
			return err
		}
		evs = append(evs, store.Event{ID: store.EventID(store.CheckinDue, user, p.ID, strconv.Itoa(due.Year())), User: user,
			Type: store.CheckinDue, PlanID: p.ID, CreatedAt: now.Truncate(time.Second), Data: data})
		return nil
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for len(evs) > 0 {
		part := evs[:min(len(evs), 500)]
		evs = evs[len(part):]
		m, err := w.DB.Emit(part, now)
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// DueDate is the check-in date of a plan made at created, with its
// checkinDate mmdd (MM-DD, empty for the anniversary), that falls due at
// now: the latest on or before now, not in the plan's first year, and
// within dueWindow.
func DueDate(mmdd string, created, now time.Time) (time.Time, bool) {
	month, day := created.Month(), created.Day()
	if t, err := time.Parse("01-02", mmdd); err == nil {
		month, day = t.Month(), t.Day()
	}
	due := date(now.Year(), month, day)
	if due.After(now) {
		due = date(now.Year()-1, month, day)
	}
	if due.Year() <= created.Year() || now.Sub(due) > dueWindow {
		return time.Time{}, false
	}
	return due, true
}

// date is y-m-d, a 29 February falling on 28 February in other years.
func date(y int, m time.Month, d int) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if t.Month() != m {
		t = time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC)
	}
	return t
}
