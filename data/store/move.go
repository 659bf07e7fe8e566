package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// Everything is every record a store holds, as stored, for moving a
// deployment to another backend (fiplan migrate -from). Every slice is
// the caller's own copy.
type Everything struct {
	Secret    []byte // the local-mode secret; nil when none was made
	Users     []UserRecords
	Flags     []FlagRecord // in key order
	Exposures []Exposure   // of existing flags, users with and without an account
	// Revocations are the marks of signed-out sessions and spent one-use
	// values, each until it expires: without them a moved deployment
	// would take back a session signed out before the move.
	Revocations []Revocation
}

// Revocation is one mark of Sessions.Revoke.
type Revocation struct {
	ID    string
	Until time.Time
}

// UserRecords is everything stored under one user.
type UserRecords struct {
	ID      string
	Account Account
	Docs    map[string][]byte // JSON documents by name, byte for byte
	Assets  []AssetRecord     // in creation order
	Plans   []PlanRecord      // in creation order
	Keys    []KeyRecord
	// Hooks are the webhook endpoints, secrets included; Events and
	// Deliveries the outbox, in creation order.
	Hooks      []Hook
	Events     []Event
	Deliveries []Delivery
	// Mails are the mails queued and not yet sent; MailLast, when the
	// last mail of each kind was queued (what holds the next back).
	Mails    []Mail
	MailLast map[string]time.Time
}

// AssetRecord is one asset: its index fields and its JSON.
type AssetRecord struct {
	Meta AssetMeta
	Doc  []byte
}

// KeyRecord is an API key's metadata with the SHA-256 it is found by.
type KeyRecord struct {
	Key  Key
	Hash [32]byte
}

// FlagRecord is a feature flag's JSON definition.
type FlagRecord struct {
	Key string
	Def []byte
}

// Exposure is the variant a user got of a flag.
type Exposure struct {
	Flag, User, Variant string
}

// Everything reads every record in one read transaction, so the copy is
// one consistent snapshot.
func (d *DB) Everything() (*Everything, error) {
	e := &Everything{}
	err := d.view(func(tx *bolt.Tx) error {
		meta, err := top(tx, bucketMeta)
		if err != nil {
			return err
		}
		if s := meta.Get(keySecret); s != nil {
			e.Secret = bytes.Clone(s)
		}
		flags, err := top(tx, bucketFlags)
		if err != nil {
			return err
		}
		err = flags.ForEach(func(k, v []byte) error {
			e.Flags = append(e.Flags, FlagRecord{Key: string(k), Def: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		ex, err := top(tx, bucketExpose)
		if err != nil {
			return err
		}
		err = ex.ForEachBucket(func(flag []byte) error {
			if flags.Get(flag) == nil {
				return nil // left behind by a deleted flag
			}
			return ex.Bucket(flag).ForEach(func(user, variant []byte) error {
				e.Exposures = append(e.Exposures, Exposure{Flag: string(flag), User: string(user), Variant: string(variant)})
				return nil
			})
		})
		if err != nil {
			return err
		}
		if marks := tx.Bucket(bucketRevoked); marks != nil {
			err = marks.ForEach(func(id, until []byte) error {
				if len(until) != 8 {
					return fmt.Errorf("revocation %q has a %d-byte time", id, len(until))
				}
				e.Revocations = append(e.Revocations, Revocation{ID: string(id), Until: time.Unix(0, int64(binary.BigEndian.Uint64(until)))})
				return nil
			})
			if err != nil {
				return err
			}
		}
		all, err := users(tx)
		if err != nil {
			return err
		}
		return all.ForEachBucket(func(id []byte) error {
			u, err := userRecords(all.Bucket(id), string(id))
			if err != nil {
				return fmt.Errorf("user %q: %w", id, err)
			}
			e.Users = append(e.Users, u)
			return nil
		})
	})
	return e, wrap("read every record", err)
}

func userRecords(u *bolt.Bucket, id string) (UserRecords, error) {
	r := UserRecords{ID: id, Docs: map[string][]byte{}}
	var err error
	if r.Account, err = accountIn(u); err != nil {
		return r, err
	}
	err = u.ForEach(func(k, v []byte) error {
		if v != nil && !bytes.Equal(k, keyAccount) {
			r.Docs[string(k)] = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return r, err
	}
	if keys := u.Bucket(bucketKeys); keys != nil {
		err = keys.ForEach(func(kid, raw []byte) error {
			if raw == nil {
				return nil
			}
			var s keyStored
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("decode key %q: %w", kid, err)
			}
			if len(s.Hash) != 32 {
				return fmt.Errorf("key %q has a %d-byte hash", kid, len(s.Hash))
			}
			s.Owner = id
			k := KeyRecord{Key: s.key()}
			copy(k.Hash[:], s.Hash)
			r.Keys = append(r.Keys, k)
			return nil
		})
		if err != nil {
			return r, err
		}
	}
	if r.Plans, err = planRecords(u); err != nil {
		return r, err
	}
	if err := outboxRecords(u, &r); err != nil {
		return r, err
	}
	all, ids, _, err := assetBuckets(u, false)
	if err != nil || all == nil {
		return r, err
	}
	// ids maps an asset id to its sequence key and ISIN; the sequence key
	// orders the records by creation.
	bySeq := map[string]AssetMeta{}
	err = ids.ForEach(func(aid, v []byte) error {
		if len(v) < 8 {
			return fmt.Errorf("asset %q: malformed index entry", aid)
		}
		bySeq[string(v[:8])] = AssetMeta{ID: string(aid), ISIN: string(v[8:])}
		return nil
	})
	if err != nil {
		return r, err
	}
	c := all.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		m, ok := bySeq[string(k)]
		if !ok || len(v) < 1 {
			return r, fmt.Errorf("asset record %x has no id", k)
		}
		m.Category = v[0]
		r.Assets = append(r.Assets, AssetRecord{Meta: m, Doc: bytes.Clone(v[1:])})
	}
	return r, nil
}

// outboxRecords reads user bucket u's webhooks, events, deliveries and
// queued mails into r, the outbox in creation order.
func outboxRecords(u *bolt.Bucket, r *UserRecords) error {
	if b := u.Bucket(bucketHooks); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			var h Hook
			if err := json.Unmarshal(v, &h); err != nil {
				return fmt.Errorf("webhook %q: %w", k, err)
			}
			r.Hooks = append(r.Hooks, h)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := u.Bucket(bucketEvents); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			e := Event{User: r.ID}
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("event %x: %w", k, err)
			}
			r.Events = append(r.Events, e)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := u.Bucket(bucketDeliveries); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			var d Delivery
			if err := json.Unmarshal(v, &d); err != nil {
				return fmt.Errorf("delivery %x: %w", k, err)
			}
			r.Deliveries = append(r.Deliveries, d)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := u.Bucket(bucketMailLast); b != nil {
		r.MailLast = map[string]time.Time{}
		err := b.ForEach(func(k, v []byte) error {
			var at time.Time
			if err := at.UnmarshalText(v); err != nil {
				return fmt.Errorf("last mail %q: %w", k, err)
			}
			r.MailLast[string(k)] = at
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := u.Bucket(bucketMails); b != nil {
		return b.ForEach(func(k, v []byte) error {
			var m Mail
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("queued mail %q: %w", k, err)
			}
			r.Mails = append(r.Mails, m)
			return nil
		})
	}
	return nil
}
