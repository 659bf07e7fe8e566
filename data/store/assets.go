package store

import (
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Assets live in three buckets nested in the owner's user bucket:
//
//	assets     8-byte big-endian sequence -> 1 byte category + the asset's JSON
//	assetIDs   asset id -> sequence, then the asset's ISIN (if any)
//	isins      ISIN -> asset id (an ISIN is held by at most one asset per user)
//
// The sequence gives a stable creation order for listing; the category byte
// lets a filtered list skip records without decoding them. The store does not
// read the JSON: the caller owns the asset's schema and passes the id, ISIN
// and category alongside it.
var (
	bucketAssets   = []byte("assets")
	bucketAssetIDs = []byte("assetIDs")
	bucketISINs    = []byte("isins")
)

// AssetMeta is what the store reads of an asset: its id, its ISIN (empty
// when none) and its category code (CategoryEquity, ...).
type AssetMeta struct {
	ID       string
	ISIN     string
	Category uint8
}

// AnyCategory lists every category in AppendAssets.
const AnyCategory = -1

// Check reports whether m is acceptable to a store: an id of 1..MaxIDLen
// bytes without NUL, an ISIN of at most 64 bytes.
func (m *AssetMeta) Check() error {
	if !validID(m.ID) || strings.IndexByte(m.ID, 0) >= 0 {
		return fmt.Errorf("invalid asset id (1..%d bytes, without NUL)", MaxIDLen)
	}
	if len(m.ISIN) > 64 {
		return errors.New("invalid ISIN (more than 64 bytes)")
	}
	return nil
}

// CreateAsset stores a new asset of user. It returns ErrConflict when the
// user already holds an asset with m.ISIN (decided inside the write
// transaction, so two racing creates cannot both win) or with m.ID, and
// ErrLimit when the user already has max assets. kept, when not nil, is
// the answer to keep under an Idempotency-Key, written in the same
// transaction (see Idempotency); *KeyUsed, before any other check, when
// its key was used. The write is durable; it goes through bbolt's Batch,
// so concurrent creates share one fsync.
func (d *DB) CreateAsset(user string, m AssetMeta, doc []byte, max int, kept *Keep) error {
	if err := m.Check(); err != nil {
		return wrap("create asset", err)
	}
	return d.createOwned("create asset", user, kept, func(tx *bolt.Tx, u *bolt.Bucket) error {
		all, ids, isins, err := assetBuckets(u, true)
		if err != nil {
			return err
		}
		if m.ISIN != "" && isins.Get([]byte(m.ISIN)) != nil {
			return ErrConflict
		}
		err = putOwned(all, ids, m.ID, max, record(m.Category, doc), func(k []byte) []byte { return idEntry(k, m.ISIN) })
		if err != nil {
			return err
		}
		if m.ISIN != "" {
			if err := isins.Put([]byte(m.ISIN), []byte(m.ID)); err != nil {
				return err
			}
		}
		return d.watchAssets(tx, u, user)
	})
}

// UpdateAsset rewrites user's asset id in one transaction: fn receives the
// stored JSON (valid only during the call) and returns the new meta and
// JSON, or an error that aborts the update and is returned as it is. The
// id cannot change. ErrNotFound when the user has no such asset; ErrConflict
// when the new ISIN is held by another of the user's assets.
func (d *DB) UpdateAsset(user, id string, fn func(old []byte) (AssetMeta, []byte, error)) error {
	var fnErr error
	err := d.update(func(tx *bolt.Tx) error {
		all, ids, isins, err := userAssets(tx, user)
		if err != nil {
			return err
		}
		k, oldISIN, err := lookupAsset(ids, id)
		if err != nil {
			return err
		}
		old := all.Get(k)
		if len(old) < 1 {
			return fmt.Errorf("asset %q: record missing", id)
		}
		m, doc, err := fn(old[1:])
		if err != nil {
			fnErr = err
			return err
		}
		if m.ID != id {
			return errors.New("the asset id cannot change")
		}
		if err := m.Check(); err != nil {
			return err
		}
		if m.ISIN != oldISIN {
			if m.ISIN != "" {
				if holder := isins.Get([]byte(m.ISIN)); holder != nil && string(holder) != id {
					return ErrConflict
				}
				if err := isins.Put([]byte(m.ISIN), []byte(id)); err != nil {
					return err
				}
			}
			if oldISIN != "" {
				if err := isins.Delete([]byte(oldISIN)); err != nil {
					return err
				}
			}
			if err := ids.Put([]byte(id), idEntry(k, m.ISIN)); err != nil {
				return err
			}
		}
		if err := all.Put(k, record(m.Category, doc)); err != nil {
			return err
		}
		return d.watchAssets(tx, nil, user)
	})
	if fnErr != nil {
		return fnErr
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) {
		return err
	}
	return wrap("update asset", err)
}

// countUpTo counts the keys of b, stopping at max.
func countUpTo(b *bolt.Bucket, max int) int {
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil && n < max; k, _ = c.Next() {
		n++
	}
	return n
}

// idEntry is the value of assetIDs/<id>: the sequence key, then the ISIN.
func idEntry(seq []byte, isin string) []byte {
	v := make([]byte, 0, len(seq)+len(isin))
	return append(append(v, seq...), isin...)
}

// lookupAsset returns the sequence key (a copy) and ISIN of asset id;
// ErrNotFound when ids is nil or has no such asset.
func lookupAsset(ids *bolt.Bucket, id string) (seq []byte, isin string, err error) {
	if ids == nil {
		return nil, "", ErrNotFound
	}
	v := ids.Get([]byte(id))
	if len(v) < 8 {
		return nil, "", ErrNotFound
	}
	return append([]byte(nil), v[:8]...), string(v[8:]), nil
}

// DeleteAsset removes user's asset id and its ISIN entry in one
// transaction; ErrNotFound when the user has no such asset. check, when not
// nil, sees the stored JSON (valid only during the call) before anything
// is removed; its error aborts the delete and is returned as it is.
func (d *DB) DeleteAsset(user, id string, check func(doc []byte) error) error {
	var checkErr error
	err := d.update(func(tx *bolt.Tx) error {
		all, ids, isins, err := userAssets(tx, user)
		if err != nil {
			return err
		}
		k, isin, err := lookupAsset(ids, id)
		if err != nil {
			return err
		}
		if check != nil {
			v := all.Get(k)
			if len(v) < 1 {
				return fmt.Errorf("asset %q: record missing", id)
			}
			if checkErr = check(v[1:]); checkErr != nil {
				return checkErr
			}
		}
		if isin != "" {
			if err := isins.Delete([]byte(isin)); err != nil {
				return err
			}
		}
		if err := all.Delete(k); err != nil {
			return err
		}
		if err := ids.Delete([]byte(id)); err != nil {
			return err
		}
		return d.watchAssets(tx, nil, user)
	})
	if checkErr != nil {
		return checkErr
	}
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("delete asset", err)
}

// AppendAsset appends the JSON of user's asset id to dst; ErrNotFound when
// the user has no such asset.
func (d *DB) AppendAsset(dst []byte, user, id string) ([]byte, error) {
	err := d.view(func(tx *bolt.Tx) error {
		all, ids, _, err := userAssets(tx, user)
		if err != nil {
			return err
		}
		k, _, err := lookupAsset(ids, id)
		if err != nil {
			return err
		}
		v := all.Get(k)
		if len(v) < 1 {
			return fmt.Errorf("asset %q: record missing", id)
		}
		dst = append(dst, v[1:]...)
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return dst, err
	}
	return dst, wrap("read asset", err)
}

// AppendAssets appends to dst, separated by commas, the JSON of user's
// assets of the given category (AnyCategory for all), in creation order,
// skipping offset and taking at most limit. total counts every match.
func (d *DB) AppendAssets(dst []byte, user string, category, offset, limit int) (_ []byte, total int, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		all, _, _, err := userAssets(tx, user)
		if err != nil || all == nil {
			return err
		}
		c := all.Cursor()
		n := 0
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(v) < 1 || (category != AnyCategory && int(v[0]) != category) {
				continue
			}
			if total >= offset && n < limit {
				if n > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, v[1:]...)
				n++
			}
			total++
		}
		return nil
	})
	return dst, total, wrap("list assets", err)
}

// Assets calls fn with the JSON of each of user's assets, in creation
// order, inside one read transaction; doc is valid only during the call.
func (d *DB) Assets(user string, fn func(doc []byte) error) error {
	return wrap("read assets", d.view(func(tx *bolt.Tx) error {
		all, _, _, err := userAssets(tx, user)
		if err != nil || all == nil {
			return err
		}
		return eachAsset(all, fn)
	}))
}

func eachAsset(all *bolt.Bucket, fn func(doc []byte) error) error {
	c := all.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(v) >= 1 {
			if err := fn(v[1:]); err != nil {
				return err
			}
		}
	}
	return nil
}

// record is the stored value: the category byte, then the JSON.
func record(category uint8, doc []byte) []byte {
	v := make([]byte, 0, 1+len(doc))
	v = append(v, category)
	return append(v, doc...)
}

// userAssets returns the asset buckets of user; all nil when the user or
// the buckets do not exist.
func userAssets(tx *bolt.Tx, user string) (all, ids, isins *bolt.Bucket, err error) {
	if !validID(user) {
		return nil, nil, nil, nil
	}
	u, err := userBucket(tx, user)
	if err != nil || u == nil {
		return nil, nil, nil, err
	}
	return assetBuckets(u, false)
}

// assetBuckets returns (and with create, makes) the asset buckets of user
// bucket u.
func assetBuckets(u *bolt.Bucket, create bool) (all, ids, isins *bolt.Bucket, err error) {
	if !create {
		all, ids, isins = u.Bucket(bucketAssets), u.Bucket(bucketAssetIDs), u.Bucket(bucketISINs)
		if all == nil || ids == nil || isins == nil {
			return nil, nil, nil, nil
		}
		return all, ids, isins, nil
	}
	if all, err = u.CreateBucketIfNotExists(bucketAssets); err != nil {
		return nil, nil, nil, err
	}
	if ids, err = u.CreateBucketIfNotExists(bucketAssetIDs); err != nil {
		return nil, nil, nil, err
	}
	if isins, err = u.CreateBucketIfNotExists(bucketISINs); err != nil {
		return nil, nil, nil, err
	}
	return all, ids, isins, nil
}

// batch runs fn in a bbolt Batch transaction (durable, shared with
// concurrent callers), turning a bbolt panic into an error.
func (d *DB) batch(fn func(tx *bolt.Tx) error) (err error) {
	defer recoverTx(&err)
	return d.bolt.Batch(fn)
}
