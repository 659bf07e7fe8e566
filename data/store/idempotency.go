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
//
// A create's answer is kept by the create itself: CreateAsset, CreatePlan
// and CreateKey take a Keep and write it in the same transaction as the
// record, so a crash leaves either both or neither. Of two creates under
// one key, from any node, exactly one writes; the other fails with
// *KeyUsed, naming the answer the first kept, and writes nothing.
type Idempotency interface {
	// Idempotent returns user's claim of key (1..MaxIDLen bytes) younger
	// than ttl at now, or nil when there is none: a kept answer (Done), or
	// a claim a release that claimed keys before their work left open.
	Idempotent(user, key string, now time.Time, ttl time.Duration) (*Replay, error)
}

// Replay is a claimed Idempotency-Key: the request's hash, and its answer
// once Done.
type Replay struct {
	Hash   [32]byte
	At     time.Time // when the key was claimed
	Done   bool
	Status int
	Body   []byte // as Keep.Body gave it
}

// Keep is an answer to keep under an Idempotency-Key, written by the
// create it answers, in that create's transaction. Claims older than TTL
// are forgotten, a few by each create that keeps one.
type Keep struct {
	User   string   // whose key (the create's user)
	Key    string   // the key's id, 1..MaxIDLen bytes
	Hash   [32]byte // the request's content, to tell a retry from another request
	At     time.Time
	TTL    time.Duration
	Status int
	Body   []byte // opaque to the store
}

// KeyUsed is the error of a create whose Keep names a key that holds a
// claim younger than its TTL: the create wrote nothing, and Prev is the
// claim, for the caller to replay (the same Hash) or refuse.
type KeyUsed struct{ Prev *Replay }

func (e *KeyUsed) Error() string { return "the Idempotency-Key has been used" }

// The layout (top-level buckets, created on first write):
//
//	idem     user \x00 key -> the claim (JSON)
//	idemBy   at (8 bytes, unix nanoseconds) || user \x00 key -> empty, claims in age order
var (
	bucketIdem   = []byte("idem")
	bucketIdemBy = []byte("idemBy")
)

// sweepClaims bounds the expired claims one create forgets.
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

// Check refuses a Keep no store can write.
func (k *Keep) Check(user string) error {
	if k.User != user {
		return fmt.Errorf("an answer kept for %q with a create of %q", k.User, user)
	}
	if k.TTL <= 0 {
		return fmt.Errorf("an answer kept for %v", k.TTL)
	}
	return validClaim(k.User, k.Key)
}

// Idempotent returns the live claim of key; see Idempotency.
func (d *DB) Idempotent(user, key string, now time.Time, ttl time.Duration) (prev *Replay, err error) {
	if validClaim(user, key) != nil {
		return nil, nil
	}
	err = d.view(func(tx *bolt.Tx) error {
		claims := tx.Bucket(bucketIdem)
		if claims == nil {
			return nil
		}
		c, err := liveClaim(claims, claimKey(user, key), now.Add(-ttl).UnixNano())
		if c != nil {
			prev = c.replay()
		}
		return err
	})
	return prev, wrap("read idempotent", err)
}

// liveClaim decodes the claim at k when it was made after horizon.
func liveClaim(claims *bolt.Bucket, k []byte, horizon int64) (*claimRecord, error) {
	raw := claims.Get(k)
	if raw == nil {
		return nil, nil
	}
	var c claimRecord
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("decode claim: %w", err)
	}
	if c.At <= horizon {
		return nil, nil
	}
	return &c, nil
}

// keep writes k's answer in tx, the create's transaction, or returns
// *KeyUsed when its key holds a live claim; nothing when k is nil.
func keep(tx *bolt.Tx, k *Keep) error {
	if k == nil {
		return nil
	}
	claims, err := tx.CreateBucketIfNotExists(bucketIdem)
	if err != nil {
		return err
	}
	order, err := tx.CreateBucketIfNotExists(bucketIdemBy)
	if err != nil {
		return err
	}
	horizon := k.At.Add(-k.TTL).UnixNano()
	if err := sweepClaimed(claims, order, horizon); err != nil {
		return err
	}
	key := claimKey(k.User, k.Key)
	prev, err := liveClaim(claims, key, horizon)
	if err != nil {
		return err
	}
	if prev != nil {
		return &KeyUsed{Prev: prev.replay()}
	}
	if err := forgetClaim(claims, order, key); err != nil { // an expired one
		return err
	}
	at := k.At.UnixNano()
	raw, err := json.Marshal(claimRecord{Hash: k.Hash[:], At: at, Done: true, Status: k.Status, Body: k.Body})
	if err != nil {
		return err
	}
	if err := claims.Put(key, raw); err != nil {
		return err
	}
	return order.Put(claimOrder(at, key), nil)
}

func (c *claimRecord) replay() *Replay {
	r := &Replay{At: time.Unix(0, c.At), Done: c.Done, Status: c.Status, Body: bytes.Clone(c.Body)}
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
