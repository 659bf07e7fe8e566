package handlers

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

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
	WithdrawalRate float64 `json:"withdrawalRate" schema:"xmin=0,max=0.2,default=0.04" doc:"Safe withdrawal rate: the FI number is annual expenses divided by it."`
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
	check  func(s *Server, v *T) *schema.Detail
}

var (
	profileRes = &userDoc[profile]{name: "profile", schema: func() *schema.Schema[profile] {
		_ = healthSchema // registers riskTolerance
		_ = fxSchemaFormats
		schema.Format("email", checkEmail)
		schema.Format("country", checkCountry)
		return schema.New[profile]()
	}(), check: checkProfile}
	settingsRes = &userDoc[settingsDoc]{name: "settings", schema: func() *schema.Schema[settingsDoc] {
		_ = fxSchemaFormats
		schema.Format("locale", checkLocale)
		return schema.New[settingsDoc]()
	}()}
	notificationsRes = &userDoc[notifications]{name: "notifications", schema: schema.New[notifications]()}
)

func checkEmail(s string) string {
	at := strings.LastIndexByte(s, '@')
	if at < 1 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n<>,;\"") || !strings.Contains(s[at:], ".") {
		return "must be an email address such as name@example.org"
	}
	return ""
}

func checkCountry(s string) string {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return "must be an ISO 3166-1 alpha-2 code in capitals, such as PT"
	}
	return ""
}

// checkLocale accepts the shape of a BCP 47 tag: a 2-3 letter language,
// then subtags of 2-8 letters or digits.
func checkLocale(s string) string {
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

func checkProfile(s *Server, p *profile) *schema.Detail {
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

func (r *userDoc[T]) routes(s *Server, summary, desc string) []*rest.Route {
	path := v1 + "/user/" + r.name
	patchDesc := "The body is a JSON merge patch (RFC 7396): members set fields, `null` clears a nullable field (a field with a default is put back to it with PUT), absent members stay as they are. Each member is validated as in PUT. Answers the whole document."
	return []*rest.Route{
		rest.Get(path, rest.User, func(c *Ctx) {
			var v T
			if err := r.read(s.db, c.Principal.User, &v); err != nil {
				c.Storage(err)
				return
			}
			c.JSON(fasthttp.StatusOK, &v)
		}, &rest.Doc{
			Tag:     "user",
			Status:  200,
			Data:    r.schema,
			Summary: "Get your " + summary,
			Desc:    desc + " A user who never wrote it gets the defaults."}),
		rest.Put(path, rest.User, func(c *Ctx) {
			var v T
			if !decode(c, r.schema, &v) {
				return
			}
			if r.check != nil {
				if d := r.check(s, &v); d != nil {
					c.Fail(d.Path, d.Message)
					return
				}
			}
			if err := s.db.PutDoc(c.Principal.User, r.name, &v); err != nil {
				c.Storage(err)
				return
			}
			c.JSON(fasthttp.StatusOK, &v)
		}, &rest.Doc{
			Tag:     "user",
			Status:  200,
			Body:    r.schema,
			Data:    r.schema,
			Summary: "Replace your " + summary,
			Desc:    "Fields left out take their defaults."}),
		rest.Patch(path, rest.User, func(c *Ctx) {
			patch := c.RC.Request.Body()
			var v T
			if !rest.CheckPatch(c, r.schema, patch, &v) {
				return
			}
			err := s.db.UpdateDoc(c.Principal.User, r.name, func(old []byte) ([]byte, error) {
				r.schema.Reset(&v)
				if old != nil {
					if err := json.Unmarshal(old, &v); err != nil {
						return nil, err
					}
				}
				cur, err := json.Marshal(&v)
				if err != nil {
					return nil, err
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
				return json.Marshal(&v)
			})
			var bad *badRequest
			switch {
			case errors.As(err, &bad):
				c.Invalid(&bad.res)
			case err != nil:
				c.Storage(err)
			default:
				c.JSON(fasthttp.StatusOK, &v)
			}
		}, &rest.Doc{
			Tag:     "user",
			Status:  200,
			Body:    r.schema,
			Data:    r.schema,
			Summary: "Change some of your " + summary,
			Desc:    patchDesc}),
	}
}

// settings reads the user's settings (defaults when never written).
func (s *Server) settings(user string) (settingsDoc, error) {
	var v settingsDoc
	err := settingsRes.read(s.db, user, &v)
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

var exportDoc = func() rest.Schema {
	_, _ = assetSchema, profileRes // register the enums and formats the export uses
	return schema.Doc[exportData]()
}()

func userRoutes(s *Server) []*rest.Route {
	return append(slices.Concat(
		profileRes.routes(s, "profile", "Who you are and your money in a year: used by GET /fi-score and as calculator defaults in clients."),
		settingsRes.routes(s, "settings", "Base currency, locale, default rates and units."),
		notificationsRes.routes(s, "notification preferences", "Which events reach you on which channel."),
	),
		rest.Get(v1+"/user/export", rest.User, s.exportUser, &rest.Doc{
			Tag:     "user",
			Status:  200,
			Data:    exportDoc,
			Summary: "Export everything stored about you",
			Desc:    "Your account, profile, settings, notification preferences, assets, API-key metadata and feature-flag assignments, read in one transaction. Documents you never wrote are null."}),
		rest.Delete(v1+"/user", rest.Session, s.deleteUser, &rest.Doc{
			Tag:     "user",
			Status:  204,
			Summary: "Erase your account and data",
			Desc:    "Deletes everything GET /user/export shows, API keys included (they stop working at once), in one transaction. A later request with a valid token starts a new, empty account."}),
	)
}

func (s *Server) exportUser(c *Ctx) {
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
	if err := exportDocument(e.Docs, profileRes, &out.Profile); err != nil {
		c.Internal(err)
		return
	}
	if err := exportDocument(e.Docs, settingsRes, &out.Settings); err != nil {
		c.Internal(err)
		return
	}
	if err := exportDocument(e.Docs, notificationsRes, &out.Notifications); err != nil {
		c.Internal(err)
		return
	}
	// Assignments not yet written (they are written every 30 s) count too.
	s.flags.pendingExposures(user, e.Exposures)
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

func (s *Server) deleteUser(c *Ctx) {
	user := c.Principal.User
	// Drop what is waiting in memory to be written about the user, so the
	// next flush does not write it back.
	s.flags.forget(user)
	s.forgetTouched(user)
	if err := s.db.DeleteUser(user); err != nil {
		c.Storage(err)
		return
	}
	s.tiers.Delete(user)
	c.NoContent()
}
