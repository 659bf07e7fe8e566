package plans

import (
	"encoding/json"
	"errors"

	"fiplan/data/store"
	"fiplan/handlers/rest"
)

// load reads the caller's plan named by the path into p. On a failure it
// has answered.
func (s *Handlers) load(c *rest.Ctx, p *savedPlan) bool {
	doc, err := s.db.AppendPlan(nil, c.Principal.User, string(c.Param("id")))
	switch {
	case errors.Is(err, store.ErrNotFound):
		notFound(c)
		return false
	case err != nil:
		c.Storage(err)
		return false
	}
	if err := json.Unmarshal(doc, p); err != nil {
		c.Internal(err)
		return false
	}
	return true
}

// Run answers the calculator's answer for the plan's stored input.
func (s *Handlers) Run(c *rest.Ctx) {
	var p savedPlan
	if !s.load(c, &p) {
		return
	}
	s.calc.Answer(c, p.Input)
}
