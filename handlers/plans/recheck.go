package plans

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/rest"
)

// Recheck computes again every saved plan whose watch was computed with
// other embedded data than this server's (a new tax year, a city refresh,
// a corrected rate), stores its new watch, and raises data.updated for a
// plan whose FI number or end balance moved by more than store.DataShare,
// with the old and new figures. The event's id is the plan's and the new
// data version's, so a rerun, or another node's run, raises it once, and
// a plan computed again has the current version and is skipped. A plan
// whose input no longer runs keeps its old path under the new version.
// A plan without a watch gets one, and an input that no longer runs an
// empty one, so that neither is computed again until the data changes.
// It says how many events it raised.
func (s *Handlers) Recheck(now time.Time) (int, error) {
	type stale struct {
		user string
		w    store.PlanWatch
	}
	var todo []stale
	watched := map[[2]string]bool{}
	err := s.db.EachWatch(func(user string, w store.PlanWatch) error {
		watched[[2]string{user, w.Plan}] = true
		if w.Data != s.data {
			todo = append(todo, stale{user, w})
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// A plan without a watch (saved before plans kept one, or copied by
	// fiplan migrate, which leaves derived records out) gets one, with no
	// event: it has no answer to compare.
	err = s.db.EachPlan(func(user string, doc []byte) error {
		var p struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(doc, &p) == nil && p.ID != "" && !watched[[2]string{user, p.ID}] {
			todo = append(todo, stale{user, store.PlanWatch{Plan: p.ID}})
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for i := range todo {
		raised, err := s.recheck(todo[i].user, &todo[i].w, now)
		if err != nil {
			return n, err
		}
		n += raised
	}
	return n, nil
}

// recheck computes user's plan of watch old again; see Recheck.
func (s *Handlers) recheck(user string, old *store.PlanWatch, now time.Time) (int, error) {
	doc, err := s.db.AppendPlan(nil, user, old.Plan)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var p savedPlan
	if err := json.Unmarshal(doc, &p); err != nil {
		return 0, err
	}
	c := rest.AcquireCtx(&fasthttp.RequestCtx{}, slog.New(slog.DiscardHandler), now)
	defer rest.ReleaseCtx(c)
	c.Principal.User, c.Authed = user, true
	path, found := s.calc.Path(c, p.Input, p.CreatedAt.Year())
	if !found {
		next := *old
		next.Name, next.Data = p.Name, s.data
		return 0, ignoreGone(s.db.SetPlanWatch(user, next))
	}
	path.Plan, path.Name, path.Data = p.ID, p.Name, s.data
	n := 0
	if ev, moved, err := s.dataUpdated(user, old, &path, now); err != nil {
		return 0, err
	} else if moved {
		if n, err = s.db.Emit([]store.Event{ev}, now.UTC().Truncate(time.Second)); err != nil {
			return 0, err
		}
	}
	return n, ignoreGone(s.db.SetPlanWatch(user, path))
}

func ignoreGone(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// dataUpdated is the data.updated event of a plan whose answer moved from
// old to path's; moved is false when neither its FI number nor its end
// balance moved by more than store.DataShare.
func (s *Handlers) dataUpdated(user string, old, path *store.PlanWatch, now time.Time) (ev store.Event, moved bool, err error) {
	if len(old.Expected) == 0 { // no answer to compare
		return ev, false, nil
	}
	a, b := &old.Answer, &path.Answer
	fiShare, endShare := change(a.FINumber, b.FINumber), change(a.FinalReal, b.FinalReal)
	if math.Abs(fiShare) <= store.DataShare && math.Abs(endShare) <= store.DataShare {
		return ev, false, nil
	}
	type figure struct {
		Old   float64 `json:"old"`
		New   float64 `json:"new"`
		Share float64 `json:"share"`
	}
	round := func(v float64) float64 { return math.Round(v*100) / 100 }
	data := map[string]any{"planId": path.Plan, "planName": path.Name, "currency": path.Currency, "threshold": store.DataShare,
		"dataVersion": map[string]string{"old": old.Data, "new": path.Data},
		"fiNumber":    figure{round(a.FINumber), round(b.FINumber), rate(fiShare)},
		"endBalance":  figure{round(a.FinalReal), round(b.FinalReal), rate(endShare)}}
	ev, err = store.PlanEvent(store.DataUpdated, user, path.Plan, now, data, path.Data)
	return ev, err == nil, err
}

// change is the share by which b differs from a; 0 when both are 0, and
// a whole one when only a is.
func change(a, b float64) float64 {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	}
	return (b - a) / math.Abs(a)
}
