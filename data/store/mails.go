package store

import (
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Mails is the queue of mail that is no event's (a verification mail):
// the request that asks for one stores it and answers at once, and a
// worker on any node sends it under the outbox's leases.
//
//   - QueueMail stores a mail, due at once, in one durable transaction:
//     once it returns, the mail is sent even if the node that queued it
//     dies. The same transaction records when the user was last queued a
//     mail of its kind, so that a mail with Every set is refused
//     (*TooSoonError) within Every of the last one, whichever node queued
//     it; a mail refused, or not stored, leaves that record as it was.
//   - ClaimMails leases due mails to one worker as Claim leases
//     deliveries: a claimed mail is not claimed again until its lease
//     ends, and then it is, by any node (at least once; the mail's
//     Message-ID is its id, so a mail sent twice is one message to a
//     client that drops duplicates).
//   - SettleMail records an attempt: a mail sent, or given up (a zero
//     Retry), leaves the queue; a failure is tried again at Retry.
//     ErrStale when the lease was lost.
//
// The queue is not a record of the user's: it holds only mails not yet
// sent (and when the last of each kind was queued), goes with its user
// (DeleteUser) and is not exported; fiplan migrate moves it, so that no
// mail is lost and no limit restarts. Its mails are not events:
// /user/events never lists them.
type Mails interface {
	QueueMail(m Mail) error
	ClaimMails(now time.Time, lease time.Duration, max int) ([]Mail, error)
	SettleMail(a Attempt) error
}

// Mail kinds.
const (
	// MailVerify is the mail with the link that verifies a user's address.
	MailVerify = "verify"
)

// Mail is one queued mail.
type Mail struct {
	ID        string    `json:"id"`
	User      string    `json:"user"`
	Kind      string    `json:"kind"`
	To        string    `json:"to"`
	Attempts  int       `json:"attempts"`
	NextAt    time.Time `json:"nextAt"`
	LastError string    `json:"lastError,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	Lease     string    `json:"lease,omitempty"` // the token of the claim holding it
	// Every, when positive, is the least time from the last mail of
	// Kind queued to User (its CreatedAt) to this one's CreatedAt:
	// QueueMail refuses it sooner. It is the request's, never stored.
	Every time.Duration `json:"-"`
}

// TooSoonError refuses a mail queued within its Every of the last mail of
// its kind to its user.
type TooSoonError struct {
	Wait time.Duration // until the mail may be queued, at most Every
}

func (e *TooSoonError) Error() string {
	return fmt.Sprintf("a mail of this kind was queued less than its interval ago; wait %s", e.Wait)
}

// TooSoon says whether a mail of m's kind queued to m's user at last is
// too recent for m, and then for how long.
func TooSoon(m *Mail, last time.Time) error {
	if m.Every <= 0 || last.IsZero() {
		return nil
	}
	since := m.CreatedAt.Sub(last)
	if since >= m.Every {
		return nil
	}
	// A clock behind the one that queued the last mail waits no longer
	// than Every.
	return &TooSoonError{Wait: min(m.Every-since, m.Every)}
}

// NewMailID is a fresh mail id: mail_ and 24 hex digits.
func NewMailID() (string, error) {
	tok, err := newToken()
	return "mail_" + tok, err
}

// CheckMail refuses a mail a store cannot keep or a worker cannot send.
func CheckMail(m *Mail) error {
	switch {
	case !validID(m.User) || !validID(m.ID) || strings.IndexByte(m.ID, 0) >= 0:
		return errors.New("invalid user or mail id")
	case m.Kind == "" || m.To == "":
		return errors.New("a mail needs a kind and a recipient")
	}
	return nil
}

// In a user bucket, mails: mail id -> Mail JSON, and mailLast: kind ->
// when the last mail of that kind was queued (RFC 3339); at the top,
// mailDue: as due, when each queued mail may next be claimed.
var (
	bucketMails    = []byte("mails")
	bucketMailLast = []byte("mailLast")
	bucketMailDue  = []byte("mailDue")
)

// QueueMail stores m, due at m.NextAt (its CreatedAt when zero).
func (d *DB) QueueMail(m Mail) error {
	if err := CheckMail(&m); err != nil {
		return wrap("queue mail", err)
	}
	if m.NextAt.IsZero() {
		m.NextAt = m.CreatedAt
	}
	m.NextAt, m.CreatedAt, m.Lease = m.NextAt.UTC().Round(0), m.CreatedAt.UTC().Round(0), ""
	err := d.update(func(tx *bolt.Tx) error {
		u, err := ensureUser(tx, m.User, now())
		if err != nil {
			return err
		}
		b, err := u.CreateBucketIfNotExists(bucketMails)
		if err != nil {
			return err
		}
		if b.Get([]byte(m.ID)) != nil {
			return ErrConflict
		}
		last, err := u.CreateBucketIfNotExists(bucketMailLast)
		if err != nil {
			return err
		}
		var at time.Time
		if raw := last.Get([]byte(m.Kind)); raw != nil {
			if err := at.UnmarshalText(raw); err != nil {
				return err
			}
		}
		if err := TooSoon(&m, at); err != nil {
			return err
		}
		stamp, err := m.CreatedAt.MarshalText()
		if err != nil {
			return err
		}
		if err := last.Put([]byte(m.Kind), stamp); err != nil {
			return err
		}
		due, err := top(tx, bucketMailDue)
		if err != nil {
			return err
		}
		if err := due.Put(dueKey(m.NextAt, m.User, m.ID), nil); err != nil {
			return err
		}
		return putJSON(b, []byte(m.ID), m)
	})
	return wrap("queue mail", err)
}

// lookupMail finds user's queued mail id: its bucket and record; a nil
// bucket when there is none.
func lookupMail(tx *bolt.Tx, user, id string) (*bolt.Bucket, Mail, error) {
	var m Mail
	u, err := userBucket(tx, user)
	if err != nil || u == nil || u.Bucket(bucketMails) == nil {
		return nil, m, err
	}
	b := u.Bucket(bucketMails)
	ok, err := getJSON(b, []byte(id), &m)
	if err != nil || !ok {
		return nil, m, err
	}
	return b, m, nil
}

// ClaimMails leases due mails in one transaction.
func (d *DB) ClaimMails(at time.Time, lease time.Duration, max int) ([]Mail, error) {
	var out []Mail
	at = at.UTC().Round(0)
	err := d.update(func(tx *bolt.Tx) error {
		out = out[:0]
		due, err := top(tx, bucketMailDue)
		if err != nil {
			return err
		}
		taken, err := takeDue(due, at, max)
		if err != nil {
			return err
		}
		for _, t := range taken {
			user, id := t[0], t[1]
			b, m, err := lookupMail(tx, user, id)
			if err != nil {
				return err
			}
			if b == nil {
				continue // erased with its user, or settled
			}
			if m.Lease, err = newToken(); err != nil {
				return err
			}
			m.NextAt = at.Add(lease)
			if err := due.Put(dueKey(m.NextAt, user, id), nil); err != nil {
				return err
			}
			if err := putJSON(b, []byte(id), m); err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	return out, wrap("claim mails", err)
}

// SettleMail records an attempt of a claimed mail.
func (d *DB) SettleMail(a Attempt) error {
	err := d.update(func(tx *bolt.Tx) error {
		due, err := top(tx, bucketMailDue)
		if err != nil {
			return err
		}
		b, m, err := lookupMail(tx, a.User, a.ID)
		if err != nil {
			return err
		}
		if b == nil || m.Lease == "" || m.Lease != a.Lease {
			return ErrStale
		}
		if err := due.Delete(dueKey(m.NextAt, a.User, a.ID)); err != nil {
			return err
		}
		if !SettleMail(&m, &a) {
			return b.Delete([]byte(a.ID))
		}
		if err := due.Put(dueKey(m.NextAt, a.User, a.ID), nil); err != nil {
			return err
		}
		return putJSON(b, []byte(a.ID), m)
	})
	if errors.Is(err, ErrStale) {
		return err
	}
	return wrap("settle mail", err)
}

// SettleMail applies a to m, both stores' rule: it says whether the mail
// stays queued (a failure to try again at a.Retry).
func SettleMail(m *Mail, a *Attempt) (queued bool) {
	if a.OK || a.Retry.IsZero() {
		return false
	}
	m.Attempts++
	m.Lease, m.LastError, m.NextAt = "", a.Error, a.Retry.UTC().Round(0)
	return true
}
