package account

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/compute/category"
	"fiplan/compute/health"
	"fiplan/data/store"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// MaxAssets bounds the assets one user may keep.
// MaxAssets caps the assets of one user.
const MaxAssets = 1000

// AccountTypes are the kinds of account an asset may sit in.
var AccountTypes = []string{"taxable", "tax-advantaged", "pension"}

// categoryIndex is the category code the store keeps beside each asset;
// -1 when name is no category.
func categoryIndex(name string) int {
	code, ok := store.CategoryCode(name)
	if !ok {
		return -1
	}
	return int(code)
}

func (s *Handlers) assetDocs(d *Docs, assetDoc rest.Schema) {
	notFound := rest.Err(errcode.NotFound, "the caller has no asset with this id (another user's id included)")
	conflict := rest.Err(errcode.Conflict, "another of the caller's assets has this ISIN, or the caller already has "+strconv.Itoa(MaxAssets)+" assets")
	d.ListAssets = &rest.Doc{
		Tag:     "assets",
		Status:  200,
		List:    true,
		Summary: "List your assets",
		Desc:    "The caller's assets in the order they were created, paged with `limit` and `offset`; `meta.total` counts every asset that matches the filter.",
		Data:    assetDoc,
		Query:   append([]rest.Param{rest.Q("category", "string", "Only assets of this category: "+joinNames(health.AssetClasses())+".")}, rest.PageQuery...)}
	d.CreateAsset = &rest.Doc{
		Tag:     "assets",
		Status:  201,
		Summary: "Add an asset",
		Desc:    "Stores a new asset and answers it with its id. A category left out is filled in by the categoriser; a region left out is global for an equity fund whose name says it tracks a world index (All-World, MSCI World, ACWI, Total World, Global All Cap); a currency left out is the base currency of your settings. A second asset with an ISIN you already hold is refused with 409, decided inside the write, so two racing requests cannot both succeed. At most " + strconv.Itoa(MaxAssets) + " assets per user.",
		Body:    s.assetSchema,
		Data:    assetDoc,
		Errs:    []rest.ErrDoc{conflict}}
	d.GetAsset = &rest.Doc{
		Tag:       "assets",
		Status:    200,
		Summary:   "Get one asset",
		Desc:      "The asset, with its ETag (a hash of the answered data) for a later conditional PUT, PATCH or DELETE.",
		Data:      assetDoc,
		Versioned: true,
		Errs:      []rest.ErrDoc{notFound}}
	d.PutAsset = &rest.Doc{
		Tag:       "assets",
		Status:    200,
		Summary:   "Replace an asset",
		Desc:      "Replaces every field of the asset with the body, as POST would create it (fields left out are cleared or take their defaults); the id and createdAt stay. The body may be an asset as GET answered it: id and createdAt, when sent, must be the stored ones, and updatedAt is ignored.",
		Body:      s.assetPutSchema,
		Data:      assetDoc,
		Versioned: true,
		Errs:      []rest.ErrDoc{notFound, conflict}}
	d.PatchAsset = &rest.Doc{
		Tag:       "assets",
		Status:    200,
		Summary:   "Change some fields of an asset",
		Desc:      "The body is a JSON merge patch (RFC 7396): members set fields, `null` clears an optional field, absent members stay as they are. Each member is validated as in PUT.",
		Body:      s.assetSchema,
		Data:      assetDoc,
		Versioned: true,
		Errs:      []rest.ErrDoc{notFound, conflict}}
	d.DeleteAsset = &rest.Doc{
		Tag:       "assets",
		Status:    204,
		Summary:   "Delete an asset",
		Versioned: true,
		Errs:      []rest.ErrDoc{notFound}}
}

func joinNames(list []string) string { return "`" + strings.Join(list, "`, `") + "`" }

func (s *Handlers) ListAssets(c *rest.Ctx) {
	cat := store.AnyCategory
	if v := c.RC.QueryArgs().Peek("category"); v != nil {
		if cat = categoryIndex(bytesconv.String(v)); cat < 0 {
			c.Fail("category", "must be one of "+joinNames(health.AssetClasses()))
			return
		}
	}
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	w := c.Begin()
	w.B = append(w.B, '[')
	var total int
	var err error
	w.B, total, err = s.db.AppendAssets(w.B, c.Principal.User, cat, offset, limit)
	if err != nil {
		c.Storage(err)
		return
	}
	w.B = append(w.B, ']')
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

func (s *Handlers) GetAsset(c *rest.Ctx) {
	w := c.Begin()
	start := len(w.B)
	var err error
	w.B, err = s.db.AppendAsset(w.B, c.Principal.User, string(c.Param("id")))
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such asset")
	case err != nil:
		c.Storage(err)
	default:
		var tag [tagLen]byte
		c.SetETag(rest.Tag(tag[:0], w.B[start:]))
		c.Send(fasthttp.StatusOK)
	}
}

// complete fills in what a client may leave out: the category, from the
// categoriser; the region of an equity fund whose name says it tracks a
// world index, global (so the health score looks through it); and the
// currency, from the settings.
func (s *Handlers) complete(c *rest.Ctx, in *assetIn) error {
	if in.Category == "" {
		in.Category = category.Of(in.Name, deref(in.ISIN), deref(in.Ticker)).Category
	}
	if in.Region == nil && in.Category == "equity" && category.WorldFund(in.Name) {
		global := "global"
		in.Region = &global
	}
	if in.Currency == "" {
		st, err := s.settings(c.Principal.User)
		if err != nil {
			return err
		}
		if in.Currency, err = s.base(c.Principal.User, &st); err != nil {
			return err
		}
	}
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func meta(a *asset) store.AssetMeta {
	return store.AssetMeta{ID: a.ID, ISIN: deref(a.ISIN), Category: uint8(categoryIndex(a.Category))}
}

func (s *Handlers) CreateAsset(c *rest.Ctx) {
	var a asset
	if !rest.Decode(c, s.assetSchema, &a.assetIn) {
		return
	}
	if err := s.complete(c, &a.assetIn); err != nil {
		c.Storage(err)
		return
	}
	id, err := newID("ast_")
	if err != nil {
		c.Internal(err)
		return
	}
	a.ID = id
	a.CreatedAt = s.now().UTC().Truncate(time.Second)
	a.UpdatedAt = a.CreatedAt
	doc, err := json.Marshal(&a)
	if err != nil {
		c.Internal(err)
		return
	}
	kept, err := c.Keep(fasthttp.StatusCreated, doc, true)
	if err != nil {
		c.Internal(err)
		return
	}
	if err := s.db.CreateAsset(c.Principal.User, meta(&a), doc, MaxAssets, kept); err != nil {
		s.assetWriteFailed(c, err, &a)
		return
	}
	c.Created(doc)
}

func (s *Handlers) assetWriteFailed(c *rest.Ctx, err error, a *asset) {
	var bad *badRequest
	switch {
	case errors.As(err, &bad):
		c.Invalid(&bad.res)
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such asset")
	case errors.Is(err, store.ErrStale):
		stale(c)
	case errors.Is(err, store.ErrConflict):
		c.Error(errcode.Conflict, "you already hold an asset with ISIN "+deref(a.ISIN))
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, "asset limit of "+strconv.Itoa(MaxAssets)+" reached; delete an asset first")
	default:
		c.Storage(err)
	}
}

func (s *Handlers) PutAsset(c *rest.Ctx) {
	var in assetPut
	if !rest.Decode(c, s.assetPutSchema, &in) {
		return
	}
	if in.ID != nil && *in.ID != string(c.Param("id")) {
		c.Fail("id", "is not this asset's id; leave it out or send the id of the path")
		return
	}
	if err := s.complete(c, &in.assetIn); err != nil {
		c.Storage(err)
		return
	}
	s.rewriteAsset(c, func(a *asset) error {
		if in.CreatedAt != nil && !in.CreatedAt.Equal(a.CreatedAt) {
			return invalid(&schema.Detail{Path: "createdAt", Message: "is not this asset's creation time; leave it out or send it unchanged"})
		}
		a.assetIn = in.assetIn
		return nil
	})
}

func (s *Handlers) PatchAsset(c *rest.Ctx) {
	patch := c.RC.Request.Body()
	var scratch assetIn
	if !rest.CheckPatch(c, s.assetSchema, patch, &scratch) {
		return
	}
	s.rewriteAsset(c, func(a *asset) error {
		cur, err := json.Marshal(&a.assetIn)
		if err != nil {
			return err
		}
		merged, err := rest.MergePatch(cur, patch)
		if err != nil {
			return err
		}
		var in assetIn
		bad := &badRequest{}
		if !s.assetSchema.Decode(merged, &in, &bad.res) {
			return bad
		}
		a.assetIn = in
		return nil
	})
}

// rewriteAsset reads, changes with change and writes the caller's asset
// in one transaction, then answers it. The request's If-Match is checked
// against the stored version inside the transaction.
func (s *Handlers) rewriteAsset(c *rest.Ctx, change func(a *asset) error) {
	var a asset
	var doc []byte
	id := string(c.Param("id"))
	pre := rest.IfMatch(c)
	var tag [tagLen]byte
	err := s.db.UpdateAsset(c.Principal.User, id, func(old []byte) (store.AssetMeta, []byte, error) {
		if !pre.Holds(rest.Tag(tag[:0], old)) {
			return store.AssetMeta{}, nil, store.ErrStale
		}
		a = asset{}
		if err := json.Unmarshal(old, &a); err != nil {
			return store.AssetMeta{}, nil, err
		}
		if err := change(&a); err != nil {
			return store.AssetMeta{}, nil, err
		}
		a.ID = id
		a.UpdatedAt = s.now().UTC().Truncate(time.Second)
		var err error
		doc, err = json.Marshal(&a)
		return meta(&a), doc, err
	})
	if err != nil {
		s.assetWriteFailed(c, err, &a)
		return
	}
	c.SetETag(rest.Tag(tag[:0], doc))
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusOK)
}

func (s *Handlers) DeleteAsset(c *rest.Ctx) {
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
	switch err := s.db.DeleteAsset(c.Principal.User, string(c.Param("id")), check); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such asset")
	case errors.Is(err, store.ErrStale):
		stale(c)
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}
