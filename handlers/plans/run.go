package plans

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// load reads the caller's plan named by the path into p. On a failure it
// has answered.
func (s *Handlers) load(c *rest.Ctx, p *savedPlan) bool {
	return s.loadID(c, string(c.Param("id")), p)
}

// loadID reads the caller's plan id into p. On a failure it has answered
// (404 when the caller has no such plan).
func (s *Handlers) loadID(c *rest.Ctx, id string, p *savedPlan) bool {
	doc, err := s.db.AppendPlan(nil, c.Principal.User, id)
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
	if !noBody(c) {
		return
	}
	var p savedPlan
	if !s.load(c, &p) {
		return
	}
	s.calc.Answer(c, p.Input)
}

// noBody refuses a body sent to a route that runs what is stored: it
// would be ignored, and its sender would read an answer to another input.
// An empty body or an empty object passes.
func noBody(c *rest.Ctx) bool {
	body := bytes.TrimSpace(c.RC.Request.Body())
	if len(body) == 0 {
		return true
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		c.Error(errcode.InvalidJSON, "the body is not a JSON object; this route takes none")
		return false
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		c.Fail(name, "is not accepted: the plan runs with its stored input; change it with PATCH /plans/{id}, or send the input to POST /calculator")
		return false
	}
	return true
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
		Errs: append([]rest.ErrDoc{Plans.NotFoundDoc()}, answer.Errs...)}
}
