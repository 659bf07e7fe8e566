package store

import (
	"errors"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Feature flags: bucket flags maps a flag key to its JSON definition, and
// bucket exposures holds, per flag, one entry per user who was evaluated:
// user -> the variant they got ("" enabled without a variant, "-" not
// enabled). Entries are distinct users by construction, which is what an
// A/B test counts.

// Disabled is the variant recorded for a user the flag was off for.
const Disabled = "-"

// PutFlag stores the flag's definition v under key, reporting whether it
// is new.
func (d *DB) PutFlag(key string, v any) (created bool, err error) {
	err = d.update(func(tx *bolt.Tx) error {
		b, err := top(tx, bucketFlags)
		if err != nil {
			return err
		}
		created = b.Get([]byte(key)) == nil
		return putJSON(b, []byte(key), v)
	})
	if err == nil {
		d.flags.Add(1)
	}
	return created, wrap("put flag", err)
}

// DeleteFlag removes a flag and its exposures; ErrNotFound when absent.
func (d *DB) DeleteFlag(key string) error {
	err := d.update(func(tx *bolt.Tx) error {
		b, err := top(tx, bucketFlags)
		if err != nil {
			return err
		}
		if b.Get([]byte(key)) == nil {
			return ErrNotFound
		}
		if err := b.Delete([]byte(key)); err != nil {
			return err
		}
		e, err := top(tx, bucketExpose)
		if err != nil {
			return err
		}
		if err := e.DeleteBucket([]byte(key)); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return err
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return ErrNotFound
	}
	if err == nil {
		d.flags.Add(1)
	}
	return wrap("delete flag", err)
}

// FlagsVersion counts the flag writes since the file was opened; only
// this process writes the file.
func (d *DB) FlagsVersion() (int64, error) { return d.flags.Load(), nil }

// Flags calls fn with every flag's key and JSON definition, in key order.
// raw is valid only during the call.
func (d *DB) Flags(fn func(key string, raw []byte) error) error {
	return wrap("read flags", d.view(func(tx *bolt.Tx) error {
		b, err := top(tx, bucketFlags)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error { return fn(string(k), v) })
	}))
}

// RecordExposures writes flag -> user -> variant in one transaction.
// Exposures of flags that no longer exist are dropped.
func (d *DB) RecordExposures(seen map[string]map[string]string) error {
	if len(seen) == 0 {
		return nil
	}
	return wrap("record exposures", d.update(func(tx *bolt.Tx) error {
		flags, err := top(tx, bucketFlags)
		if err != nil {
			return err
		}
		e, err := top(tx, bucketExpose)
		if err != nil {
			return err
		}
		for key, users := range seen {
			if flags.Get([]byte(key)) == nil {
				continue
			}
			b, err := e.CreateBucketIfNotExists([]byte(key))
			if err != nil {
				return err
			}
			for user, variant := range users {
				if err := b.Put([]byte(user), []byte(variant)); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

// Exposures counts the distinct users recorded for a flag, by variant.
func (d *DB) Exposures(key string) (map[string]int, error) {
	counts := map[string]int{}
	err := d.view(func(tx *bolt.Tx) error {
		e, err := top(tx, bucketExpose)
		if err != nil {
			return err
		}
		b := e.Bucket([]byte(key))
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			counts[string(v)]++
			return nil
		})
	})
	return counts, wrap("count exposures", err)
}

// forgetExposures removes a user from every flag's exposures (erasure).
func forgetExposures(tx *bolt.Tx, user string) error {
	e, err := top(tx, bucketExpose)
	if err != nil {
		return err
	}
	return e.ForEachBucket(func(k []byte) error {
		return e.Bucket(k).Delete([]byte(user))
	})
}
