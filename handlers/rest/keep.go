package rest

import (
	"errors"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
)

// Keeper keeps the answers of creates sent with an Idempotency-Key. The
// server sets one (SetKeeper) on a request whose route takes the key and
// that carries one; a create handler asks it, through Keep, for the answer
// it is about to send, and hands that to the store's create, which writes
// it in the create's own transaction.
type Keeper interface {
	// Keep returns the answer (status, data in the success envelope, and
	// its ETag when tagged) as the store keeps it.
	Keep(c *Ctx, status int, data []byte, tagged bool) (*store.Keep, error)
	// Replay answers a create the store refused because its key had been
	// used: the answer kept then, or 409 for another request.
	Replay(c *Ctx, used *store.KeyUsed)
}

// SetKeeper sets the request's Keeper.
func (c *Ctx) SetKeeper(k Keeper) { c.keeper = k }

// Keep is the answer to keep with the create the handler is about to
// write: status, data as the success envelope's data, and, when tagged,
// data's ETag. nil (and no error) when the request carries no
// Idempotency-Key. Pass it to the store's create; on success answer with
// Created (tagged) or Begin/Send, and send any error to Storage, which
// replays a used key's answer.
func (c *Ctx) Keep(status int, data []byte, tagged bool) (*store.Keep, error) {
	if c.keeper == nil {
		return nil, nil
	}
	return c.keeper.Keep(c, status, data, tagged)
}

// replayed answers err when it is a create refused on its used key.
func (c *Ctx) replayed(err error) bool {
	var used *store.KeyUsed
	if c.keeper == nil || !errors.As(err, &used) {
		return false
	}
	c.keeper.Replay(c, used)
	return true
}

// Created answers 201 with data, a stored document, and its ETag.
func (c *Ctx) Created(data []byte) {
	var tag [tagLen]byte
	c.SetETag(Tag(tag[:0], data))
	c.Begin().Raw(data)
	c.Send(fasthttp.StatusCreated)
}

// tagLen bounds an entity tag's length, for a buffer on the stack.
const tagLen = 32
