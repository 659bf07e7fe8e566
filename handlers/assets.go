package handlers

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/category"
	"fiplan/compute/health"
	"fiplan/data/store"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// maxAssets bounds the assets one user may keep.
const maxAssets = 1000

// assetIn is an asset as a client writes it (POST, PUT, and the shape a
// PATCH merges into).
type assetIn struct {
	Name         string   `json:"name" schema:"required,minLen=1,maxLen=120" doc:"Your name for the asset."`
	Category     string   `json:"category" schema:"enum=@assetClass" doc:"Left out: filled in by the categoriser (see POST /assets/categorize)."`
	ISIN         *string  `json:"isin" schema:"nullable,maxLen=12,format=isin" doc:"ISO 6166 identifier, checked for shape and check digit (upper case). At most one asset per ISIN for each user."`
	Ticker       *string  `json:"ticker" schema:"nullable,minLen=1,maxLen=20"`
	Quantity     *float64 `json:"quantity" schema:"nullable,min=0,max=1e12" doc:"Units held."`
	Value        float64  `json:"value" schema:"required,min=0,max=1e15" doc:"Market value, in currency."`
	Currency     string   `json:"currency" schema:"maxLen=3,format=fxCurrency" doc:"ISO 4217 code of value and costBasis, one of the reference table's currencies. Left out: your settings' base currency."`
	CostBasis    *float64 `json:"costBasis" schema:"nullable,min=0,max=1e15" doc:"What the holding cost, in currency; gives the unrealised gain in the summary."`
	ExpenseRatio *float64 `json:"expenseRatio" schema:"nullable,min=0,max=0.1" doc:"Yearly fund cost as a fraction (0.0022 = 0.22%)."`
	Region       *string  `json:"region" schema:"nullable,enum=@region" doc:"Where the asset invests."`
	AccountType  *string  `json:"accountType" schema:"nullable,enum=@accountType" doc:"The kind of account that holds it."`
	Notes        *string  `json:"notes" schema:"nullable,maxLen=2000"`
}

// asset is an asset as stored and served.
type asset struct {
	ID string `json:"id" schema:"required" doc:"Opaque and unguessable."`
	assetIn
	CreatedAt time.Time `json:"createdAt" schema:"required"`
	UpdatedAt time.Time `json:"updatedAt" schema:"required"`
}

// accountTypes are the kinds of account an asset may sit in.
var accountTypes = []string{"taxable", "tax-advantaged", "pension"}

var (
	assetSchema = func() *schema.Schema[assetIn] {
		_ = healthSchema // registers the assetClass and region enums
		_ = fxSchemaFormats
		schema.Enum("accountType", accountTypes)
		return schema.New[assetIn]()
	}()
	assetDoc = func() rest.Schema { _ = assetSchema; return schema.Doc[asset]() }()
)

// categoryIndex is the position of name in health.AssetClasses, the
// category byte the store keeps beside each asset; -1 when unknown.
func categoryIndex(name string) int { return slices.Index(health.AssetClasses(), name) }

func assetRoutes(s *Server) []*rest.Route {
	notFound := rest.Err(CodeNotFound, "the caller has no asset with this id (another user's id included)")
	conflict := rest.Err(CodeConflict, "another of the caller's assets has this ISIN, or the caller already has "+itoa(maxAssets)+" assets")
	return []*rest.Route{
		rest.Get(v1+"/assets", rest.User, s.listAssets, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			List:    true,
			Summary: "List your assets",
			Desc:    "The caller's assets in the order they were created, paged with `limit` and `offset`; `meta.total` counts every asset that matches the filter.",
			Data:    assetDoc,
			Query:   append([]rest.Param{rest.Q("category", "string", "Only assets of this category: "+joinNames(health.AssetClasses())+".")}, rest.PageQuery...)}),
		rest.Post(v1+"/assets", rest.User, s.createAsset, &rest.Doc{
			Tag:     "assets",
			Status:  201,
			Summary: "Add an asset",
			Desc:    "Stores a new asset and answers it with its id. A category left out is filled in by the categoriser; a currency left out is the base currency of your settings. A second asset with an ISIN you already hold is refused with 409, decided inside the write, so two racing requests cannot both succeed. At most " + itoa(maxAssets) + " assets per user.",
			Body:    assetSchema,
			Data:    assetDoc,
			Errs:    []rest.ErrDoc{conflict}}),
		rest.Get(v1+"/assets/{id}", rest.User, s.getAsset, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			Summary: "Get one asset",
			Data:    assetDoc,
			Errs:    []rest.ErrDoc{notFound}}),
		rest.Put(v1+"/assets/{id}", rest.User, s.putAsset, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			Summary: "Replace an asset",
			Desc:    "Replaces every field of the asset with the body, as POST would create it (fields left out are cleared or take their defaults); the id and createdAt stay.",
			Body:    assetSchema,
			Data:    assetDoc,
			Errs:    []rest.ErrDoc{notFound, conflict}}),
		rest.Patch(v1+"/assets/{id}", rest.User, s.patchAsset, &rest.Doc{
			Tag:     "assets",
			Status:  200,
			Summary: "Change some fields of an asset",
			Desc:    "The body is a JSON merge patch (RFC 7396): members set fields, `null` clears an optional field, absent members stay as they are. Each member is validated as in PUT.",
			Body:    assetSchema,
			Data:    assetDoc,
			Errs:    []rest.ErrDoc{notFound, conflict}}),
		rest.Delete(v1+"/assets/{id}", rest.User, s.deleteAsset, &rest.Doc{
			Tag:     "assets",
			Status:  204,
			Summary: "Delete an asset",
			Errs:    []rest.ErrDoc{notFound}}),
	}
}

func joinNames(list []string) string { return "`" + strings.Join(list, "`, `") + "`" }

func (s *Server) listAssets(c *Ctx) {
	cat := store.AnyCategory
	if v := c.RC.QueryArgs().Peek("category"); v != nil {
		if cat = categoryIndex(b2s(v)); cat < 0 {
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

func (s *Server) getAsset(c *Ctx) {
	w := c.Begin()
	var err error
	w.B, err = s.db.AppendAsset(w.B, c.Principal.User, string(c.Param("id")))
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.Error(CodeNotFound, "no such asset")
	case err != nil:
		c.Storage(err)
	default:
		c.Send(fasthttp.StatusOK)
	}
}

// complete fills in what a client may leave out: the category, from the
// categoriser, and the currency, from the settings.
func (s *Server) complete(c *Ctx, in *assetIn) error {
	if in.Category == "" {
		in.Category = category.Of(in.Name, deref(in.ISIN), deref(in.Ticker)).Category
	}
	if in.Currency == "" {
		st, err := s.settings(c.Principal.User)
		if err != nil {
			return err
		}
		in.Currency = st.BaseCurrency
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

func (s *Server) createAsset(c *Ctx) {
	var a asset
	if !decode(c, assetSchema, &a.assetIn) {
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
	if err := s.db.CreateAsset(c.Principal.User, meta(&a), doc, maxAssets); err != nil {
		s.assetWriteFailed(c, err, &a)
		return
	}
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusCreated)
}

func (s *Server) assetWriteFailed(c *Ctx, err error, a *asset) {
	var bad *badRequest
	switch {
	case errors.As(err, &bad):
		c.Invalid(&bad.res)
	case errors.Is(err, store.ErrNotFound):
		c.Error(CodeNotFound, "no such asset")
	case errors.Is(err, store.ErrConflict):
		c.Error(CodeConflict, "you already hold an asset with ISIN "+deref(a.ISIN))
	case errors.Is(err, store.ErrLimit):
		c.Error(CodeConflict, "asset limit of "+itoa(maxAssets)+" reached; delete an asset first")
	default:
		c.Storage(err)
	}
}

// badRequest carries a failed decode out of a store transaction.
type badRequest struct{ res schema.Result }

func (b *badRequest) Error() string { return b.res.Error }

func (s *Server) putAsset(c *Ctx) {
	var in assetIn
	if !decode(c, assetSchema, &in) {
		return
	}
	if err := s.complete(c, &in); err != nil {
		c.Storage(err)
		return
	}
	s.rewriteAsset(c, func(a *asset) error {
		a.assetIn = in
		return nil
	})
}

func (s *Server) patchAsset(c *Ctx) {
	patch := c.RC.Request.Body()
	var scratch assetIn
	if !rest.CheckPatch(c, assetSchema, patch, &scratch) {
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
		if !assetSchema.Decode(merged, &in, &bad.res) {
			return bad
		}
		a.assetIn = in
		return nil
	})
}

// rewriteAsset reads, changes with change and writes the caller's asset
// in one transaction, then answers it.
func (s *Server) rewriteAsset(c *Ctx, change func(a *asset) error) {
	var a asset
	var doc []byte
	id := string(c.Param("id"))
	err := s.db.UpdateAsset(c.Principal.User, id, func(old []byte) (store.AssetMeta, []byte, error) {
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
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusOK)
}

func (s *Server) deleteAsset(c *Ctx) {
	switch err := s.db.DeleteAsset(c.Principal.User, string(c.Param("id"))); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(CodeNotFound, "no such asset")
	case err != nil:
		c.Storage(err)
	default:
		c.NoContent()
	}
}
