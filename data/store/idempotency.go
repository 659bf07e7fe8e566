package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// Idempotency keeps, for a while, the answers to creates a client sent
// with an Idempotency-Key, so that a retry of a create whose answer was
// lost gets that answer again instead of a second record. Keys are per
// user; every node sharing the store sees them.
type Idempotency interface {
	// BeginIdempotent claims key (1..MaxIDLen bytes) for user's request
	// whose content hashes to hash, at now. When a claim younger than ttl
	// exists it is returned instead (prev, unchanged) and nothing is
	// written: the caller replays it (Done), reports a request still
	// running, or refuses another request under the same key (Hash
	// differs). Of racing claims of one key, from any node, exactly one
	// gets nil. Claims older than ttl are forgotten, a few at a time.
	BeginIdempotent(user, key string, hash [32]byte, now time.Time, ttl time.Duration) (prev *Replay, err error)
	// FinishIdempotent records the answer of the request that claimed key.
	FinishIdempotent(user, key string, status int, body []byte) error
	// AbandonIdempotent forgets the claim of a request that failed, so
	// that a retry runs again.
	AbandonIdempotent(user, key string) error
}

// Replay is a claimed Idempotency-Key: the request's hash, and its answer
// once Done.
type Replay struct {
	Hash   [32]byte
	At     time.Time // when the key was claimed
	Done   bool
	Status int
	Body   []byte // as FinishIdempotent was given it
}

// The layout (top-level buckets, created on first write):
//
//	idem     user \x00 key -> the claim (JSON)
//	idemBy   at (8 bytes, unix nanoseconds) || user \x00 key -> empty, claims in age order
var (
	bucketIdem   = []byte("idem")
	bucketIdemBy = []byte("idemBy")
)

// sweepClaims bounds the expired claims one BeginIdempotent forgets.
const sweepClaims = 64

type claimRecord struct {
	Hash   []byte `json:"hash"`
	At     int64  `json:"at"`
	Done   bool   `json:"done"`
	Status int    `json:"status,omitempty"`
	Body   []byte `json:"body,omitempty"`
}

func claimKey(user, key string) []byte {
	return append(append([]byte(user), 0), key...)
}

func claimOrder(at int64, k []byte) []byte {
	o := make([]byte, 8, 8+len(k))
	binary.BigEndian.PutUint64(o, uint64(at))
	return append(o, k...)
}

func validClaim(user, key string) error {
	if !validID(user) || !validID(key) || bytes.IndexByte([]byte(user), 0) >= 0 {
		return fmt.Errorf("invalid user or key (1..%d bytes)", MaxIDLen)
	}
	return nil
}

// BeginIdempotent claims key; see Idempotency.
func (d *DB) BeginIdempotent(user, key string, hash [32]byte, now time.Time, ttl time.Duration) (prev *Replay, err error) {
	if err := validClaim(user, key); err != nil {
		return nil, wrap("begin idempotent", err)
	}
	k, t, horizon := claimKey(user, key), now.UnixNano(), now.Add(-ttl).UnixNano()
	err = d.update(func(tx *bolt.Tx) error {
		claims, err := tx.CreateBucketIfNotExists(bucketIdem)
		if err != nil {
			return err
		}
		order, err := tx.CreateBucketIfNotExists(bucketIdemBy)
		if err != nil {
			return err
		}
		if err := sweepClaimed(claims, order, horizon); err != nil {
			return err
		}
		if raw := claims.Get(k); raw != nil {
			var c claimRecord
			if err := json.Unmarshal(raw, &c); err != nil {
				return fmt.Errorf("decode claim: %w", err)
			}
			if c.At > horizon {
				prev = c.replay()
				return nil
			}
			if err := order.Delete(claimOrder(c.At, k)); err != nil {
				return err
			}
		}
		raw, err := json.Marshal(claimRecord{Hash: hash[:], At: t})
		if err != nil {
			return err
		}
		if err := claims.Put(k, raw); err != nil {
			return err
		}
		return order.Put(claimOrder(t, k), nil)
	})
	return prev, wrap("begin idempotent", err)
}

func (c *claimRecord) replay() *Replay {
	r := &Replay{At: time.Unix(0, c.At), Done: c.Done, Status: c.Status, Body: c.Body}
	copy(r.Hash[:], c.Hash)
	return r
}

// sweepClaimed forgets up to sweepClaims claims made at or before horizon.
func sweepClaimed(claims, order *bolt.Bucket, horizon int64) error {
	c := order.Cursor()
	for i, o := 0, []byte(nil); i < sweepClaims; i++ {
		if o, _ = c.First(); len(o) <= 8 || int64(binary.BigEndian.Uint64(o)) > horizon {
			return nil
		}
		if err := claims.Delete(o[8:]); err != nil {
			return err
		}
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// FinishIdempotent records the answer; see Idempotency.
func (d *DB) FinishIdempotent(user, key string, status int, body []byte) error {
	if err := validClaim(user, key); err != nil {
		return wrap("finish idempotent", err)
	}
	k := claimKey(user, key)
	return wrap("finish idempotent", d.update(func(tx *bolt.Tx) error {
		claims := tx.Bucket(bucketIdem)
		if claims == nil {
			return ErrNotFound
		}
		raw := claims.Get(k)
		if raw == nil {
			return ErrNotFound
		}
		var c claimRecord
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("decode claim: %w", err)
		}
		c.Done, c.Status, c.Body = true, status, body
		raw, err := json.Marshal(c)
		if err != nil {
			return err
		}
		return claims.Put(k, raw)
	}))
}

// AbandonIdempotent forgets the claim; see Idempotency.
func (d *DB) AbandonIdempotent(user, key string) error {
	if err := validClaim(user, key); err != nil {
		return wrap("abandon idempotent", err)
	}
	k := claimKey(user, key)
	return wrap("abandon idempotent", d.update(func(tx *bolt.Tx) error {
		claims, order := tx.Bucket(bucketIdem), tx.Bucket(bucketIdemBy)
		if claims == nil || order == nil {
			return nil
		}
		return forgetClaim(claims, order, k)
	}))
}

func forgetClaim(claims, order *bolt.Bucket, k []byte) error {
	raw := claims.Get(k)
	if raw == nil {
		return nil
	}
	var c claimRecord
	if err := json.Unmarshal(raw, &c); err != nil {
		return fmt.Errorf("decode claim: %w", err)
	}
	if err := order.Delete(claimOrder(c.At, k)); err != nil {
		return err
	}
	return claims.Delete(k)
}

// forgetClaims removes every claim of user (erasure).
func forgetClaims(tx *bolt.Tx, user string) error {
	claims, order := tx.Bucket(bucketIdem), tx.Bucket(bucketIdemBy)
	if claims == nil || order == nil {
		return nil
	}
	prefix := append([]byte(user), 0)
	var ks [][]byte
	c := claims.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		ks = append(ks, bytes.Clone(k))
	}
	for _, k := range ks {
		if err := forgetClaim(claims, order, k); err != nil {
			return err
		}
	}
	return nil
}
