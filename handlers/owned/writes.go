package owned

import (
	"encoding/json"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Times are a stored document's server-owned times, embedded after its
// client-written fields.
type Times struct {
	CreatedAt time.Time `json:"createdAt" schema:"required"`
	UpdatedAt time.Time `json:"updatedAt" schema:"required"`
}

// Echo is what a PUT body may send back of a document as GET answered it,
// embedded after its client-written fields: the server-owned fields, each
// optional.
type Echo struct {
	ID        *string    `json:"id" schema:"maxLen=64" doc:"Optional: when sent, it must be this document's id."`
	CreatedAt *time.Time `json:"createdAt" doc:"Optional: when sent, it must be this document's creation time."`
	UpdatedAt *time.Time `json:"updatedAt" doc:"Optional and ignored: the server sets it."`
}

// Doc is a pointer to a document type T whose client-written part is In:
// the parts the layer sets.
type Doc[T, In any] interface {
	*T
	Parts() (id *string, in *In, times *Times)
}

// Docs are the writes of a kind whose documents a client writes (In) and
// the server stores with an id and times (T): POST, PUT and PATCH.
type Docs[T, In any, P Doc[T, In]] struct {
	*Kind
	// Schema declares In: the POST body and what a PATCH merges into.
	Schema *schema.Schema[In]
	Now    func() time.Time
	// Check completes and checks a decoded POST or PUT body beyond its
	// schema, before the store is written; false when it has answered.
	Check func(c *rest.Ctx, in *In) bool
	// Merged, when set, checks a merged PATCH inside the store's
	// transaction beyond its schema; false with r holding the refusal.
	Merged func(in *In, r *schema.Result) bool
	// Insert stores the new document v, whose JSON is doc; kept as the
	// store's creates take it.
	Insert func(c *rest.Ctx, v P, doc []byte, kept *store.Keep) error
	// Update rewrites the caller's document id with the store: edit gives
	// the new document and its JSON for the stored JSON.
	Update func(c *rest.Ctx, id string, edit func(old []byte) (P, []byte, error)) error
}

// now is the time a write stamps, to the second.
func (d *Docs[T, In, P]) now() time.Time { return d.Now().UTC().Truncate(time.Second) }

// Create stores the body as a new document under a new id and answers 201
// with it and its ETag; the answer is kept under an Idempotency-Key.
func (d *Docs[T, In, P]) Create(c *rest.Ctx) {
	v := P(new(T))
	id, in, times := v.Parts()
	if !rest.Decode(c, d.Schema, in) || !d.Check(c, in) {
		return
	}
	var err error
	if *id, err = d.NewID(); err != nil {
		c.Internal(err)
		return
	}
	times.CreatedAt = d.now()
	times.UpdatedAt = times.CreatedAt
	doc, err := json.Marshal(v)
	if err != nil {
		c.Internal(err)
		return
	}
	kept, err := c.Keep(fasthttp.StatusCreated, doc, true)
	if err != nil {
		c.Internal(err)
		return
	}
	if err := d.Insert(c, v, doc, kept); err != nil {
		d.Failed(c, err)
		return
	}
	c.Created(doc)
}

// Replace replaces the client-written part of the document with in, a PUT
// body decoded with echo, what it sends back of the document: its id and
// creation time, when sent, must be the stored ones.
func (d *Docs[T, In, P]) Replace(c *rest.Ctx, in *In, echo *Echo) {
	if echo.ID != nil && *echo.ID != string(c.Param("id")) {
		c.Fail("id", "is not this "+d.Noun+"'s id; leave it out or send the id of the path")
		return
	}
	if !d.Check(c, in) {
		return
	}
	d.rewrite(c, func(v P) error {
		_, cur, times := v.Parts()
		if echo.CreatedAt != nil && !echo.CreatedAt.Equal(times.CreatedAt) {
			return Invalid("createdAt", "is not this "+d.Noun+"'s creation time; leave it out or send it unchanged")
		}
		*cur = *in
		return nil
	})
}

// Patch merges the body, a JSON merge patch (RFC 7396), into the
// client-written part of the document; the merged part is checked as a
// new document is.
func (d *Docs[T, In, P]) Patch(c *rest.Ctx) {
	patch := c.RC.Request.Body()
	var scratch In
	if !rest.CheckPatch(c, d.Schema, patch, &scratch) {
		return
	}
	d.rewrite(c, func(v P) error {
		_, cur, _ := v.Parts()
		old, err := json.Marshal(cur)
		if err != nil {
			return err
		}
		merged, err := rest.MergePatch(old, patch)
		if err != nil {
			return err
		}
		var in In
		bad := &Refusal{}
		if !d.Schema.Decode(merged, &in, &bad.res) || (d.Merged != nil && !d.Merged(&in, &bad.res)) {
			return bad
		}
		*cur = in
		return nil
	})
}

// rewrite reads, changes with change and writes the caller's document in
// one store transaction, then answers it with its ETag. The request's
// If-Match is checked against the stored version inside the transaction.
func (d *Docs[T, In, P]) rewrite(c *rest.Ctx, change func(v P) error) {
	var doc []byte
	id := string(c.Param("id"))
	pre := rest.IfMatch(c)
	var tag [tagLen]byte
	err := d.Update(c, id, func(old []byte) (P, []byte, error) {
		if !pre.Holds(rest.Tag(tag[:0], old)) {
			return nil, nil, store.ErrStale
		}
		v := P(new(T))
		if err := json.Unmarshal(old, v); err != nil {
			return nil, nil, err
		}
		if err := change(v); err != nil {
			return nil, nil, err
		}
		vid, _, times := v.Parts()
		*vid = id
		times.UpdatedAt = d.now()
		var err error
		doc, err = json.Marshal(v)
		return v, doc, err
	})
	if err != nil {
		d.Failed(c, err)
		return
	}
	c.SetETag(rest.Tag(tag[:0], doc))
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusOK)
}
