// Package account serves what a signed-in user keeps with fiplan: assets,
// their summary and the FI score, the profile, settings and notification
// documents, API keys, and the export and erasure of all of it.
package account

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/compute/category"
	"fiplan/compute/fiscore"
	"fiplan/compute/health"
	"fiplan/compute/portfolio"
	"fiplan/data/fx"
	"fiplan/data/store"
	"fiplan/handlers/auth"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"

	gojson "github.com/goccy/go-json"
)

// MaxAssets bounds the assets one user may keep.
// MaxAssets caps the assets of one user.
const MaxAssets = 1000

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
		Desc:    "Stores a new asset and answers it with its id. A category left out is filled in by the categoriser; a currency left out is the base currency of your settings. A second asset with an ISIN you already hold is refused with 409, decided inside the write, so two racing requests cannot both succeed. At most " + strconv.Itoa(MaxAssets) + " assets per user.",
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

// tagLen bounds an entity tag's length, for a buffer on the stack.
const tagLen = 32

// stale answers a write whose If-Match named no current version.
func stale(c *rest.Ctx) {
	c.Error(errcode.PreconditionFailed, "If-Match names no current version of this document: read it again, then retry")
}

// complete fills in what a client may leave out: the category, from the
// categoriser, and the currency, from the settings.
func (s *Handlers) complete(c *rest.Ctx, in *assetIn) error {
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
	if err := s.db.CreateAsset(c.Principal.User, meta(&a), doc, MaxAssets); err != nil {
		s.assetWriteFailed(c, err, &a)
		return
	}
	c.Begin().Raw(doc)
	c.Send(fasthttp.StatusCreated)
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

// badRequest carries a failed decode out of a store transaction.
type badRequest struct{ res schema.Result }

func (b *badRequest) Error() string { return b.res.Error }

// assetPut is a PUT body: an asset as a client writes it, or as GET
// answered it, whose server-owned fields may come back unchanged.
type assetPut struct {
	assetIn
	ID        *string    `json:"id" schema:"maxLen=64" doc:"Optional: when sent, it must be this asset's id."`
	CreatedAt *time.Time `json:"createdAt" doc:"Optional: when sent, it must be this asset's creation time."`
	UpdatedAt *time.Time `json:"updatedAt" doc:"Optional and ignored: the server sets it."`
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

// The user's profile, settings and notification preferences are JSON
// documents in the user's bucket. A user who never wrote one reads its
// defaults, which are the schema's declared defaults (schema.Reset), so
// the documentation and the behaviour come from the same tags.

type profile struct {
	DisplayName         *string  `json:"displayName" schema:"nullable,minLen=1,maxLen=80"`
	Email               *string  `json:"email" schema:"nullable,maxLen=254,format=email" doc:"Where email notifications go."`
	CurrentAge          *int     `json:"currentAge" schema:"nullable,min=16,max=120" doc:"Age today; or give birthYear."`
	BirthYear           *int     `json:"birthYear" schema:"nullable,min=1900,max=2100" doc:"Not in the future; within a year of currentAge when both are given."`
	Country             *string  `json:"country" schema:"nullable,maxLen=2,format=country" doc:"ISO 3166-1 alpha-2 code of where you live."`
	City                *string  `json:"city" schema:"nullable,minLen=1,maxLen=100"`
	Currency            string   `json:"currency" schema:"maxLen=3,format=fxCurrency,default=USD" doc:"Currency of annualIncome and annualExpenses."`
	AnnualIncome        *float64 `json:"annualIncome" schema:"nullable,min=0,max=1e12" doc:"Yearly take-home pay."`
	AnnualExpenses      *float64 `json:"annualExpenses" schema:"nullable,min=0,max=1e12" doc:"Yearly spending; sizes your FI number."`
	TargetRetirementAge *int     `json:"targetRetirementAge" schema:"nullable,min=16,max=120" doc:"Not below your current age."`
	RiskTolerance       *string  `json:"riskTolerance" schema:"nullable,enum=@riskTolerance"`
}

type settingsDoc struct {
	BaseCurrency   string  `json:"baseCurrency" schema:"maxLen=3,format=fxCurrency,default=USD" doc:"Currency of the asset summary and the FI score, and of new assets that name none."`
	Locale         string  `json:"locale" schema:"minLen=2,maxLen=35,format=locale,default=en-US" doc:"BCP 47 language tag for number and date formatting in clients."`
	ExpectedReturn float64 `json:"expectedReturn" schema:"min=-0.5,max=0.5,default=0.07" doc:"Default nominal yearly return for projections."`
	InflationRate  float64 `json:"inflationRate" schema:"min=-0.1,max=0.5,default=0.03"`
	WithdrawalRate float64 `json:"withdrawalRate" schema:"min=0.0001,max=0.2,default=0.04" doc:"Safe withdrawal rate, 0.0001 to 0.2 (the calculator's bounds): the FI number is annual expenses divided by it."`
	Units          string  `json:"units" schema:"enum=metric|imperial,default=metric"`
}

type channels struct {
	Email bool `json:"email" schema:"default=true"`
	Push  bool `json:"push" schema:"default=true"`
}

type optIn struct {
	Email bool `json:"email" schema:"default=false"`
	Push  bool `json:"push" schema:"default=false"`
}

type notifications struct {
	Milestones    channels `json:"milestones" doc:"FI progress milestones (25%, 50%, 75%, FI reached). Default: on, both channels."`
	WeeklySummary optIn    `json:"weeklySummary" doc:"A weekly portfolio summary. Default: off."`
	ProductNews   optIn    `json:"productNews" doc:"News about fiplan. Default: off."`
}

// userDoc is one of the three documents: its store name, schema and the
// cross-field checks a schema cannot express.
type userDoc[T any] struct {
	name   string
	schema *schema.Schema[T]
	check  func(s *Handlers, v *T) *schema.Detail
}

// CheckEmail accepts the shape of an email address.
func CheckEmail(s string) string {
	at := strings.LastIndexByte(s, '@')
	if at < 1 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n<>,;\"") || !strings.Contains(s[at:], ".") {
		return "must be an email address such as name@example.org"
	}
	return ""
}

// CheckCountry accepts an ISO 3166-1 alpha-2 code in capitals.
func CheckCountry(s string) string {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return "must be an ISO 3166-1 alpha-2 code in capitals, such as PT"
	}
	return ""
}

// CheckLocale accepts the shape of a BCP 47 tag: a 2-3 letter language,
// then subtags of 2-8 letters or digits.
func CheckLocale(s string) string {
	const msg = "must be a BCP 47 language tag such as en-US"
	parts := strings.Split(s, "-")
	if n := len(parts[0]); n < 2 || n > 3 {
		return msg
	}
	for i, p := range parts {
		if len(p) < 1 || len(p) > 8 || (i > 0 && len(p) < 2) {
			return msg
		}
		for j := 0; j < len(p); j++ {
			c := p[j]
			letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return msg
			}
		}
	}
	return ""
}

func checkProfile(s *Handlers, p *profile) *schema.Detail {
	year := s.now().UTC().Year()
	if p.BirthYear != nil && *p.BirthYear > year {
		return &schema.Detail{Path: "birthYear", Message: "must not be in the future"}
	}
	if p.BirthYear != nil && p.CurrentAge != nil {
		if d := year - *p.BirthYear - *p.CurrentAge; d < 0 || d > 1 {
			return &schema.Detail{Path: "birthYear", Message: "does not match currentAge"}
		}
	}
	if age, ok := p.age(year); ok && p.TargetRetirementAge != nil && *p.TargetRetirementAge < age {
		return &schema.Detail{Path: "targetRetirementAge", Message: "must not be below your current age"}
	}
	return nil
}

// age is the current age from currentAge or birthYear.
func (p *profile) age(year int) (int, bool) {
	switch {
	case p.CurrentAge != nil:
		return *p.CurrentAge, true
	case p.BirthYear != nil:
		return year - *p.BirthYear, true
	}
	return 0, false
}

func invalid(d *schema.Detail) *badRequest {
	return &badRequest{res: schema.Result{Code: errcode.Validation, Error: "request body failed validation", Details: []schema.Detail{*d}}}
}

// read gives the user's document, or its defaults when never written.
func (r *userDoc[T]) read(db store.Store, user string, v *T) error {
	r.schema.Reset(v)
	_, err := db.GetDoc(user, r.name, v)
	return err
}

// Document is one stored document's routes: GET, PUT and PATCH of
// /user/{name}.
type Document struct {
	Get, Put, Patch func(*rest.Ctx)
	Docs            struct{ Get, Put, Patch *rest.Doc }
}

// document makes the routes of r.
func (r *userDoc[T]) document(s *Handlers, summary, desc string) *Document {
	patchDesc := "The body is a JSON merge patch (RFC 7396): members set fields, `null` clears a nullable field (a field with a default is put back to it with PUT), absent members stay as they are. Each member is validated as in PUT. Answers the whole document."
	const versioned = " The answer carries the document's ETag; with If-Match, the write happens only if the document is still the version the tag names (`*`: any), else 412 PRECONDITION_FAILED."
	d := &Document{}
	d.Get = func(c *rest.Ctx) { r.get(s, c) }
	d.Docs.Get = &rest.Doc{
		Tag:       "user",
		Status:    200,
		Data:      r.schema,
		Summary:   "Get your " + summary,
		Desc:      desc + " A user who never wrote it gets the defaults. The answer carries the document's ETag (a hash of the answered data) for a later conditional PUT or PATCH.",
		Versioned: true}
	d.Put = func(c *rest.Ctx) { r.put(s, c) }
	d.Docs.Put = &rest.Doc{
		Tag:       "user",
		Status:    200,
		Body:      r.schema,
		Data:      r.schema,
		Summary:   "Replace your " + summary,
		Desc:      "Fields left out take their defaults." + versioned,
		Versioned: true}
	d.Patch = func(c *rest.Ctx) { r.patch(s, c) }
	d.Docs.Patch = &rest.Doc{
		Tag:       "user",
		Status:    200,
		Body:      r.schema,
		Data:      r.schema,
		Summary:   "Change some of your " + summary,
		Desc:      patchDesc + versioned,
		Versioned: true}
	return d
}

// A document's data, as its routes answer it and as it is stored, is the
// JSON of its value: the defaults, then what the user wrote. Its ETag is a
// hash of that JSON, the same whether the document was ever written.

// current decodes the stored JSON old (nil: never written) over the
// defaults into v and returns v's data.
func (r *userDoc[T]) current(old []byte, v *T) ([]byte, error) {
	r.schema.Reset(v)
	if old != nil {
		if err := json.Unmarshal(old, v); err != nil {
			return nil, err
		}
	}
	return gojson.Marshal(v)
}

// answer sends data, the document's JSON, with its ETag.
func answer(c *rest.Ctx, data []byte) {
	var tag [tagLen]byte
	c.SetETag(rest.Tag(tag[:0], data))
	c.Begin().Raw(data)
	c.Send(fasthttp.StatusOK)
}

// get answers the document, or its defaults when never written.
func (r *userDoc[T]) get(s *Handlers, c *rest.Ctx) {
	var v T
	if err := r.read(s.db, c.Principal.User, &v); err != nil {
		c.Storage(err)
		return
	}
	data, err := gojson.Marshal(&v)
	if err != nil {
		c.Internal(err)
		return
	}
	answer(c, data)
}

// put replaces the document with the body, in one transaction that first
// checks the request's If-Match against the stored version.
func (r *userDoc[T]) put(s *Handlers, c *rest.Ctx) {
	var v T
	if !rest.Decode(c, r.schema, &v) {
		return
	}
	if r.check != nil {
		if d := r.check(s, &v); d != nil {
			c.Fail(d.Path, d.Message)
			return
		}
	}
	data, err := gojson.Marshal(&v)
	if err != nil {
		c.Internal(err)
		return
	}
	pre := rest.IfMatch(c)
	err = s.db.UpdateDoc(c.Principal.User, r.name, func(old []byte) ([]byte, error) {
		if pre.Set() {
			var stored T
			cur, err := r.current(old, &stored)
			if err != nil {
				return nil, err
			}
			var tag [tagLen]byte
			if !pre.Holds(rest.Tag(tag[:0], cur)) {
				return nil, store.ErrStale
			}
		}
		return data, nil
	})
	switch {
	case errors.Is(err, store.ErrStale):
		stale(c)
	case err != nil:
		c.Storage(err)
	default:
		answer(c, data)
	}
}

// patch merges the body, a JSON merge patch, into the document in one
// transaction that first checks the request's If-Match against the stored
// version.
func (r *userDoc[T]) patch(s *Handlers, c *rest.Ctx) {
	patch := c.RC.Request.Body()
	var v T
	if !rest.CheckPatch(c, r.schema, patch, &v) {
		return
	}
	pre := rest.IfMatch(c)
	var data []byte
	err := s.db.UpdateDoc(c.Principal.User, r.name, func(old []byte) ([]byte, error) {
		cur, err := r.current(old, &v)
		if err != nil {
			return nil, err
		}
		var tag [tagLen]byte
		if !pre.Holds(rest.Tag(tag[:0], cur)) {
			return nil, store.ErrStale
		}
		merged, err := rest.MergePatch(cur, patch)
		if err != nil {
			return nil, err
		}
		bad := &badRequest{}
		if !r.schema.Decode(merged, &v, &bad.res) {
			return nil, bad
		}
		if r.check != nil {
			if d := r.check(s, &v); d != nil {
				return nil, invalid(d)
			}
		}
		data, err = gojson.Marshal(&v)
		return data, err
	})
	var bad *badRequest
	switch {
	case errors.As(err, &bad):
		c.Invalid(&bad.res)
	case errors.Is(err, store.ErrStale):
		stale(c)
	case err != nil:
		c.Storage(err)
	default:
		answer(c, data)
	}
}

// settings reads the user's settings (defaults when never written).
func (s *Handlers) settings(user string) (settingsDoc, error) {
	var v settingsDoc
	err := s.settingsRes.read(s.db, user, &v)
	return v, err
}

// Export and erasure

type accountInfo struct {
	Tier      string    `json:"tier" schema:"enum=free|pro"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type exportData struct {
	ExportedAt    time.Time      `json:"exportedAt" schema:"required"`
	User          string         `json:"user" schema:"required" doc:"Your user id (the token's subject)."`
	Account       *accountInfo   `json:"account" schema:"required,nullable" doc:"null when nothing is stored."`
	Profile       *profile       `json:"profile" schema:"required,nullable" doc:"null when never written (GET /user/profile then answers the defaults)."`
	Settings      *settingsDoc   `json:"settings" schema:"required,nullable"`
	Notifications *notifications `json:"notifications" schema:"required,nullable"`
	Assets        []asset        `json:"assets" schema:"required"`
	APIKeys       []apiKey       `json:"apiKeys" schema:"required" doc:"Key metadata; a key itself is never stored."`
	Flags         []flagExposure `json:"featureFlags" schema:"required" doc:"The variant each feature flag assigned you, as recorded for its statistics."`
}

type flagExposure struct {
	Key     string `json:"key"`
	Variant string `json:"variant" doc:"Empty when the flag has no variants."`
}

func (s *Handlers) userDocs(d *Docs, exportDoc rest.Schema) {
	d.Export = &rest.Doc{
		Tag:     "user",
		Status:  200,
		Data:    exportDoc,
		Summary: "Export everything stored about you",
		Desc:    "Your account, profile, settings, notification preferences, assets, API-key metadata and feature-flag assignments, read in one transaction. Documents you never wrote are null."}
	d.Erase = &rest.Doc{
		Tag:     "user",
		Status:  204,
		Summary: "Erase your account and data",
		Desc:    "Deletes everything GET /user/export shows, API keys included (they stop working at once), in one transaction. A later request with a valid token starts a new, empty account."}
}

func (s *Handlers) Export(c *rest.Ctx) {
	user := c.Principal.User
	e, err := s.db.Export(user)
	if err != nil {
		c.Storage(err)
		return
	}
	out := exportData{ExportedAt: s.now().UTC().Truncate(time.Second), User: user,
		Assets: make([]asset, len(e.Assets)), APIKeys: apiKeys(e.Keys), Flags: []flagExposure{}}
	if e.Account != nil {
		out.Account = &accountInfo{Tier: e.Account.Tier, CreatedAt: e.Account.CreatedAt, UpdatedAt: e.Account.UpdatedAt}
	}
	for i, raw := range e.Assets {
		if err := json.Unmarshal(raw, &out.Assets[i]); err != nil {
			c.Internal(err)
			return
		}
	}
	if err := exportDocument(e.Docs, s.profile, &out.Profile); err != nil {
		c.Internal(err)
		return
	}
	if err := exportDocument(e.Docs, s.settingsRes, &out.Settings); err != nil {
		c.Internal(err)
		return
	}
	if err := exportDocument(e.Docs, s.notifications, &out.Notifications); err != nil {
		c.Internal(err)
		return
	}
	// Assignments not yet written (they are written every 30 s) count too.
	s.pending.Exposures(user, e.Exposures)
	for k, v := range e.Exposures {
		out.Flags = append(out.Flags, flagExposure{Key: k, Variant: v})
	}
	slices.SortFunc(out.Flags, func(a, b flagExposure) int { return strings.Compare(a.Key, b.Key) })
	c.JSON(fasthttp.StatusOK, &out)
}

func exportDocument[T any](docs map[string][]byte, r *userDoc[T], dst **T) error {
	raw, ok := docs[r.name]
	if !ok {
		return nil
	}
	v := new(T)
	r.schema.Reset(v)
	if err := json.Unmarshal(raw, v); err != nil {
		return err
	}
	*dst = v
	return nil
}

func (s *Handlers) Erase(c *rest.Ctx) {
	user := c.Principal.User
	// Drop what is waiting in memory to be written about the user, so the
	// next flush does not write it back.
	s.pending.Forget(user)
	if err := s.db.DeleteUser(user); err != nil {
		c.Storage(err)
		return
	}
	c.NoContent()
}

// GET /fi-score: the caller's FI score (compute/fiscore) from their stored
// profile, settings and assets.

type scoreComponent struct {
	Name  string `json:"name" schema:"required"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type scoreRecommendation struct {
	Priority int    `json:"priority" schema:"required"`
	Title    string `json:"title" schema:"required"`
	Detail   string `json:"detail" schema:"required"`
}

type scoreHealth struct {
	Score           int                   `json:"score" schema:"required" doc:"The portfolio-health score, 0-1000."`
	Components      []scoreComponent      `json:"components" schema:"required"`
	Recommendations []scoreRecommendation `json:"recommendations" schema:"required" doc:"The three most valuable, best first."`
}

type scoreInputs struct {
	Age                 *int     `json:"age" schema:"required,nullable"`
	AnnualIncome        *float64 `json:"annualIncome" schema:"required,nullable" doc:"In the base currency."`
	AnnualExpenses      *float64 `json:"annualExpenses" schema:"required,nullable" doc:"In the base currency."`
	TargetRetirementAge *int     `json:"targetRetirementAge" schema:"required,nullable"`
	RiskTolerance       *string  `json:"riskTolerance" schema:"required,nullable"`
	ExpectedReturn      float64  `json:"expectedReturn" schema:"required" doc:"From your settings."`
	InflationRate       float64  `json:"inflationRate" schema:"required"`
	WithdrawalRate      float64  `json:"withdrawalRate" schema:"required"`
	Assets              int      `json:"assets" schema:"required"`
	ExchangeRatesAsOf   string   `json:"exchangeRatesAsOf" schema:"required"`
}

type missingInput struct {
	Field string `json:"field" schema:"required" doc:"Where to set it, such as profile.annualExpenses."`
	Why   string `json:"why" schema:"required"`
}

type fiScoreData struct {
	Score           int              `json:"score" schema:"required" doc:"0-1000: the sum of the components."`
	Components      []scoreComponent `json:"components" schema:"required"`
	Currency        string           `json:"currency" schema:"required" doc:"The base currency of your settings."`
	NetWorth        float64          `json:"netWorth" schema:"required" doc:"The value of your assets."`
	FINumber        *float64         `json:"fiNumber" schema:"required,nullable" doc:"Annual expenses / withdrawal rate; null without annual expenses."`
	Progress        *float64         `json:"progress" schema:"required,nullable" doc:"Net worth / FI number."`
	YearsToFI       *int             `json:"yearsToFI" schema:"required,nullable" doc:"0 when already FI; null when never within the horizon or unknown."`
	FIAge           *int             `json:"fiAge" schema:"required,nullable"`
	PortfolioHealth *scoreHealth     `json:"portfolioHealth" schema:"required,nullable" doc:"null without assets."`
	Inputs          scoreInputs      `json:"inputs" schema:"required" doc:"What the score was computed from."`
	Missing         []missingInput   `json:"missing" schema:"required" doc:"What would make the score more exact; empty when nothing is missing."`
}

func fiScoreDoc(data rest.Schema) *rest.Doc {
	return &rest.Doc{
		Tag:     "fi",
		Status:  200,
		Summary: "Your FI score from your stored profile and assets",
		Desc: "A 0-1000 score in three parts: `fiProgress` (400 points: net worth against the FI number, annual expenses / withdrawal rate), `portfolioHealth` (400 points: the POST /portfolio-health score of your stored assets × 0.4) and `timeToFI` (200 points: full when already FI, falling linearly to 0 at " +
			strconv.Itoa(fiscore.Horizon) + " or more years to FI, from the calculator's timeline with your net worth, income, expenses and settings). " +
			"Amounts are converted to your settings' base currency with the embedded reference exchange rates. A part whose inputs are missing scores 0; `missing` says what to add. Works with an API key.",
		Data: data}
}

func (s *Handlers) FIScore(c *rest.Ctx) {
	user := c.Principal.User
	var p profile
	if err := s.profile.read(s.db, user, &p); err != nil {
		c.Storage(err)
		return
	}
	st, err := s.settings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	hs, err := s.holdings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	in := scoreInput(&p, &st, hs, s.now().UTC().Year())
	c.JSON(fasthttp.StatusOK, newFIScoreData(fiscore.Score(&in, s.fx), &in, &p, s.fx.AsOf()))
}

// scoreInput is what the engine needs of the stored documents.
func scoreInput(p *profile, st *settingsDoc, hs []portfolio.Holding, year int) fiscore.Input {
	in := fiscore.Input{Year: year, Currency: p.Currency, Base: st.BaseCurrency, Holdings: hs,
		ExpectedReturn: st.ExpectedReturn, InflationRate: st.InflationRate, WithdrawalRate: st.WithdrawalRate}
	in.Age, in.HasAge = p.age(year)
	if p.AnnualIncome != nil {
		in.AnnualIncome, in.HasAnnualIncome = *p.AnnualIncome, true
	}
	if p.AnnualExpenses != nil {
		in.AnnualExpenses, in.HasAnnualExpenses = *p.AnnualExpenses, true
	}
	if p.TargetRetirementAge != nil {
		in.TargetRetirementAge, in.HasTargetRetirementAge = *p.TargetRetirementAge, true
	}
	if p.RiskTolerance != nil {
		in.RiskTolerance = *p.RiskTolerance
	}
	return in
}

// newFIScoreData is the response data of a score.
func newFIScoreData(r *fiscore.Result, in *fiscore.Input, p *profile, ratesAsOf string) *fiScoreData {
	out := &fiScoreData{Score: r.Score, Currency: in.Base, NetWorth: r.NetWorth, Missing: make([]missingInput, len(r.Missing))}
	for _, cp := range r.Components {
		out.Components = append(out.Components, scoreComponent(cp))
	}
	if r.HasFINumber {
		out.FINumber, out.Progress = &r.FINumber, &r.Progress
	}
	if r.HasYearsToFI {
		out.YearsToFI, out.FIAge = &r.YearsToFI, &r.FIAge
	}
	if h := r.Health; h != nil {
		out.PortfolioHealth = &scoreHealth{Score: h.Score, Recommendations: make([]scoreRecommendation, len(h.Recommendations))}
		for _, cp := range h.Components {
			out.PortfolioHealth.Components = append(out.PortfolioHealth.Components, scoreComponent(cp))
		}
		for i, rec := range h.Recommendations {
			out.PortfolioHealth.Recommendations[i] = scoreRecommendation(rec)
		}
	}
	u := &r.Used
	out.Inputs = scoreInputs{TargetRetirementAge: p.TargetRetirementAge, RiskTolerance: p.RiskTolerance,
		ExpectedReturn: in.ExpectedReturn, InflationRate: in.InflationRate, WithdrawalRate: in.WithdrawalRate,
		Assets: len(in.Holdings), ExchangeRatesAsOf: ratesAsOf}
	if u.HasAge {
		out.Inputs.Age = &u.Age
	}
	if u.HasAnnualIncome {
		out.Inputs.AnnualIncome = &u.AnnualIncome
	}
	if u.HasAnnualExpenses {
		out.Inputs.AnnualExpenses = &u.AnnualExpenses
	}
	for i, m := range r.Missing {
		out.Missing[i] = missingInput(m)
	}
	return out
}

// Summary and categorisation of the caller's assets.

type share struct {
	Key   string  `json:"key" schema:"required"`
	Value float64 `json:"value" schema:"required" doc:"In the base currency."`
	Share float64 `json:"share" schema:"required" doc:"Fraction of the total value (0 when the total is 0)."`
}

type rateUsed struct {
	Currency string  `json:"currency" schema:"required"`
	Rate     float64 `json:"rate" schema:"required" doc:"Units of this currency per unit of the base currency."`
}

type fxInfo struct {
	AsOf   string     `json:"asOf" schema:"required" doc:"Date of the reference rates (YYYY-MM-DD)."`
	Source string     `json:"source" schema:"required"`
	Rates  []rateUsed `json:"rates" schema:"required" doc:"The rate of each currency the assets are held in."`
}

type summaryData struct {
	Currency             string   `json:"currency" schema:"required" doc:"The base currency of your settings; every amount is in it."`
	Assets               int      `json:"assets" schema:"required"`
	TotalValue           float64  `json:"totalValue" schema:"required"`
	ByCategory           []share  `json:"byCategory" schema:"required"`
	ByCurrency           []share  `json:"byCurrency" schema:"required" doc:"Keyed by the currency an asset is held in."`
	ByRegion             []share  `json:"byRegion" schema:"required" doc:"\"unspecified\" for assets without a region."`
	ByAccountType        []share  `json:"byAccountType" schema:"required" doc:"\"unspecified\" for assets without an account type."`
	ExpenseRatio         *float64 `json:"expenseRatio" schema:"required,nullable" doc:"Value-weighted over the assets with a stated ratio; null when none has one."`
	ExpenseRatioCoverage float64  `json:"expenseRatioCoverage" schema:"required" doc:"Share of the total value whose expense ratio is stated."`
	CostBasis            *float64 `json:"costBasis" schema:"required,nullable" doc:"Sum over the assets with a known cost basis; null when none."`
	UnrealisedGain       *float64 `json:"unrealisedGain" schema:"required,nullable" doc:"Value minus cost basis over the same assets."`
	CostBasisCoverage    float64  `json:"costBasisCoverage" schema:"required" doc:"Share of the total value whose cost basis is known."`
	ExchangeRates        fxInfo   `json:"exchangeRates" schema:"required"`
}

// holding is what the summary and the FI score read of a stored asset.
type holding struct {
	Name         string   `json:"name"`
	Category     string   `json:"category"`
	ISIN         *string  `json:"isin"`
	Value        float64  `json:"value"`
	Currency     string   `json:"currency"`
	CostBasis    *float64 `json:"costBasis"`
	ExpenseRatio *float64 `json:"expenseRatio"`
	Region       *string  `json:"region"`
	AccountType  *string  `json:"accountType"`
}

// holdings reads the user's assets. The optional fields decode into
// targets reused from asset to asset (cleared first: "" and NaN mark an
// absent field, which JSON cannot hold), so an asset costs only its strings.
func (s *Handlers) holdings(user string) ([]portfolio.Holding, error) {
	var dst []portfolio.Holding
	var isin, region, account string
	var basis, ratio float64
	err := s.db.Assets(user, func(doc []byte) error {
		isin, region, account, basis, ratio = "", "", "", math.NaN(), math.NaN()
		h := holding{ISIN: &isin, Region: &region, AccountType: &account, CostBasis: &basis, ExpenseRatio: &ratio}
		if err := gojson.UnmarshalNoEscape(doc, &h); err != nil {
			return err
		}
		x := portfolio.Holding{Name: h.Name, Category: h.Category, Value: h.Value, Currency: h.Currency,
			ISIN: deref(h.ISIN), Region: deref(h.Region), AccountType: deref(h.AccountType)}
		if h.CostBasis != nil && !math.IsNaN(*h.CostBasis) {
			x.CostBasis, x.HasCostBasis = *h.CostBasis, true
		}
		if h.ExpenseRatio != nil && !math.IsNaN(*h.ExpenseRatio) {
			x.ExpenseRatio, x.HasExpenseRatio = *h.ExpenseRatio, true
		}
		dst = append(dst, x)
		return nil
	})
	return dst, err
}

func (s *Handlers) Summary(c *rest.Ctx) {
	st, err := s.settings(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	hs, err := s.holdings(c.Principal.User)
	if err != nil {
		c.Storage(err)
		return
	}
	sum := portfolio.Summarize(hs, st.BaseCurrency, s.fx)
	c.JSON(fasthttp.StatusOK, newSummaryData(sum, s.fx.AsOf(), s.fx.Dataset()))
}

// newSummaryData is the response data of a summary.
func newSummaryData(sum *portfolio.Summary, asOf, dataset string) *summaryData {
	out := &summaryData{Currency: sum.Currency, Assets: sum.Assets, TotalValue: sum.Total,
		ByCategory: shares(sum.ByCategory), ByCurrency: shares(sum.ByCurrency),
		ByRegion: shares(sum.ByRegion), ByAccountType: shares(sum.ByAccountType),
		ExpenseRatioCoverage: sum.ExpenseRatioCoverage, CostBasisCoverage: sum.CostBasisCoverage,
		ExchangeRates: fxInfo{AsOf: asOf, Source: dataset, Rates: make([]rateUsed, len(sum.Rates))}}
	if sum.HasExpenseRatio {
		out.ExpenseRatio = &sum.ExpenseRatio
	}
	if sum.HasCostBasis {
		out.CostBasis, out.UnrealisedGain = &sum.CostBasis, &sum.UnrealisedGain
	}
	for i, r := range sum.Rates {
		out.ExchangeRates.Rates[i] = rateUsed(r)
	}
	return out
}

func shares(in []portfolio.Share) []share {
	out := make([]share, len(in))
	for i, s := range in {
		out[i] = share(s)
	}
	return out
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
	id, err := newID("key_")
	if err != nil {
		c.Internal(err)
		return
	}
	k := store.Key{ID: id, Owner: c.Principal.User, Name: in.Name, Hint: auth.KeyHint(plain), CreatedAt: s.now().UTC().Truncate(time.Second)}
	switch err := s.db.CreateKey(k, hash, s.maxKeys); {
	case errors.Is(err, store.ErrLimit):
		c.Error(errcode.Conflict, "API key limit reached; revoke a key first")
		return
	case err != nil:
		c.Storage(err)
		return
	}
	c.JSON(fasthttp.StatusCreated, createdKey{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt, Key: plain})
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

// newID returns prefix followed by 128 random bits in base 32, an opaque
// and unguessable identifier.
// AssetID and KeyID are the grammars of the ids newID makes: the prefix
// and 26 characters of base32 (a-z, 2-7).
var (
	AssetID = rest.NewPathParam("id", `^ast_[a-z2-7]{26}$`, 30, "must be an asset id: ast_ and 26 characters of a-z and 2-7")
	KeyID   = rest.NewPathParam("id", `^key_[a-z2-7]{26}$`, 30, "must be an API key id: key_ and 26 characters of a-z and 2-7")
)

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

// Pending is what the server holds in memory about users between writes:
// API-key uses and feature-flag exposures written in batches, and caches.
type Pending interface {
	// KeyUse is the last use of the key not yet written.
	KeyUse(owner, id string) (time.Time, bool)
	// Exposures adds the user's flag exposures not yet written to dst.
	Exposures(user string, dst map[string]string)
	// Forget drops everything held about user (erasure), so that no later
	// flush writes it back.
	Forget(user string)
}

// Handlers serve the account routes.
type Handlers struct {
	db      store.Store
	fx      *fx.Table
	now     func() time.Time
	maxKeys int
	pending Pending

	assetSchema     *schema.Schema[assetIn]
	assetPutSchema  *schema.Schema[assetPut]
	keyCreateSchema *schema.Schema[keyCreate]
	profile         *userDoc[profile]
	settingsRes     *userDoc[settingsDoc]
	notifications   *userDoc[notifications]

	// Profile, Settings and Notifications are the routes of the three
	// documents.
	Profile, Settings, Notifications *Document
	// Docs describes the other routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	ListAssets, CreateAsset, GetAsset, PutAsset, PatchAsset, DeleteAsset *rest.Doc
	Summary, FIScore, Export, Erase                                      *rest.Doc
	ListKeys, CreateKey, RevokeKey                                       *rest.Doc
}

// Config is what the account routes need.
type Config struct {
	DB      store.Store
	FX      *fx.Table
	Now     func() time.Time
	MaxKeys int // API keys per user
	Pending Pending
}

// New compiles the routes' declarations against v, which must define the
// asset, profile and settings enums and formats.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	s := &Handlers{db: cfg.DB, fx: cfg.FX, now: cfg.Now, maxKeys: cfg.MaxKeys, pending: cfg.Pending}
	var err error
	if s.assetSchema, err = schema.Compile[assetIn](v); err != nil {
		return nil, err
	}
	if s.assetPutSchema, err = schema.Compile[assetPut](v); err != nil {
		return nil, err
	}
	if s.keyCreateSchema, err = schema.Compile[keyCreate](v); err != nil {
		return nil, err
	}
	profileSchema, err := schema.Compile[profile](v)
	if err != nil {
		return nil, err
	}
	settingsSchema, err := schema.Compile[settingsDoc](v)
	if err != nil {
		return nil, err
	}
	notificationsSchema, err := schema.Compile[notifications](v)
	if err != nil {
		return nil, err
	}
	s.profile = &userDoc[profile]{name: "profile", schema: profileSchema, check: checkProfile}
	s.settingsRes = &userDoc[settingsDoc]{name: "settings", schema: settingsSchema}
	s.notifications = &userDoc[notifications]{name: "notifications", schema: notificationsSchema}
	s.Profile = s.profile.document(s, "profile", "Who you are and your money in a year: used by GET /fi-score and as calculator defaults in clients.")
	s.Settings = s.settingsRes.document(s, "settings", "Base currency, locale, default rates and units.")
	s.Notifications = s.notifications.document(s, "notification preferences", "Which events reach you on which channel.")

	docs := map[string]rest.Schema{}
	for name, compile := range map[string]func() (rest.Schema, error){
		"asset":      func() (rest.Schema, error) { return schema.CompileDoc[asset](v) },
		"export":     func() (rest.Schema, error) { return schema.CompileDoc[exportData](v) },
		"fiScore":    func() (rest.Schema, error) { return schema.CompileDoc[fiScoreData](v) },
		"summary":    func() (rest.Schema, error) { return schema.CompileDoc[summaryData](v) },
		"key":        func() (rest.Schema, error) { return schema.CompileDoc[apiKey](v) },
		"createdKey": func() (rest.Schema, error) { return schema.CompileDoc[createdKey](v) },
	} {
		if docs[name], err = compile(); err != nil {
			return nil, err
		}
	}
	s.assetDocs(&s.Docs, docs["asset"])
	s.userDocs(&s.Docs, docs["export"])
	s.Docs.FIScore = fiScoreDoc(docs["fiScore"])
	s.Docs.Summary = &rest.Doc{
		Tag:     "assets",
		Status:  200,
		Summary: "Totals and allocation of your assets",
		Desc:    "Total value in the base currency of your settings; allocation by category, currency, region and account type (value and share, largest first); the value-weighted expense ratio; the unrealised gain where the cost basis is known. Amounts in other currencies are converted with the embedded reference exchange rates, whose date is in `exchangeRates.asOf`.",
		Data:    docs["summary"]}
	s.Docs.ListKeys = &rest.Doc{
		Tag:     "user",
		Status:  200,
		List:    true,
		Summary: "List your API keys",
		Desc:    "Every active key of the caller, oldest first, without secrets: the id, the name, a hint of the key's first and last characters, when it was created and last used (last use is recorded within 30 seconds).",
		Data:    docs["key"]}
	s.Docs.CreateKey = &rest.Doc{
		Tag:     "user",
		Status:  201,
		Summary: "Create an API key",
		Desc:    "Creates a key `svc_...` for integrations and returns it once, in `data.key`: only its SHA-256 hash is stored. Keys act for their owner with the owner's tier (never with the admin role) and do not expire until revoked. Needs a signed-in session, not an API key. At most " + strconv.Itoa(cfg.MaxKeys) + " keys per user.",
		Body:    s.keyCreateSchema,
		Data:    docs["createdKey"],
		Errs:    []rest.ErrDoc{rest.Err(errcode.Conflict, "the caller already has the maximum number of keys"), rest.Err(errcode.Forbidden, "called with an API key")}}
	s.Docs.RevokeKey = &rest.Doc{
		Tag:     "user",
		Status:  204,
		Summary: "Revoke an API key",
		Desc:    "Revokes the key at once: its next use answers 401. Another user's key id answers 404.",
		Errs:    []rest.ErrDoc{rest.Err(errcode.NotFound, "no key with this id belongs to the caller"), rest.Err(errcode.Forbidden, "called with an API key")}}
	return s, nil
}
