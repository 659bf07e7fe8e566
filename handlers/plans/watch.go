package plans

import (
	"fiplan/data/store"
	"fiplan/handlers/rest"
)

// watch is the path of p, about to be written, as its watch: every write
// of the user's assets compares their total with it (store.Watches), so
// that plan.offtrack and fi.reached come from the stored assets as from a
// check-in. The store writes it in the plan's own transaction, so a plan
// is never stored without it. A plan whose input no longer runs keeps no
// watch (nil).
func (s *Handlers) watch(c *rest.Ctx, p *savedPlan) *store.PlanWatch {
	path, found := s.calc.Path(c, p.Input, p.CreatedAt.Year())
	if !found {
		return nil
	}
	path.Plan, path.Name, path.Data = p.ID, p.Name, s.data
	return &path
}
