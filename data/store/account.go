package store

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Account is a user's account record.
type Account struct {
	Tier      string    `json:"tier"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// SaveAccount creates the user's account or updates its tier. It writes only
// when the account is new or the tier differs (a read transaction decides
// first), so it is cheap to call on every authenticated request. The tier is
// stored as given; the caller validates it.
func (d *DB) SaveAccount(user, tier string) error {
	if !validID(user) {
		return wrap("save account", fmt.Errorf("invalid user id (1..%d bytes)", MaxIDLen))
	}
	current := func(tx *bolt.Tx) (bool, error) {
		a, err := account(tx, user)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return err == nil && a.Tier == tier, err
	}
	var same bool
	err := d.view(func(tx *bolt.Tx) (err error) {
		same, err = current(tx)
		return err
	})
	if err != nil || same {
		return wrap("save account", err)
	}
	err = d.update(func(tx *bolt.Tx) error {
		if same, err := current(tx); err != nil || same {
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
		var a Account
		if _, err := getJSON(b, keyAccount, &a); err != nil {
			return err
		}
		a.Tier, a.UpdatedAt = tier, t
		return putJSON(b, keyAccount, a)
	})
	return wrap("save account", err)
}

// Account returns the user's account; ErrNotFound when there is none.
func (d *DB) Account(user string) (Account, error) {
	var a Account
	err := d.view(func(tx *bolt.Tx) (err error) {
		a, err = account(tx, user)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return Account{}, ErrNotFound
	}
	return a, wrap("account", err)
}

// account reads the user's account inside tx.
func account(tx *bolt.Tx, user string) (Account, error) {
	var a Account
	if !validID(user) {
		return a, ErrNotFound
	}
	b, err := userBucket(tx, user)
	if err != nil {
		return a, err
	}
	if b == nil {
		return a, ErrNotFound
	}
	return accountIn(b)
}

// accountIn reads the account record of user bucket b.
func accountIn(b *bolt.Bucket) (Account, error) {
	var a Account
	ok, err := getJSON(b, keyAccount, &a)
	if err == nil && !ok {
		err = ErrNotFound
	}
	return a, err
}

// GetDoc decodes the user's JSON document name (profile, settings, ...) into
// v. It reports false, and leaves v alone, when the document or the user does
// not exist.
func (d *DB) GetDoc(user, name string, v any) (bool, error) {
	if err := CheckDocName(name); err != nil {
		return false, wrap("get "+name, err)
	}
	var found bool
	err := d.view(func(tx *bolt.Tx) error {
		if !validID(user) {
			return nil
		}
		b, err := userBucket(tx, user)
		if err != nil || b == nil {
			return err
		}
		found, err = getJSON(b, []byte(name), v)
		return err
	})
	return found, wrap("get "+name, err)
}

// PutDoc stores v as the user's JSON document name, replacing any previous
// one, and creates the user (free tier) when absent.
func (d *DB) PutDoc(user, name string, v any) error {
	if err := CheckDocName(name); err != nil {
		return wrap("put "+name, err)
	}
	err := d.update(func(tx *bolt.Tx) error {
		b, err := ensureUser(tx, user, now())
		if err != nil {
			return err
		}
		return putJSON(b, []byte(name), v)
	})
	return wrap("put "+name, err)
}

// UpdateDoc rewrites the user's JSON document name in one transaction
// (read, change, write with no other writer between): fn receives the
// stored JSON, nil when there is none, valid only during the call, and
// returns the new JSON or an error that aborts the update and is returned
// as it is. The user is created (free tier) when absent.
func (d *DB) UpdateDoc(user, name string, fn func(old []byte) ([]byte, error)) error {
	if err := CheckDocName(name); err != nil {
		return wrap("update "+name, err)
	}
	var fnErr error
	err := d.update(func(tx *bolt.Tx) error {
		b, err := ensureUser(tx, user, now())
		if err != nil {
			return err
		}
		doc, err := fn(b.Get([]byte(name)))
		if err != nil {
			fnErr = err
			return err
		}
		return b.Put([]byte(name), doc)
	})
	if fnErr != nil {
		return fnErr
	}
	return wrap("update "+name, err)
}

// DeleteDoc removes the user's JSON document name in one transaction;
// an absent document or user is not an error.
func (d *DB) DeleteDoc(user, name string) error {
	if err := CheckDocName(name); err != nil {
		return wrap("delete "+name, err)
	}
	if !validID(user) {
		return nil
	}
	err := d.update(func(tx *bolt.Tx) error {
		b, err := userBucket(tx, user)
		if err != nil || b == nil {
			return err
		}
		return b.Delete([]byte(name))
	})
	return wrap("delete "+name, err)
}

// CheckDocName refuses document names that belong to the store's own
// records (account, keys, assets, ...) and the empty name.
func CheckDocName(name string) error {
	switch name {
	case "", string(keyAccount), string(bucketKeys), string(bucketAssets), string(bucketAssetIDs), string(bucketISINs):
		return fmt.Errorf("reserved or empty document name %q", name)
	}
	return nil
}

// DeleteUser erases the user's bucket (account, documents, keys) and the
// user's key hashes from the lookup index, in one transaction. Deleting a user
// that does not exist is not an error.
func (d *DB) DeleteUser(user string) error {
	if !validID(user) {
		return nil
	}
	err := d.update(func(tx *bolt.Tx) error {
		u, err := users(tx)
		if err != nil {
			return err
		}
		// Exposures and Idempotency-Key claims are kept for users with no
		// account too.
		if err := forgetExposures(tx, user); err != nil {
			return err
		}
		if err := forgetClaims(tx, user); err != nil {
			return err
		}
		b := u.Bucket([]byte(user))
		if b == nil {
			return nil
		}
		if keys := b.Bucket(bucketKeys); keys != nil {
			idx, err := top(tx, bucketAPIKeys)
			if err != nil {
				return err
			}
			err = keys.ForEach(func(id, raw []byte) error {
				if raw == nil {
					return nil // a nested bucket, not a key record
				}
				return unindex(idx, raw, user, string(id))
			})
			if err != nil {
				return err
			}
		}
		return u.DeleteBucket([]byte(user))
	})
	return wrap("delete user", err)
}
