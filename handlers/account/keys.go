package account

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
)

// keyDocs describes the API-key routes for the OpenAPI document.
func (s *Handlers) keyDocs(d *Docs, key, created rest.Schema) {
	d.ListKeys = &rest.Doc{
		Tag:     "user",
		Status:  200,
		List:    true,
		Summary: "List your API keys",
		Desc:    "Every active key of the caller, oldest first, without secrets: the id, the name, a hint of the key's first and last characters, when it was created and last used (last use is recorded within 30 seconds).",
		Data:    key}
	d.CreateKey = &rest.Doc{
		Tag:     "user",
		Status:  201,
		Summary: "Create an API key",
		Desc:    "Creates a key `svc_...` for integrations and returns it once, in `data.key`: only its SHA-256 hash is stored. Keys act for their owner with the owner's tier (never with the admin role) and do not expire until revoked. Needs a signed-in session, not an API key. At most " + strconv.Itoa(s.maxKeys) + " keys per user.",
		Body:    s.keyCreateSchema,
		Data:    created,
		Errs:    []rest.ErrDoc{rest.Err(errcode.Conflict, "the caller already has the maximum number of keys"), rest.Err(errcode.Forbidden, "called with an API key")}}
	d.RevokeKey = &rest.Doc{
		Tag:     "user",
		Status:  204,
		Summary: "Revoke an API key",
		Desc:    "Revokes the key at once: its next use answers 401. Another user's key id answers 404.",
		Errs:    []rest.ErrDoc{rest.Err(errcode.NotFound, "no key with this id belongs to the caller"), rest.Err(errcode.Forbidden, "called with an API key")}}
}

func (s *Handlers) ListKeys(c *rest.Ctx) {
	keys, err := s.db.Keys(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	// Uses not yet written show already.
	for i := range keys {
		if t, ok := s.pending.KeyUse(c.Principal.User, keys[i].ID); ok && t.After(keys[i].LastUsedAt) {
			keys[i].LastUsedAt = t
		}
	}
	w := c.Begin()
	w.BeginArray()
	for i := range keys {
		k := &keys[i]
		w.Begin()
		w.Key("id")
		w.String(k.ID)
		w.Key("name")
		w.String(k.Name)
		w.Key("hint")
		w.String(k.Hint)
		w.Key("createdAt")
		w.Time(k.CreatedAt)
		if !k.LastUsedAt.IsZero() {
			w.Key("lastUsedAt")
			w.Time(k.LastUsedAt)
		}
		w.End()
	}
	w.EndArray()
	c.SendList(fasthttp.StatusOK, len(keys), s.maxKeys, 0)
}

func (s *Handlers) CreateKey(c *rest.Ctx) {
	var in keyCreate
	if !rest.Decode(c, s.keyCreateSchema, &in) {
		return
	}
	plain, hash, err := auth.NewKey()
	if err != nil {
		c.Internal(err)
		return
	}
	id, err := owned.NewID("key_")
	if err != nil {
		c.Internal(err)
		return
	}
	k := store.Key{ID: id, Owner: c.Principal.User, Name: in.Name, Hint: auth.KeyHint(plain), CreatedAt: s.now().UTC().Truncate(time.Second)}
	data, err := json.Marshal(createdKey{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt, Key: plain})
	if err != nil {
		c.Internal(err)
		return
	}
	kept, err := c.Keep(fasthttp.StatusCreated, data, false)
	if err != nil {
		c.Internal(err)
		return
	}
	switch err := s.db.CreateKey(k, hash, s.maxKeys, kept); {
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, "API key limit reached; revoke a key first")
		return
	case err != nil:
		c.Storage(err)
		return
	}
	c.Begin().Raw(data)
	c.Send(fasthttp.StatusCreated)
}

func (s *Handlers) RevokeKey(c *rest.Ctx) {
	switch err := s.db.RevokeKey(c.Principal.User, string(c.Param("id"))); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such API key")
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}

// apiKeys maps stored keys to their API shape.
func apiKeys(keys []store.Key) []apiKey {
	out := make([]apiKey, len(keys))
	for i, k := range keys {
		out[i] = apiKey{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
	}
	return out
}
