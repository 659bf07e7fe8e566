package store

import (
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Plans are a user's saved plans: JSON documents the store does not read,
// each under an id the caller gives. Like assets they are listed in
// creation order, capped per user inside the write transaction, and
// rewritten with a callback that sees the stored JSON inside the write, so
// that a version check in it makes the write a compare-and-set.
type Plans interface {
	// CreatePlan stores a new plan of user and, when w is not nil, its
	// watch (Watches), in one transaction: a plan is never stored without
	// the watch it was saved with. ErrConflict when the user has a plan
	// with this id, ErrLimit when the user already has max plans; kept as
	// CreateAsset keeps it.
	CreatePlan(user, id string, doc []byte, max int, kept *Keep, w *PlanWatch) error
	// UpdatePlan rewrites user's plan id: fn receives the stored JSON and
	// returns the new JSON and the new input's watch (nil: the plan keeps
	// none), written with it in one transaction, or an error that aborts
	// the write and is returned as it is. ErrNotFound when the user has no
	// such plan.
	UpdatePlan(user, id string, fn func(old []byte) ([]byte, *PlanWatch, error)) error
	// DeletePlan removes the plan; check, when not nil, sees the stored
	// JSON first, in the same transaction, and its error aborts the delete
	// and is returned as it is. ErrNotFound when the user has no such plan.
	DeletePlan(user, id string, check func(doc []byte) error) error
	// AppendPlan appends the JSON of user's plan id to dst; ErrNotFound
	// when the user has no such plan.
	AppendPlan(dst []byte, user, id string) ([]byte, error)
	// AppendPlans appends to dst, comma-separated, the JSON of user's
	// plans in creation order, skipping offset and taking at most limit;
	// total counts them all.
	AppendPlans(dst []byte, user string, offset, limit int) ([]byte, int, error)
}

// Plans live in two buckets nested in the owner's user bucket:
//
//	plans     8-byte big-endian sequence -> the plan's JSON
//	planIDs   plan id -> sequence
var (
	bucketPlans   = []byte("plans")
	bucketPlanIDs = []byte("planIDs")
)

// PlanRecord is one stored plan: its id and its JSON.
type PlanRecord struct {
	ID  string
	Doc []byte
}

// CheckPlanID reports whether id is acceptable to a store as a plan id:
// 1..MaxIDLen bytes without NUL.
func CheckPlanID(id string) error {
	if !validID(id) || strings.IndexByte(id, 0) >= 0 {
		return fmt.Errorf("invalid plan id (1..%d bytes, without NUL)", MaxIDLen)
	}
	return nil
}

// CreatePlan stores a new plan of user and its watch w in one durable
// transaction, which also decides the cap (ErrLimit) and a duplicate id
// (ErrConflict), and keeps kept as CreateAsset does.
func (d *DB) CreatePlan(user, id string, doc []byte, max int, kept *Keep, w *PlanWatch) error {
	if err := CheckPlanID(id); err != nil {
		return wrap("create plan", err)
	}
	return d.createOwned("create plan", user, kept, func(_ *bolt.Tx, u *bolt.Bucket) error {
		all, ids, err := planBuckets(u, true)
		if err != nil {
			return err
		}
		if err := putOwned(all, ids, id, max, doc, func(k []byte) []byte { return k }); err != nil {
			return err
		}
		return setWatch(u, id, w)
	})
}

// UpdatePlan rewrites user's plan id in one transaction (see Plans).
func (d *DB) UpdatePlan(user, id string, fn func(old []byte) ([]byte, *PlanWatch, error)) error {
	var fnErr error
	err := d.update(func(tx *bolt.Tx) error {
		all, k, err := lookupPlan(tx, user, id)
		if err != nil {
			return err
		}
		doc, w, err := fn(all.Get(k))
		if err != nil {
			fnErr = err
			return err
		}
		u, err := userBucket(tx, user)
		if err != nil {
			return err
		}
		if err := all.Put(k, doc); err != nil {
			return err
		}
		return setWatch(u, id, w)
	})
	if fnErr != nil {
		return fnErr
	}
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("update plan", err)
}

// DeletePlan removes user's plan id in one transaction (see Plans).
func (d *DB) DeletePlan(user, id string, check func(doc []byte) error) error {
	var checkErr error
	err := d.update(func(tx *bolt.Tx) error {
		all, k, err := lookupPlan(tx, user, id)
		if err != nil {
			return err
		}
		if check != nil {
			if checkErr = check(all.Get(k)); checkErr != nil {
				return checkErr
			}
		}
		if err := all.Delete(k); err != nil {
			return err
		}
		u, err := userBucket(tx, user)
		if err != nil {
			return err
		}
		if err := dropWatch(u, id); err != nil {
			return err
		}
		return u.Bucket(bucketPlanIDs).Delete([]byte(id))
	})
	if checkErr != nil {
		return checkErr
	}
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("delete plan", err)
}

// AppendPlan appends the JSON of user's plan id to dst.
func (d *DB) AppendPlan(dst []byte, user, id string) ([]byte, error) {
	err := d.view(func(tx *bolt.Tx) error {
		all, k, err := lookupPlan(tx, user, id)
		if err != nil {
			return err
		}
		dst = append(dst, all.Get(k)...)
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return dst, err
	}
	return dst, wrap("read plan", err)
}

// AppendPlans appends a page of user's plans to dst (see Plans).
func (d *DB) AppendPlans(dst []byte, user string, offset, limit int) (_ []byte, total int, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		all, err := userPlans(tx, user)
		if err != nil || all == nil {
			return err
		}
		n := 0
		return eachPlan(all, func(doc []byte) error {
			if total >= offset && n < limit {
				if n > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, doc...)
				n++
			}
			total++
			return nil
		})
	})
	return dst, total, wrap("list plans", err)
}

func eachPlan(all *bolt.Bucket, fn func(doc []byte) error) error {
	c := all.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// userPlans returns the plans bucket of user; nil when there is none.
func userPlans(tx *bolt.Tx, user string) (*bolt.Bucket, error) {
	if !validID(user) {
		return nil, nil
	}
	u, err := userBucket(tx, user)
	if err != nil || u == nil {
		return nil, err
	}
	all, _, err := planBuckets(u, false)
	return all, err
}

// lookupPlan returns the plans bucket of user and the sequence key (a
// copy) of plan id; ErrNotFound when the user has no such plan.
func lookupPlan(tx *bolt.Tx, user, id string) (*bolt.Bucket, []byte, error) {
	if !validID(user) || !validID(id) {
		return nil, nil, ErrNotFound
	}
	u, err := userBucket(tx, user)
	if err != nil {
		return nil, nil, err
	}
	if u == nil {
		return nil, nil, ErrNotFound
	}
	all, ids, err := planBuckets(u, false)
	if err != nil {
		return nil, nil, err
	}
	if all == nil {
		return nil, nil, ErrNotFound
	}
	k := ids.Get([]byte(id))
	if len(k) != 8 {
		return nil, nil, ErrNotFound
	}
	k = append([]byte(nil), k...)
	if all.Get(k) == nil {
		return nil, nil, fmt.Errorf("plan %q: record missing", id)
	}
	return all, k, nil
}

// planBuckets returns (and with create, makes) the plan buckets of user
// bucket u; both nil when they do not exist.
func planBuckets(u *bolt.Bucket, create bool) (all, ids *bolt.Bucket, err error) {
	if !create {
		all, ids = u.Bucket(bucketPlans), u.Bucket(bucketPlanIDs)
		if all == nil || ids == nil {
			return nil, nil, nil
		}
		return all, ids, nil
	}
	if all, err = u.CreateBucketIfNotExists(bucketPlans); err != nil {
		return nil, nil, err
	}
	if ids, err = u.CreateBucketIfNotExists(bucketPlanIDs); err != nil {
		return nil, nil, err
	}
	return all, ids, nil
}

// planRecords reads the plans of user bucket u in creation order.
func planRecords(u *bolt.Bucket) ([]PlanRecord, error) {
	all, ids, err := planBuckets(u, false)
	if err != nil || all == nil {
		return nil, err
	}
	bySeq := map[string]string{}
	err = ids.ForEach(func(id, seq []byte) error {
		if len(seq) != 8 {
			return fmt.Errorf("plan %q: malformed index entry", id)
		}
		bySeq[string(seq)] = string(id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []PlanRecord
	c := all.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		id, ok := bySeq[string(k)]
		if !ok {
			return nil, fmt.Errorf("plan record %x has no id", k)
		}
		out = append(out, PlanRecord{ID: id, Doc: append([]byte(nil), v...)})
	}
	return out, nil
}
