package account

import (
	"errors"
	"strconv"
	"strings"

	"fiplan/compute/category"
	"fiplan/compute/health"
	"fiplan/data/store"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
)

// MaxAssets caps the assets of one user.
const MaxAssets = 1000

// Assets is the asset as an owned document; its id grammar is ast_ and 26
// characters of base32 (a-z, 2-7).
var Assets = owned.NewKind(owned.Kind{Noun: "asset", Article: "an", Plural: "assets", Tag: "assets", Prefix: "ast_",
	Max: MaxAssets, Remedy: "delete an asset first", Unique: "another of the caller's assets has this ISIN", Versioned: true})

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
	d.ListAssets = Assets.Doc(owned.List, "List your assets",
		"The caller's assets in the order they were created, paged with `limit` and `offset`; `meta.total` counts every asset that matches the filter.",
		nil, assetDoc)
	d.ListAssets.Query = append([]rest.Param{rest.Q("category", "string", "Only assets of this category: "+joinNames(health.AssetClasses())+".")}, rest.PageQuery...)
	d.CreateAsset = Assets.Doc(owned.Create, "Add an asset",
		"Stores a new asset and answers it with its id. A category left out is filled in by the categoriser; a region left out is global for an equity fund whose name says it tracks a world index (All-World, MSCI World, ACWI, Total World, Global All Cap); a currency left out is the base currency of your settings. A second asset with an ISIN you already hold is refused with 409, decided inside the write, so two racing requests cannot both succeed. At most "+strconv.Itoa(MaxAssets)+" assets per user.",
		s.assetSchema, assetDoc)
	d.GetAsset = Assets.Doc(owned.Get, "Get one asset",
		"The asset, with its ETag (a hash of the answered data) for a later conditional PUT, PATCH or DELETE.", nil, assetDoc)
	d.PutAsset = Assets.Doc(owned.Put, "Replace an asset",
		"Replaces every field of the asset with the body, as POST would create it (fields left out are cleared or take their defaults); the id and createdAt stay. The body may be an asset as GET answered it: id and createdAt, when sent, must be the stored ones, and updatedAt is ignored.",
		s.assetPutSchema, assetDoc)
	d.PatchAsset = Assets.Doc(owned.Patch, "Change some fields of an asset",
		"The body is a JSON merge patch (RFC 7396): members set fields, `null` clears an optional field, absent members stay as they are. Each member is validated as in PUT.",
		s.assetSchema, assetDoc)
	d.DeleteAsset = Assets.Doc(owned.Delete, "Delete an asset", "", nil, nil)
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
	Assets.List(c, func(dst []byte, user string, offset, limit int) ([]byte, int, error) {
		return s.db.AppendAssets(dst, user, cat, offset, limit)
	})
}

func (s *Handlers) GetAsset(c *rest.Ctx)    { Assets.Get(c, s.db.AppendAsset) }
func (s *Handlers) DeleteAsset(c *rest.Ctx) { Assets.Delete(c, s.db.DeleteAsset) }
func (s *Handlers) CreateAsset(c *rest.Ctx) { s.assets.Create(c) }
func (s *Handlers) PatchAsset(c *rest.Ctx)  { s.assets.Patch(c) }

func (s *Handlers) PutAsset(c *rest.Ctx) {
	var in assetPut
	if rest.Decode(c, s.assetPutSchema, &in) {
		s.assets.Replace(c, &in.assetIn, &in.Echo)
	}
}

// assetWrites are the asset's writes: completed before they are stored,
// kept with their id, ISIN and category beside them.
func (s *Handlers) assetWrites() *owned.Docs[asset, assetIn, *asset] {
	return &owned.Docs[asset, assetIn, *asset]{Kind: Assets, Schema: s.assetSchema, Now: s.now,
		Check: func(c *rest.Ctx, in *assetIn) bool {
			if err := s.complete(c, in); err != nil {
				c.Storage(err)
				return false
			}
			return true
		},
		Insert: func(c *rest.Ctx, a *asset, doc []byte, kept *store.Keep) error {
			return held(a, s.db.CreateAsset(c.Principal.User, meta(a), doc, MaxAssets, kept))
		},
		Update: func(c *rest.Ctx, id string, edit func(old []byte) (*asset, []byte, error)) error {
			var a *asset
			err := s.db.UpdateAsset(c.Principal.User, id, func(old []byte) (store.AssetMeta, []byte, error) {
				var doc []byte
				var err error
				if a, doc, err = edit(old); err != nil {
					return store.AssetMeta{}, nil, err
				}
				return meta(a), doc, nil
			})
			return held(a, err)
		}}
}

// held is err, with a held ISIN answered as the conflict it is.
func held(a *asset, err error) error {
	if errors.Is(err, store.ErrConflict) && a != nil {
		return owned.Conflict("you already hold an asset with ISIN " + deref(a.ISIN))
	}
	return err
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
