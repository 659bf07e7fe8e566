package handlers

import (
	"crypto/rand"
	"errors"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/program"
	"fiplan/data/store"
	"fiplan/data/taxtable"
	"fiplan/handlers/auth"
	"fiplan/handlers/places"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
	"fiplan/handlers/taxes"
)

func (s *Server) table() []*rest.Route {
	return append([]*rest.Route{
		rest.Get(v1+"/status", rest.Public, s.status, &rest.Doc{
			Tag:     "status",
			Status:  200,
			Summary: "Service health and status",
			Desc:    "Reports `status: ok` with the version, uptime, the size of each embedded dataset and the storage state. Answers 503 SERVICE_UNAVAILABLE when storage is unusable.",
			Data:    statusDoc,
			Errs:    []rest.ErrDoc{rest.Err(CodeUnavailable, "storage is unusable")}}),
		rest.Get(v1+"/openapi.json", rest.Public, s.openAPI, &rest.Doc{
			Tag:     "status",
			Status:  200,
			Summary: "This OpenAPI 3.1 document",
			Desc:    "The machine-readable description of every route. It is served as the document itself, without the success envelope."}),
		calcRoute(s),
		healthRoute(s),
		rest.Get(v1+"/user/api-keys", rest.User, s.listKeys, &rest.Doc{
			Tag:     "user",
			Status:  200,
			List:    true,
			Summary: "List your API keys",
			Desc:    "Every active key of the caller, oldest first, without secrets: the id, the name, a hint of the key's first and last characters, when it was created and last used (last use is recorded within 30 seconds).",
			Data:    keyDoc}),
		rest.Post(v1+"/user/api-keys", rest.Session, s.createKey, &rest.Doc{
			Tag:     "user",
			Status:  201,
			Summary: "Create an API key",
			Desc:    "Creates a key `svc_...` for integrations and returns it once, in `data.key`: only its SHA-256 hash is stored. Keys act for their owner with the owner's tier (never with the admin role) and do not expire until revoked. Needs a signed-in session, not an API key. At most 25 keys per user.",
			Body:    keyCreateSchema,
			Data:    createdKeyDoc,
			Errs:    []rest.ErrDoc{rest.Err(CodeConflict, "the caller already has the maximum number of keys"), rest.Err(CodeForbidden, "called with an API key")}}),
		rest.Delete(v1+"/user/api-keys/{id}", rest.Session, s.revokeKey, &rest.Doc{
			Tag:     "user",
			Status:  204,
			Summary: "Revoke an API key",
			Desc:    "Revokes the key at once: its next use answers 401. Another user's key id answers 404.",
			Errs:    []rest.ErrDoc{rest.Err(CodeNotFound, "no key with this id belongs to the caller"), rest.Err(CodeForbidden, "called with an API key")}}),

		rest.Get(v1+"/geo/cities", rest.Public, s.places.List, s.places.Docs.List),
		rest.Get(v1+"/geo/cities/{id}", rest.User, s.places.Get, s.places.Docs.Get),
		rest.Get(v1+"/geo/compare", rest.User, s.places.Compare, s.places.Docs.Compare),
		rest.Post(v1+"/geo/recommendations", rest.User, s.places.Recommend, s.places.Docs.Recommend),

		rest.Get(v1+"/tax/countries", rest.User, s.tax.Countries, s.tax.Docs.Countries),
		rest.Post(v1+"/tax/calculate", rest.User, s.tax.Calculate, s.tax.Docs.Calculate),
		rest.Get(v1+"/tax/programs", rest.User, s.tax.Programs, s.tax.Docs.Programs),
		rest.Get(v1+"/tax/programs/{id}", rest.User, s.tax.Program, s.tax.Docs.Program),
		rest.Post(v1+"/tax/optimize", rest.Pro, s.tax.Optimize, s.tax.Docs.Optimize),

		rest.Get(v1+"/features", rest.User, s.features.List, s.features.Docs.List),
		rest.Get(v1+"/features/{key}", rest.User, s.features.Get, s.features.Docs.Get),
		rest.Put(v1+"/features/{key}", rest.Admin, s.features.Put, s.features.Docs.Put),
		rest.Delete(v1+"/features/{key}", rest.Admin, s.features.Delete, s.features.Docs.Delete),
		rest.Get(v1+"/features/{key}/stats", rest.Admin, s.features.Stats, s.features.Docs.Stats),
	}, accountRoutes(s)...)
}

func (s *Server) loadDatasets() error {
	var err error
	if s.programs, err = program.Embedded(); err != nil {
		return err
	}
	if s.cities, err = geo.Embedded(); err != nil {
		return err
	}
	if s.places, err = places.New(s.vocab, s.cities, s.programs); err != nil {
		return err
	}
	if s.taxes, err = taxtable.Embedded(); err != nil {
		return err
	}
	if s.fx, err = fx.Embedded(); err != nil {
		return err
	}
	if s.tax, err = taxes.New(s.vocab, s.taxes, s.programs, s.fx); err != nil {
		return err
	}
	if s.history, err = history.Embedded(); err != nil {
		return err
	}
	s.datasets = append(s.datasets,
		dataset{"cities", s.cities.Len()},
		dataset{"returnHistoryYears", len(s.history.Years)},
		dataset{"taxCountries", len(s.taxes.Codes())},
		dataset{"taxPrograms", s.programs.Len()},
		dataset{"exchangeRates", len(s.fx.Codes())},
	)
	return nil
}

// Status

type statusData struct {
	Status        string        `json:"status" schema:"enum=ok"`
	Version       string        `json:"version"`
	StartedAt     time.Time     `json:"startedAt"`
	UptimeSeconds int64         `json:"uptimeSeconds"`
	Datasets      []datasetInfo `json:"datasets" doc:"Each embedded dataset and its number of records."`
	Storage       storageInfo   `json:"storage"`
}

type datasetInfo struct {
	Name    string `json:"name"`
	Records int    `json:"records"`
}

type storageInfo struct {
	State     string `json:"state" schema:"enum=ok"`
	SizeBytes int64  `json:"sizeBytes"`
}

var statusDoc = schema.Doc[statusData]()

func (s *Server) status(c *Ctx) {
	if err := s.db.Ping(); err != nil {
		s.log.Error("storage unusable", "err", err)
		c.Error(CodeUnavailable, "storage is unavailable; retry with backoff")
		return
	}
	size, _ := s.db.Size()
	now := s.now()
	w := c.Begin()
	w.Begin()
	w.Key("status")
	w.String("ok")
	w.Key("version")
	w.String(s.cfg.Version)
	w.Key("startedAt")
	w.Time(s.started)
	w.Key("uptimeSeconds")
	w.Int(int64(now.Sub(s.started) / time.Second))
	w.Key("datasets")
	w.BeginArray()
	for _, d := range s.datasets {
		w.Begin()
		w.Key("name")
		w.String(d.name)
		w.Key("records")
		w.Int(int64(d.size))
		w.End()
	}
	w.EndArray()
	w.Key("storage")
	w.Begin()
	w.Key("state")
	w.String("ok")
	w.Key("sizeBytes")
	w.Int(size)
	w.End()
	w.End()
	c.Send(fasthttp.StatusOK)
}

func (s *Server) openAPI(c *Ctx) {
	c.SendBody(fasthttp.StatusOK, s.openapi) // immutable for the server's life
}

// API keys

type keyCreate struct {
	Name string `json:"name" schema:"required,minLen=1,maxLen=64" doc:"A label to recognise the key by, such as the integration's name."`
}

type createdKey struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Hint      string    `json:"hint"`
	CreatedAt time.Time `json:"createdAt"`
	Key       string    `json:"key" doc:"The key itself. It is shown only in this response: store it now."`
}

// apiKey is a key as the API lists it: never the secret, never the owner.
// It is the API's shape, kept apart from the stored record.
type apiKey struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Hint       string    `json:"hint" doc:"The key's first and last characters, to recognise it by."`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt,omitzero" doc:"Absent until the key is first used; recorded within 30 seconds of a use."`
}

var (
	keyCreateSchema = schema.New[keyCreate]()
	keyDoc          = schema.Doc[apiKey]()
	createdKeyDoc   = schema.Doc[createdKey]()
)

func (s *Server) listKeys(c *Ctx) {
	keys, err := s.db.Keys(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	// Uses not yet written show already.
	s.touchMu.Lock()
	for i := range keys {
		if t, ok := s.touched[store.KeyRef(c.Principal.User, keys[i].ID)]; ok && t.After(keys[i].LastUsedAt) {
			keys[i].LastUsedAt = t
		}
	}
	s.touchMu.Unlock()
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
	c.SendList(fasthttp.StatusOK, len(keys), s.cfg.MaxKeys, 0)
}

func (s *Server) createKey(c *Ctx) {
	var in keyCreate
	if !decode(c, keyCreateSchema, &in) {
		return
	}
	plain, hash, err := auth.NewKey()
	if err != nil {
		c.Internal(err)
		return
	}
	id, err := newID("key_")
	if err != nil {
		c.Internal(err)
		return
	}
	k := store.Key{ID: id, Owner: c.Principal.User, Name: in.Name, Hint: auth.KeyHint(plain), CreatedAt: s.now().UTC().Truncate(time.Second)}
	switch err := s.db.CreateKey(k, hash, s.cfg.MaxKeys); {
	case errors.Is(err, store.ErrLimit):
		c.Error(CodeConflict, "API key limit reached; revoke a key first")
		return
	case err != nil:
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusCreated, createdKey{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt, Key: plain})
}

func (s *Server) revokeKey(c *Ctx) {
	switch err := s.db.RevokeKey(c.Principal.User, string(c.Param("id"))); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(CodeNotFound, "no such API key")
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}

// newID returns prefix followed by 128 random bits in base 32, an opaque
// and unguessable identifier.
func newID(prefix string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	out := make([]byte, 0, len(prefix)+26)
	out = append(out, prefix...)
	var acc uint32
	bits := 0
	for _, x := range b {
		acc = acc<<8 | uint32(x)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out = append(out, alphabet[acc>>bits&31])
		}
	}
	if bits > 0 {
		out = append(out, alphabet[acc<<(5-bits)&31])
	}
	return string(out), nil
}

// apiKeys maps stored keys to their API shape.
func apiKeys(keys []store.Key) []apiKey {
	out := make([]apiKey, len(keys))
	for i, k := range keys {
		out[i] = apiKey{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
	}
	return out
}
