package store

import (
	"bytes"

	json "github.com/goccy/go-json"

	bolt "go.etcd.io/bbolt"
)

// Export is everything the store holds about one user. Every slice and map
// is the caller's own copy.
type Export struct {
	Account    *Account          // nil when the user has no account
	Docs       map[string][]byte // JSON documents written by PutDoc, by name
	Assets     [][]byte          // the assets' JSON, in creation order
	Plans      [][]byte          // the saved plans' JSON, in creation order
	Keys       []Key             // API-key metadata (never a plain key or hash)
	Exposures  map[string]string // feature flag -> the variant recorded for the user
	Hooks      []Hook            // webhook endpoints, secrets cleared
	Deliveries []Delivery        // the delivery log, newest first
	Events     []Event           // the events raised, newest first
}

// Export reads everything stored about user in one read transaction, so the
// parts are consistent with each other. A user with nothing stored gets an
// Export with a nil Account and empty, non-nil collections.
func (d *DB) Export(user string) (Export, error) {
	e := Export{Docs: map[string][]byte{}, Assets: [][]byte{}, Plans: [][]byte{}, Keys: []Key{}, Exposures: map[string]string{},
		Hooks: []Hook{}, Deliveries: []Delivery{}, Events: []Event{}}
	err := d.view(func(tx *bolt.Tx) error {
		if !validID(user) {
			return nil
		}
		ex, err := top(tx, bucketExpose)
		if err != nil {
			return err
		}
		err = ex.ForEachBucket(func(flag []byte) error {
			if v := ex.Bucket(flag).Get([]byte(user)); v != nil {
				e.Exposures[string(flag)] = string(v)
			}
			return nil
		})
		if err != nil {
			return err
		}
		u, err := userBucket(tx, user)
		if err != nil || u == nil {
			return err
		}
		a, err := accountIn(u)
		if err != nil {
			return err
		}
		e.Account = &a
		err = u.ForEach(func(k, v []byte) error {
			if v == nil || bytes.Equal(k, keyAccount) {
				return nil // nested buckets and the account are read apart
			}
			e.Docs[string(k)] = bytes.Clone(v)
			return nil
		})
		if err != nil {
			return err
		}
		if e.Keys, err = keysIn(u, user, e.Keys); err != nil {
			return err
		}
		if err := exportOutbox(tx, u, user, &e); err != nil {
			return err
		}
		if plans, _, err := planBuckets(u, false); err != nil {
			return err
		} else if plans != nil {
			err = eachPlan(plans, func(doc []byte) error {
				e.Plans = append(e.Plans, bytes.Clone(doc))
				return nil
			})
			if err != nil {
				return err
			}
		}
		all, _, _, err := assetBuckets(u, false)
		if err != nil || all == nil {
			return err
		}
		return eachAsset(all, func(doc []byte) error {
			e.Assets = append(e.Assets, bytes.Clone(doc))
			return nil
		})
	})
	return e, wrap("export", err)
}

// exportOutbox reads user's webhooks (without secrets), events and
// deliveries into e.
func exportOutbox(tx *bolt.Tx, u *bolt.Bucket, user string, e *Export) error {
	hooks, err := hooksOf(tx, user)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		h.Secret = ""
		e.Hooks = append(e.Hooks, h)
	}
	if b := u.Bucket(bucketEvents); b != nil {
		c := b.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var ev Event
			if err := json.Unmarshal(v, &ev); err != nil {
				return err
			}
			ev.User = user
			e.Events = append(e.Events, ev)
		}
	}
	if b := u.Bucket(bucketDeliveries); b != nil {
		c := b.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var dl Delivery
			if err := json.Unmarshal(v, &dl); err != nil {
				return err
			}
			dl.Lease = ""
			e.Deliveries = append(e.Deliveries, dl)
		}
	}
	return nil
}
