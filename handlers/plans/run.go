package plans

import (
	"bytes"
	"encoding/json"
	"errors"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
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

// Optimize answers the calculator's answer for the plan's stored input
// with the body as its optimize: the plan's decisions chosen.
func (s *Handlers) Optimize(c *rest.Ctx) {
	body := bytes.Clone(c.RC.Request.Body())
	var p savedPlan
	if !s.load(c, &p) {
		return
	}
	s.calc.AnswerOptimized(c, p.Input, body)
}

// optimizeDoc declares the optimize action.
func (s *Handlers) optimizeDoc(body rest.Schema, answer *rest.Doc) {
	s.Docs.Optimize = &rest.Doc{
		Tag:     "plans",
		Status:  200,
		Summary: "Choose a saved plan's decisions",
		Desc: "The calculator's answer for the plan's stored input with the body as its `optimize`: the conversions of each year, each statutory " +
			"pension's claiming age, the drawing order and the retirement age that give the highest spending (`objective` spending, meeting `target`) " +
			"or the highest after-tax end wealth (estate), in `optimized` with the gains over the plan and the conventional baseline and each " +
			"decision's worth alone. Charged and limited by the plan runs the search may make. " +
			`Example: {"objective":"spending","target":{"method":"monteCarlo","successRate":0.9},"decisions":["conversions","claiming"]}.`,
		Body: body,
		Data: answer.Data,
		Errs: append([]rest.ErrDoc{rest.Err(errcode.NotFound, "the caller has no plan with this id (another user's id included)")}, answer.Errs...)}
}
