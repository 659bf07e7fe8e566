package plans

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// tagLen bounds an entity tag's length, for a buffer on the stack.
const tagLen = 32

// badRequest carries a refusal out of a store transaction.
type badRequest struct{ res schema.Result }

func (b *badRequest) Error() string { return b.res.Error }

func invalid(path, msg string) *badRequest {
	return &badRequest{res: schema.Result{Code: errcode.Validation, Error: "request body failed validation", Details: []schema.Detail{{Path: path, Message: msg}}}}
}

func (s *Handlers) List(c *rest.Ctx) {
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	w := c.Begin()
	w.B = append(w.B, '[')
	var total int
	var err error
	w.B, total, err = s.db.AppendPlans(w.B, c.Principal.User, offset, limit)
	if err != nil {
		c.Storage(err)
		return
	}
	w.B = append(w.B, ']')
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

func (s *Handlers) Get(c *rest.Ctx) {
	w := c.Begin()
	start := len(w.B)
	var err error
	w.B, err = s.db.AppendPlan(w.B, c.Principal.User, string(c.Param("id")))
	switch {
	case errors.Is(err, store.ErrNotFound):
		notFound(c)
	case err != nil:
		c.Storage(err)
	default:
		var tag [tagLen]byte
		c.SetETag(rest.Tag(tag[:0], w.B[start:]))
		c.Send(fasthttp.StatusOK)
	}
}

func notFound(c *rest.Ctx) { c.Error(errcode.NotFound, "no such plan") }

// stale answers a write whose If-Match named no current version.
func stale(c *rest.Ctx) {
	c.Error(errcode.PreconditionFailed, "If-Match names no current version of this plan: read it again, then retry")
}

// checkInput refuses an input the calculator would refuse, with its paths
// under input.; on a refusal it has answered.
func (s *Handlers) checkInput(c *rest.Ctx, in *planIn) bool {
	if s.calc.Validate(in.Input, "input.", c.Result()) {
		return true
	}
	c.Invalid(c.Result())
	return false
}

func (s *Handlers) Create(c *rest.Ctx) {
	var p savedPlan
	if !rest.Decode(c, s.inSchema, &p.planIn) || !s.checkInput(c, &p.planIn) {
		return
	}
	id, err := newID()
	if err != nil {
		c.Internal(err)
		return
	}
	p.ID = id
	p.CreatedAt = s.now().UTC().Truncate(time.Second)
	p.UpdatedAt = p.CreatedAt
	doc, err := json.Marshal(&p)
	if err != nil {
		c.Internal(err)
		return
	}
	kept, err := c.Keep(fasthttp.StatusCreated, doc, true)
	if err != nil {
		c.Internal(err)
		return
	}
	if err := s.db.CreatePlan(c.Principal.User, id, doc, MaxPlans, kept, s.watch(c, &p)); err != nil {
		s.writeFailed(c, err)
		return
	}
	c.Created(doc)
}

func (s *Handlers) writeFailed(c *rest.Ctx, err error) {
	var bad *badRequest
	switch {
	case errors.As(err, &bad):
		c.Invalid(&bad.res)
	case errors.Is(err, store.ErrNotFound):
		notFound(c)
	case errors.Is(err, store.ErrStale):
		stale(c)
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, "plan limit of "+strconv.Itoa(MaxPlans)+" reached; delete a plan first")
	default:
		c.Storage(err)
	}
}

func (s *Handlers) Put(c *rest.Ctx) {
	var in planPut
	if !rest.Decode(c, s.putSchema, &in) {
		return
	}
	if in.ID != nil && *in.ID != string(c.Param("id")) {
		c.Fail("id", "is not this plan's id; leave it out or send the id of the path")
		return
	}
	if !s.checkInput(c, &in.planIn) {
		return
	}
	s.rewrite(c, func(p *savedPlan) error {
		if in.CreatedAt != nil && !in.CreatedAt.Equal(p.CreatedAt) {
			return invalid("createdAt", "is not this plan's creation time; leave it out or send it unchanged")
		}
		p.planIn = in.planIn
		return nil
	})
}

func (s *Handlers) Patch(c *rest.Ctx) {
	patch := c.RC.Request.Body()
	var scratch planIn
	if !rest.CheckPatch(c, s.inSchema, patch, &scratch) {
		return
	}
	s.rewrite(c, func(p *savedPlan) error {
		cur, err := json.Marshal(&p.planIn)
		if err != nil {
			return err
		}
		merged, err := rest.MergePatch(cur, patch)
		if err != nil {
			return err
		}
		var in planIn
		bad := &badRequest{}
		if !s.inSchema.Decode(merged, &in, &bad.res) || !s.calc.Validate(in.Input, "input.", &bad.res) {
			return bad
		}
		p.planIn = in
		return nil
	})
}

// rewrite reads, changes with change and writes the caller's plan and its
// watch in one transaction, then answers it. The request's If-Match is
// checked against the stored version inside the transaction.
func (s *Handlers) rewrite(c *rest.Ctx, change func(p *savedPlan) error) {
	var doc []byte
	id := string(c.Param("id"))
	pre := rest.IfMatch(c)
	var tag [tagLen]byte
	err := s.db.UpdatePlan(c.Principal.User, id, func(old []byte) ([]byte, *store.PlanWatch, error) {
		if !pre.Holds(rest.Tag(tag[:0], old)) {
			return nil, nil, store.ErrStale
		}
		var p savedPlan
		if err := json.Unmarshal(old, &p); err != nil {
			return nil, nil, err
		}
		if err := change(&p); err != nil {
			return nil, nil, err
		}
		p.ID = id
		p.UpdatedAt = s.now().UTC().Truncate(time.Second)
		var err error
		doc, err = json.Marshal(&p)
		return doc, s.watch(c, &p), err
	})
	if err != nil {
		s.writeFailed(c, err)
		return
	}
	c.SetETag(rest.Tag(tag[:0], doc))
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusOK)
}

func (s *Handlers) Delete(c *rest.Ctx) {
	var check func(doc []byte) error
	if pre := rest.IfMatch(c); pre.Set() {
		check = func(doc []byte) error {
			var tag [tagLen]byte
			if !pre.Holds(rest.Tag(tag[:0], doc)) {
				return store.ErrStale
			}
			return nil
		}
	}
	switch err := s.db.DeletePlan(c.Principal.User, string(c.Param("id")), check); {
	case errors.Is(err, store.ErrNotFound):
		notFound(c)
	case errors.Is(err, store.ErrStale):
		stale(c)
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}
