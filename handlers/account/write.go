package account

import (
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// What the writes of assets and documents share: the ETag buffer, the
// answer to a stale If-Match, and a failed decode carried out of a store
// transaction.

// tagLen bounds an entity tag's length, for a buffer on the stack.
const tagLen = 32

// stale answers a write whose If-Match named no current version.
func stale(c *rest.Ctx) {
	c.Error(errcode.PreconditionFailed, "If-Match names no current version of this document: read it again, then retry")
}

// badRequest carries a failed decode out of a store transaction.
type badRequest struct{ res schema.Result }

func (b *badRequest) Error() string { return b.res.Error }

func invalid(d *schema.Detail) *badRequest {
	return &badRequest{res: schema.Result{Code: errcode.Validation, Error: "request body failed validation", Details: []schema.Detail{*d}}}
}
