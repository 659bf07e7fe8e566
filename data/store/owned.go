package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The documents a user owns (assets, saved plans) are created the same way
// in bbolt: the user's id checked, the answer under an Idempotency-Key kept
// in the same transaction, the user's bucket made, the id new, the per-user
// cap, and the document under the next sequence number with id -> key
// beside it. createOwned and putOwned are that once; each kind adds its
// own checks and indexes around putOwned.

// createOwned runs insert in one durable, batched transaction that first
// keeps kept (see CreateAsset) and makes user's bucket u; op names the
// operation in errors.
func (d *DB) createOwned(op, user string, kept *Keep, insert func(tx *bolt.Tx, u *bolt.Bucket) error) error {
	if !validID(user) {
		return wrap(op, fmt.Errorf("invalid user id (1..%d bytes)", MaxIDLen))
	}
	if kept != nil {
		if err := kept.Check(user); err != nil {
			return wrap(op, err)
		}
	}
	// Batch may run fn more than once (after a rollback); fn touches nothing
	// outside the transaction, so a rerun starts from the committed state.
	err := d.batch(func(tx *bolt.Tx) error {
		if err := keep(tx, kept); err != nil {
			return err
		}
		u, err := ensureUser(tx, user, now())
		if err != nil {
			return err
		}
		return insert(tx, u)
	})
	return wrap(op, err)
}

// putOwned stores doc under all's next sequence number and id -> entry(key)
// in ids: ErrConflict when ids holds id, ErrLimit when it holds max ids.
func putOwned(all, ids *bolt.Bucket, id string, max int, doc []byte, entry func(k []byte) []byte) error {
	if ids.Get([]byte(id)) != nil {
		return ErrConflict
	}
	// Count with a cursor: Bucket.Stats reads committed pages only and
	// misses the other creates of the same Batch transaction.
	if countUpTo(ids, max) >= max {
		return ErrLimit
	}
	seq, err := all.NextSequence()
	if err != nil {
		return err
	}
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	if err := all.Put(k[:], doc); err != nil {
		return err
	}
	return ids.Put([]byte(id), entry(k[:]))
}
