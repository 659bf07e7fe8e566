package store

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// A saved plan is watched against the user's stored assets: every asset
// write (create, update, delete) compares, in its own transaction, the
// assets' total with each watched plan's expected path and FI number for
// the year, and emits plan.offtrack and fi.reached in that transaction.
// No projection runs on an asset write: the path is computed when the plan
// is saved and kept beside it (PlanWatch), so the write costs one read of
// the watches, a pass over the assets and a comparison a plan. A user
// without a watched plan pays one empty lookup.

// OfftrackShare is how far, as a share of the plan's expected portfolio,
// a total may stray from it before plan.offtrack is raised.
const OfftrackShare = 0.10

// PlanWatch is a saved plan's path, kept with the plan: the portfolio the
// plan, run from its start, expects at the start of each year and its FI
// number in each year's money.
type PlanWatch struct {
	Plan     string `json:"plan"`
	Name     string `json:"name"`
	Currency string `json:"currency"`
	// FromYear is the year of Expected[0] and FINumber[0].
	FromYear int       `json:"fromYear"`
	Expected []float64 `json:"expected"`
	FINumber []float64 `json:"fiNumber"`
	// Data is the version of the embedded data the path was computed
	// with, Answer the plan's headline figures then: a plan computed with
	// an older version is computed again, and data.updated raised when
	// its answer moved (DataShare).
	Data   string     `json:"data,omitempty"`
	Answer PlanAnswer `json:"answer"`
}

// PlanAnswer is a saved plan's headline answer, today's money of the
// plan's first year.
type PlanAnswer struct {
	FINumber  float64 `json:"fiNumber"`
	FinalReal float64 `json:"finalReal"` // the end balance
	FIAge     int     `json:"fiAge"`     // -1 when never
}

// DataShare is how far, as a share, a plan's FI number or end balance
// must move when the embedded data changes before data.updated is raised.
const DataShare = 0.01

// At is the expected portfolio and the FI number of year; ok is false
// when the path has no such year.
func (w *PlanWatch) At(year int) (expected, fiNumber float64, ok bool) {
	i := year - w.FromYear
	if i < 0 || i >= len(w.Expected) || i >= len(w.FINumber) {
		return 0, 0, false
	}
	return w.Expected[i], w.FINumber[i], true
}

// AssetWatch decides, inside an asset write's transaction, the events the
// user's assets raise against the watches of the user's plans: each calls
// fn with the JSON of every asset as the write leaves them (valid only
// during the call). It is called only when the user has a watched plan.
type AssetWatch func(user string, each func(fn func(doc []byte) error) error, watches []PlanWatch) ([]Event, error)

// Watches are the saved plans' paths, and the judge that asset writes ask.
type Watches interface {
	// SetPlanWatch stores w as the watch of user's plan w.Plan, replacing
	// any; ErrNotFound when the user has no such plan. CreatePlan and
	// UpdatePlan write a plan's watch in the plan's own transaction, and
	// DeletePlan and DeleteUser remove it.
	SetPlanWatch(user string, w PlanWatch) error
	// WatchAssets sets the judge of asset writes; nil (the default)
	// watches nothing. Set it before the store serves writes.
	WatchAssets(fn AssetWatch)
	// EachWatch calls fn with every plan's watch, of every user; it runs
	// in one read, so fn must not write to the store.
	EachWatch(fn func(user string, w PlanWatch) error) error
}

// Track is the path events of a plan whose portfolio is total in year:
// plan.offtrack when total is more than OfftrackShare away from expected
// (once a year for each side, below and above; found is false when the
// plan expects nothing that year), and fi.reached when total reaches
// fiNumber (once for the plan). A check-in and an asset write raise the
// same events under the same ids, so whichever comes first raises them.
func Track(user, plan, name string, year int, currency string, total, expected float64, found bool, fiNumber float64, at time.Time) ([]Event, error) {
	var evs []Event
	if found && expected > 0 {
		share := (total - expected) / expected
		side := ""
		switch {
		case share < -OfftrackShare:
			side = "below"
		case share > OfftrackShare:
			side = "above"
		}
		if side != "" {
			ev, err := planEvent(PlanOfftrack, user, plan, at, map[string]any{"planId": plan, "planName": name, "year": year, "side": side,
				"currency": currency, "expected": cents(expected), "actual": cents(total), "share": rate(share), "threshold": OfftrackShare},
				strconv.Itoa(year), side)
			if err != nil {
				return nil, err
			}
			evs = append(evs, ev)
		}
	}
	if fiNumber > 0 && total >= fiNumber {
		ev, err := planEvent(FIReached, user, plan, at, map[string]any{"planId": plan, "planName": name, "year": year,
			"currency": currency, "fiNumber": cents(fiNumber), "actual": cents(total)})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// PlanEvent is an event of type typ about user's plan, with data as its
// figures; its id is the type's, the user's, the plan's and key's, so
// raising it again changes nothing.
func PlanEvent(typ, user, plan string, at time.Time, data any, key ...string) (Event, error) {
	return planEvent(typ, user, plan, at, data, key...)
}

func planEvent(typ, user, plan string, at time.Time, data any, key ...string) (Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("cannot encode the %s event: %w", typ, err)
	}
	id := EventID(append([]string{typ, user, plan}, key...)...)
	return Event{ID: id, User: user, Type: typ, PlanID: plan, CreatedAt: at.UTC().Truncate(time.Second), Data: raw}, nil
}

func cents(v float64) float64 { return math.Round(v*100) / 100 }
func rate(v float64) float64  { return math.Round(v*1e4) / 1e4 }

// In a user bucket, planWatch: plan id -> PlanWatch JSON.
var bucketPlanWatch = []byte("planWatch")

// SetPlanWatch stores w beside user's plan w.Plan.
func (d *DB) SetPlanWatch(user string, w PlanWatch) error {
	err := d.update(func(tx *bolt.Tx) error {
		if _, _, err := lookupPlan(tx, user, w.Plan); err != nil {
			return err
		}
		u, err := userBucket(tx, user)
		if err != nil {
			return err
		}
		return setWatch(u, w.Plan, &w)
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	return wrap("store plan watch", err)
}

// WatchAssets sets the judge of asset writes.
func (d *DB) WatchAssets(fn AssetWatch) { d.watch = fn }

// setWatch stores w as plan's watch in user bucket u; nil removes it.
func setWatch(u *bolt.Bucket, plan string, w *PlanWatch) error {
	if w == nil {
		return dropWatch(u, plan)
	}
	b, err := u.CreateBucketIfNotExists(bucketPlanWatch)
	if err != nil {
		return err
	}
	w.Plan = plan
	return putJSON(b, []byte(plan), w)
}

// dropWatch removes plan's watch from user bucket u.
func dropWatch(u *bolt.Bucket, plan string) error {
	if b := u.Bucket(bucketPlanWatch); b != nil {
		return b.Delete([]byte(plan))
	}
	return nil
}

// watchAssets asks the judge, inside an asset write of user (bucket u,
// looked up when nil), for the events the user's assets raise, and emits
// them in tx.
func (d *DB) watchAssets(tx *bolt.Tx, u *bolt.Bucket, user string) error {
	if d.watch == nil {
		return nil
	}
	if u == nil {
		var err error
		if u, err = userBucket(tx, user); err != nil || u == nil {
			return err
		}
	}
	b := u.Bucket(bucketPlanWatch)
	if b == nil {
		return nil
	}
	var ws []PlanWatch
	err := b.ForEach(func(k, v []byte) error {
		var w PlanWatch
		if err := json.Unmarshal(v, &w); err != nil {
			return fmt.Errorf("plan watch %q: %w", k, err)
		}
		ws = append(ws, w)
		return nil
	})
	if err != nil || len(ws) == 0 {
		return err
	}
	all, _, _, err := assetBuckets(u, false)
	if err != nil {
		return err
	}
	evs, err := d.watch(user, func(fn func(doc []byte) error) error {
		if all == nil {
			return nil
		}
		return eachAsset(all, fn)
	}, ws)
	if err != nil || len(evs) == 0 {
		return err
	}
	due, err := top(tx, bucketDue)
	if err != nil {
		return err
	}
	at := now()
	for i := range evs {
		if _, err := emit(tx, due, &evs[i], at); err != nil {
			return err
		}
	}
	return nil
}

// EachWatch calls fn with every stored watch in one read transaction.
func (d *DB) EachWatch(fn func(user string, w PlanWatch) error) error {
	err := d.view(func(tx *bolt.Tx) error {
		us, err := users(tx)
		if err != nil {
			return err
		}
		return us.ForEachBucket(func(name []byte) error {
			b := us.Bucket(name).Bucket(bucketPlanWatch)
			if b == nil {
				return nil
			}
			user := string(name)
			return b.ForEach(func(k, v []byte) error {
				var w PlanWatch
				if err := json.Unmarshal(v, &w); err != nil {
					return fmt.Errorf("plan watch %q: %w", k, err)
				}
				return fn(user, w)
			})
		})
	})
	return wrap("read plan watches", err)
}
