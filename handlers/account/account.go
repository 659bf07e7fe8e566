// Package account serves what a signed-in user keeps with fiplan: assets,
// category suggestions for them, their summary and the FI score, the
// profile, settings and notification documents, API keys, and the export
// and erasure of all of it.
package account

import (
	"time"

	"fiplan/compute/fiscore"
	"fiplan/data/fx"
	"fiplan/data/store"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

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
	written func(user, doc string)
	// scorePlan writes a saved plan into an FI score's input (Config.ScorePlan).
	scorePlan func(c *rest.Ctx, id string, in *fiscore.Input) bool

	assetSchema      *schema.Schema[assetIn]
	assetPutSchema   *schema.Schema[assetPut]
	assets           *owned.Docs[asset, assetIn, *asset]
	keyCreateSchema  *schema.Schema[keyCreate]
	seriesSchema     *schema.Schema[seriesIn]
	seriesCache      seriesCache
	categorizeSchema *schema.Schema[categorizeRequest]
	profile          *userDoc[profile]
	settingsRes      *userDoc[settingsDoc]
	notifications    *userDoc[notifications]

	// Profile, Settings and Notifications are the routes of the three
	// documents.
	Profile, Settings, Notifications *Document
	// Docs describes the other routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	ListAssets, CreateAsset, GetAsset, PutAsset, PatchAsset, DeleteAsset *rest.Doc
	Categorize                                                           *rest.Doc
	Summary, FIScore, Export, Erase                                      *rest.Doc
	ListKeys, CreateKey, RevokeKey                                       *rest.Doc
	ListSeries, CreateSeries, GetSeries, DeleteSeries                    *rest.Doc
}

// Config is what the account routes need.
type Config struct {
	DB      store.Store
	FX      *fx.Table
	Now     func() time.Time
	MaxKeys int // API keys per user
	Pending Pending
	// Written, when set, is told of every write of a user's profile,
	// settings or notification preferences (by the document's name),
	// after it is stored: the email channel follows the address and the
	// preferences.
	Written func(user, doc string)
	// ScorePlan, when set, writes the saved plan the FI score is of into
	// in: plan id's, else with id "" the caller's most recently updated
	// one (none: in stays the profile's). It reports false when it has
	// answered (no such plan, a plan that no longer runs, a limit).
	ScorePlan func(c *rest.Ctx, id string, in *fiscore.Input) bool
}

// New compiles the routes' declarations against v, which must define the
// asset, profile and settings enums and formats.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	s := &Handlers{db: cfg.DB, fx: cfg.FX, now: cfg.Now, maxKeys: cfg.MaxKeys, pending: cfg.Pending, written: cfg.Written, scorePlan: cfg.ScorePlan}
	var err error
	if s.assetSchema, err = schema.Compile[assetIn](v); err != nil {
		return nil, err
	}
	if s.assetPutSchema, err = schema.Compile[assetPut](v); err != nil {
		return nil, err
	}
	s.assets = s.assetWrites()
	if s.seriesSchema, err = schema.Compile[seriesIn](v); err != nil {
		return nil, err
	}
	if s.keyCreateSchema, err = schema.Compile[keyCreate](v); err != nil {
		return nil, err
	}
	if s.categorizeSchema, err = schema.Compile[categorizeRequest](v); err != nil {
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
	s.notifications = &userDoc[notifications]{name: "notifications", schema: notificationsSchema, fill: inheritMilestones}
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
		"categorize": func() (rest.Schema, error) { return schema.CompileDoc[categorizeData](v) },
		"seriesList": func() (rest.Schema, error) { return schema.CompileDoc[seriesList](v) },
		"series":     func() (rest.Schema, error) { return schema.CompileDoc[seriesSummary](v) },
		"seriesFull": func() (rest.Schema, error) { return schema.CompileDoc[seriesFull](v) },
	} {
		if docs[name], err = compile(); err != nil {
			return nil, err
		}
	}
	s.assetDocs(&s.Docs, docs["asset"])
	s.userDocs(&s.Docs, docs["export"])
	s.Docs.FIScore = fiScoreDoc(docs["fiScore"])
	s.Docs.Summary = summaryDoc(docs["summary"])
	s.Docs.Categorize = s.categorizeDoc(docs["categorize"])
	s.keyDocs(&s.Docs, docs["key"], docs["createdKey"])
	s.seriesDocs(&s.Docs, docs["seriesList"], docs["series"], docs["seriesFull"])
	return s, nil
}
