package store

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// Sessions is what the store keeps about sign-in sessions, so that every
// node sharing the store sees it at once.
type Sessions interface {
	// Revoke marks id (1..MaxIDLen bytes) until the time given: a revoked
	// session, or a one-use value spent. A later until extends a mark, an
	// earlier one leaves it. first reports whether id held no mark before,
	// so that of two racing calls for one id, from any node, exactly one
	// learns it was first. Marks that expired before now are forgotten a
	// few at a time. Times are the caller's clock, the one that judges the
	// credentials the marks are about.
	Revoke(id string, until, now time.Time) (first bool, err error)
	// Revoked reports whether id holds a mark that lasts past now.
	Revoked(id string, now time.Time) (bool, error)
	// MarksAfter calls fn for each mark numbered above after (every mark
	// takes a new number when it is made or extended, on any node), in no
	// set order, and returns the highest number it saw (after when none).
	// A node's mirror of the marks polls it; marks whose until has passed
	// may be left out.
	MarksAfter(after int64, fn func(id string, until time.Time)) (last int64, err error)
	// SaveTier sets the user's tier (creating the account) as of issued, the
	// time the credential carrying it was issued: a credential issued no
	// later than the one that last set the tier changes nothing, so an
	// older credential still in use cannot undo a newer one's tier.
	SaveTier(user, tier string, issued time.Time) error
}

// The layout of the session records (buckets created on first write):
//
//	revoked                   bucket: id -> 8-byte big-endian until (unix nanoseconds)
//	revokedBy                 bucket: until || id -> empty, the marks in expiry order
//
// The issue time of the credential that set a user's tier is the account
// record's tierAt (unix nanoseconds).
var (
	bucketRevoked   = []byte("revoked")
	bucketRevokedBy = []byte("revokedBy")
)

// sweepMarks bounds the expired marks one Revoke forgets.
const sweepMarks = 64

// markCache mirrors the revoked bucket in memory, so that Revoked, asked
// on every request with a session token, reads a map and not a
// transaction. One process holds the file, so every Revoke passes here:
// the mirror is loaded once and then updated by each committed Revoke.
type markCache struct {
	mu  sync.RWMutex
	m   map[string]int64 // id -> until, unix nanoseconds; nil until loaded
	seq map[string]int64 // id -> its number for MarksAfter
	n   int64            // the last number given
}

// number gives id the next number; under mu.
func (c *markCache) number(id string) {
	c.n++
	c.seq[id] = c.n
}

// load fills the mirror from the file unless it is loaded; a failed load
// is tried again by the next call.
func (c *markCache) load(d *DB) error {
	c.mu.RLock()
	loaded := c.m != nil
	c.mu.RUnlock()
	if loaded {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil {
		return nil
	}
	m, seq := map[string]int64{}, map[string]int64{}
	err := d.view(func(tx *bolt.Tx) error {
		marks := tx.Bucket(bucketRevoked)
		if marks == nil {
			return nil
		}
		return marks.ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				m[string(k)] = int64(binary.BigEndian.Uint64(v))
			}
			return nil
		})
	})
	if err != nil {
		return wrap("revoked", err)
	}
	c.m, c.seq = m, seq
	for id := range m {
		c.number(id)
	}
	return nil
}

// Revoke marks id until the time given; see Sessions.
func (d *DB) Revoke(id string, until, now time.Time) (first bool, err error) {
	if !validID(id) {
		return false, wrap("revoke", fmt.Errorf("invalid id (1..%d bytes)", MaxIDLen))
	}
	if err := d.marks.load(d); err != nil {
		return false, err
	}
	at, t := until.UnixNano(), now.UnixNano()
	err = d.update(func(tx *bolt.Tx) error {
		marks, err := tx.CreateBucketIfNotExists(bucketRevoked)
		if err != nil {
			return err
		}
		order, err := tx.CreateBucketIfNotExists(bucketRevokedBy)
		if err != nil {
			return err
		}
		if err := sweepRevoked(marks, order, t); err != nil {
			return err
		}
		old := marks.Get([]byte(id))
		first = old == nil
		if len(old) == 8 {
			prev := int64(binary.BigEndian.Uint64(old))
			if prev >= at {
				return nil
			}
			if err := order.Delete(markKey(prev, id)); err != nil {
				return err
			}
		}
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], uint64(at))
		if err := marks.Put([]byte(id), v[:]); err != nil {
			return err
		}
		return order.Put(markKey(at, id), nil)
	})
	if err != nil {
		return false, wrap("revoke", err)
	}
	// The mirror changes once the mark is committed and before Revoke
	// returns, so that a Revoked after it sees the mark; requests do not
	// wait for the commit.
	d.marks.mu.Lock()
	defer d.marks.mu.Unlock()
	for k, u := range d.marks.m {
		if u < t {
			delete(d.marks.m, k)
			delete(d.marks.seq, k)
		}
	}
	if at > d.marks.m[id] {
		d.marks.m[id] = at
		d.marks.number(id)
	}
	return first, nil
}

// sweepRevoked forgets up to sweepMarks marks that expired before now.
func sweepRevoked(marks, order *bolt.Bucket, now int64) error {
	c := order.Cursor()
	n := 0
	for k, _ := c.First(); len(k) > 8 && n < sweepMarks; k, _ = c.First() {
		n++
		if int64(binary.BigEndian.Uint64(k)) >= now {
			return nil
		}
		if err := marks.Delete(k[8:]); err != nil {
			return err
		}
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

func markKey(at int64, id string) []byte {
	k := make([]byte, 8, 8+len(id))
	binary.BigEndian.PutUint64(k, uint64(at))
	return append(k, id...)
}

// Revoked reports whether id holds an unexpired mark.
func (d *DB) Revoked(id string, now time.Time) (bool, error) {
	if !validID(id) {
		return false, nil
	}
	d.marks.mu.RLock()
	until, ok := d.marks.m[id]
	loaded := d.marks.m != nil
	d.marks.mu.RUnlock()
	if !loaded {
		if err := d.marks.load(d); err != nil {
			return false, err
		}
		return d.Revoked(id, now)
	}
	return ok && until > now.UnixNano(), nil
}

// MarksAfter reads the in-memory mirror of the file's marks (see
// Sessions): one process holds the file, so the numbers are this
// process's and start again at each open.
func (d *DB) MarksAfter(after int64, fn func(id string, until time.Time)) (int64, error) {
	if err := d.marks.load(d); err != nil {
		return after, err
	}
	d.marks.mu.RLock()
	defer d.marks.mu.RUnlock()
	last := after
	for id, n := range d.marks.seq {
		if n > after {
			fn(id, time.Unix(0, d.marks.m[id]))
			last = max(last, n)
		}
	}
	return last, nil
}

// tierRecord is the account record with the issue time of the credential
// that last set the tier; Account and Export leave tierAt out.
type tierRecord struct {
	Account
	TierAt int64 `json:"tierAt,omitempty"`
}

// SaveTier sets the tier as of issued; see Sessions. A read transaction
// decides first whether there is anything to write.
func (d *DB) SaveTier(user, tier string, issued time.Time) error {
	if !validID(user) {
		return wrap("save tier", fmt.Errorf("invalid user id (1..%d bytes)", MaxIDLen))
	}
	at := issued.UnixNano()
	newer := func(tx *bolt.Tx) (bool, error) {
		b, err := userBucket(tx, user)
		if err != nil || b == nil {
			return true, err
		}
		var r tierRecord
		if _, err := getJSON(b, keyAccount, &r); err != nil {
			return false, err
		}
		return r.TierAt < at, nil
	}
	var write bool
	err := d.view(func(tx *bolt.Tx) (err error) {
		write, err = newer(tx)
		return err
	})
	if err != nil || !write {
		return wrap("save tier", err)
	}
	err = d.update(func(tx *bolt.Tx) error {
		if write, err := newer(tx); err != nil || !write {
			if err == nil {
				err = errNoChange
			}
			return err
		}
		t := now()
		b, err := ensureUser(tx, user, t)
		if err != nil {
			return err
		}
		var r tierRecord
		if _, err := getJSON(b, keyAccount, &r); err != nil {
			return err
		}
		if r.Tier != tier {
			r.Tier, r.UpdatedAt = tier, t
		}
		r.TierAt = at
		raw, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("encode %q: %w", keyAccount, err)
		}
		return b.Put(keyAccount, raw)
	})
	return wrap("save tier", err)
}
