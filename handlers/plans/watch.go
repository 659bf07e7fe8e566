package plans

import (
	"encoding/json"
	"errors"

	"fiplan/data/store"
	"fiplan/handlers/rest"
)

// watch stores the path of p, just written, as its watch: every write of
// the user's assets compares their total with it (store.Watches), so that
// plan.offtrack and fi.reached come from the stored assets as from a
// check-in. A plan whose input no longer runs keeps no watch (UpdatePlan
// dropped the old one), and a plan deleted meanwhile none.
func (s *Handlers) watch(c *rest.Ctx, user string, p *savedPlan) error {
	path, found := s.calc.Path(c, p.Input, p.CreatedAt.Year())
	if !found {
		return nil
	}
	path.Plan, path.Name, path.Data = p.ID, p.Name, s.data
	if err := s.db.SetPlanWatch(user, path); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// watchDoc is watch for a plan as stored.
func (s *Handlers) watchDoc(c *rest.Ctx, user string, doc []byte) error {
	var p savedPlan
	if err := json.Unmarshal(doc, &p); err != nil {
		return err
	}
	return s.watch(c, user, &p)
}
