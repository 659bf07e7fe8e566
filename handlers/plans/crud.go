package plans

import (
	"fiplan/data/store"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Plans is the saved plan as an owned document; its id grammar is pln_
// and 26 characters of base32 (a-z, 2-7).
var Plans = owned.NewKind(owned.Kind{Noun: "plan", Article: "a", Plural: "plans", Tag: "plans", Prefix: "pln_",
	Max: MaxPlans, Remedy: "delete a plan first", Versioned: true})

// PlanID is the grammar of a plan id.
var PlanID = Plans.ID

func notFound(c *rest.Ctx) { Plans.NotFound(c) }

func (s *Handlers) List(c *rest.Ctx)   { Plans.List(c, s.db.AppendPlans) }
func (s *Handlers) Get(c *rest.Ctx)    { Plans.Get(c, s.db.AppendPlan) }
func (s *Handlers) Delete(c *rest.Ctx) { Plans.Delete(c, s.db.DeletePlan) }
func (s *Handlers) Create(c *rest.Ctx) { s.writes.Create(c) }
func (s *Handlers) Patch(c *rest.Ctx)  { s.writes.Patch(c) }

func (s *Handlers) Put(c *rest.Ctx) {
	var in planPut
	if rest.Decode(c, s.putSchema, &in) {
		s.writes.Replace(c, &in.planIn, &in.Echo)
	}
}

// planWrites are the plan's writes: an input the calculator would refuse
// is refused with its paths under input., and each plan is stored with
// its watch.
func (s *Handlers) planWrites() *owned.Docs[savedPlan, planIn, *savedPlan] {
	return &owned.Docs[savedPlan, planIn, *savedPlan]{Kind: Plans, Schema: s.inSchema, Now: s.now,
		Check: func(c *rest.Ctx, in *planIn) bool {
			if s.calc.Validate(in.Input, "input.", c.Result()) {
				return true
			}
			c.Invalid(c.Result())
			return false
		},
		Merged: func(in *planIn, r *schema.Result) bool { return s.calc.Validate(in.Input, "input.", r) },
		Insert: func(c *rest.Ctx, p *savedPlan, doc []byte, kept *store.Keep) error {
			return s.db.CreatePlan(c.Principal.User, p.ID, doc, MaxPlans, kept, s.watch(c, p))
		},
		Update: func(c *rest.Ctx, id string, edit func(old []byte) (*savedPlan, []byte, error)) error {
			return s.db.UpdatePlan(c.Principal.User, id, func(old []byte) ([]byte, *store.PlanWatch, error) {
				p, doc, err := edit(old)
				if err != nil {
					return nil, nil, err
				}
				return doc, s.watch(c, p), nil
			})
		}}
}
