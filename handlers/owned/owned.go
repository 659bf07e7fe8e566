// Package owned serves the documents a user owns under an opaque id:
// assets, saved plans and webhook endpoints. Each kind states what differs
// (a Kind: its names, id prefix and cap; its store calls; for a document
// the client writes, its schema and checks, in Docs); this package holds
// what they share: the id grammar and new ids, GET with its ETag, the
// list, DELETE and the rewrites under If-Match, the create under the cap,
// the answers to an id the caller does not own (404, another user's id
// included: never 403, so ids cannot be probed), to a stale If-Match (412)
// and to the cap (409), and the routes' declarations.
package owned

import (
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// Kind is one kind of owned document: what its messages, ids and
// declarations say of it. Make it with NewKind.
type Kind struct {
	Noun    string // "asset": "no such asset"
	Article string // "an": "must be an asset id"
	Plural  string // what the cap counts: "assets"
	Tag     string // the routes' OpenAPI tag
	Prefix  string // of every id: "ast_"
	Max     int    // the cap per user
	Remedy  string // how to make room: "delete an asset first"
	// Unique, when set, is what else a write may collide on ("another of
	// the caller's assets has this ISIN"), declared on create and rewrites.
	Unique string
	// Versioned: answers carry an ETag and writes honour If-Match.
	Versioned bool
	// Unpaged: the list is answered whole (it holds at most Max).
	Unpaged bool

	// ID is the grammar of an id, checked by the chain before a handler.
	ID *rest.PathParam
}

// NewKind completes k with its id grammar: the prefix and 26 characters
// of base32 (a-z, 2-7), 128 random bits.
func NewKind(k Kind) *Kind {
	k.ID = rest.NewPathParam("id", "^"+k.Prefix+"[a-z2-7]{26}$", len(k.Prefix)+26,
		"must be "+k.Article+" "+k.Noun+" id: "+k.Prefix+" and 26 characters of a-z and 2-7")
	return &k
}

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewID returns prefix followed by 128 random bits in base 32, lower case:
// an opaque and unguessable identifier.
func NewID(prefix string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return prefix + strings.ToLower(idEncoding.EncodeToString(b[:])), nil
}

// NewID returns a new id of the kind's grammar.
func (k *Kind) NewID() (string, error) { return NewID(k.Prefix) }

// tagLen bounds an entity tag's length, for a buffer on the stack.
const tagLen = 32

// NotFound answers an id the caller owns no document under.
func (k *Kind) NotFound(c *rest.Ctx) { c.Error(errcode.NotFound, "no such "+k.Noun) }

// Stale answers a write whose If-Match named no current version.
func (k *Kind) Stale(c *rest.Ctx) {
	c.Error(errcode.PreconditionFailed, "If-Match names no current version of this "+k.Noun+": read it again, then retry")
}

// Refusal is an answer a kind decides inside or around a store call (a
// merged patch that fails its schema, a held ISIN); Failed sends it as it
// is.
type Refusal struct {
	res schema.Result
}

func (r *Refusal) Error() string { return r.res.Error }

// Invalid is a 400 VALIDATION_ERROR on one field.
func Invalid(path, msg string) *Refusal {
	return &Refusal{res: schema.Result{Code: errcode.Validation, Error: "request body failed validation", Details: []schema.Detail{{Path: path, Message: msg}}}}
}

// Conflict is a 409 CONFLICT saying msg.
func Conflict(msg string) *Refusal {
	return &Refusal{res: schema.Result{Code: errcode.Conflict, Error: msg}}
}

// Failed answers a store call's error: a Refusal as it is, ErrNotFound
// 404, ErrStale 412, ErrLimit 409, anything else as a storage failure.
func (k *Kind) Failed(c *rest.Ctx, err error) {
	var r *Refusal
	switch {
	case errors.As(err, &r) && r.res.Code == errcode.Conflict:
		c.Error(r.res.Code, r.res.Error)
	case errors.As(err, &r):
		c.Invalid(&r.res)
	case errors.Is(err, store.ErrNotFound):
		k.NotFound(c)
	case errors.Is(err, store.ErrStale):
		k.Stale(c)
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, k.Noun+" limit of "+strconv.Itoa(k.Max)+" reached; "+k.Remedy)
	default:
		c.Storage(err)
	}
}

// Get answers the caller's document id, read by fetch, with its ETag.
func (k *Kind) Get(c *rest.Ctx, fetch func(dst []byte, user, id string) ([]byte, error)) {
	w := c.Begin()
	start := len(w.B)
	var err error
	if w.B, err = fetch(w.B, c.Principal.User, string(c.Param("id"))); err != nil {
		k.Failed(c, err)
		return
	}
	if k.Versioned {
		var tag [tagLen]byte
		c.SetETag(rest.Tag(tag[:0], w.B[start:]))
	}
	c.Send(fasthttp.StatusOK)
}

// List answers a page of the caller's documents, appended comma-separated
// by page, which also counts them all (the whole list when Unpaged).
func (k *Kind) List(c *rest.Ctx, page func(dst []byte, user string, offset, limit int) ([]byte, int, error)) {
	limit, offset := k.Max, 0
	if !k.Unpaged {
		var ok bool
		if limit, offset, ok = c.Page(); !ok {
			return
		}
	}
	w := c.Begin()
	w.B = append(w.B, '[')
	var total int
	var err error
	if w.B, total, err = page(w.B, c.Principal.User, offset, limit); err != nil {
		c.Storage(err)
		return
	}
	w.B = append(w.B, ']')
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

// Delete removes the caller's document id with del and answers 204. For a
// versioned kind with If-Match, del's check sees the stored JSON inside
// the delete's transaction and refuses a stale version.
func (k *Kind) Delete(c *rest.Ctx, del func(user, id string, check func(doc []byte) error) error) {
	var check func(doc []byte) error
	if pre := rest.IfMatch(c); k.Versioned && pre.Set() {
		check = func(doc []byte) error {
			var tag [tagLen]byte
			if !pre.Holds(rest.Tag(tag[:0], doc)) {
				return store.ErrStale
			}
			return nil
		}
	}
	if err := del(c.Principal.User, string(c.Param("id")), check); err != nil {
		k.Failed(c, err)
		return
	}
	c.NoContent()
}
