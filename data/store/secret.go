package store

import (
	"crypto/rand"

	"fmt"

	bolt "go.etcd.io/bbolt"
)

// secretLen is the length of the local JWT secret.
const secretLen = 32

// Secret returns the local JWT secret, generating 32 crypto/rand bytes and
// storing them (in one Update transaction) on the first call. Concurrent
// first calls agree on one secret.
func (d *DB) Secret() ([]byte, error) {
	s, ok, err := d.PeekSecret()
	if err != nil || ok {
		return s, err
	}
	err = d.update(func(tx *bolt.Tx) error {
		meta, err := top(tx, bucketMeta)
		if err != nil {
			return err
		}
		if s, err = secretIn(meta); err != nil || s != nil {
			if err == nil {
				err = errNoChange // another caller stored it first
			}
			return err
		}
		fresh := make([]byte, secretLen)
		if _, err := rand.Read(fresh); err != nil {
			return err
		}
		if err := meta.Put(keySecret, fresh); err != nil {
			return err
		}
		s = fresh
		return nil
	})
	if err != nil {
		return nil, wrap("jwt secret", err)
	}
	return s, nil
}

// PeekSecret returns the stored local JWT secret, if any, without writing.
func (d *DB) PeekSecret() ([]byte, bool, error) {
	var s []byte
	err := d.view(func(tx *bolt.Tx) error {
		meta, err := top(tx, bucketMeta)
		if err != nil {
			return err
		}
		s, err = secretIn(meta)
		return err
	})
	if err != nil {
		return nil, false, wrap("jwt secret", err)
	}
	return s, s != nil, nil
}

// secretIn copies the stored secret out of meta; nil when absent.
func secretIn(meta *bolt.Bucket) ([]byte, error) {
	raw := meta.Get(keySecret)
	if raw == nil {
		return nil, nil
	}
	if len(raw) != secretLen {
		return nil, fmt.Errorf("stored secret has %d bytes, want %d", len(raw), secretLen)
	}
	return append([]byte(nil), raw...), nil
}
