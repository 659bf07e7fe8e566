// Package features serves the feature flags: /features/{key} evaluates a
// flag for its caller, and admins define, delete and count them there.
//
// Flags are read from an immutable snapshot swapped atomically on
// every write, so evaluation never touches the database. Exposures (who
// was evaluated to what) are collected in memory and written in batches
// with the API-key use times.
//
// A handler asks whether a flag is on for its caller with
//
//	if s.Flag(c, "calculator-monte-carlo", true) { ... }
//
// where the last argument is the answer while the flag is not defined.
// Anonymous callers are evaluated by client address.
package features

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/compute/flag"
	"fiplan/data/store"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

type flagVariantIn struct {
	Name   string  `json:"name" schema:"required,minLen=1,maxLen=40"`
	Weight float64 `json:"weight" schema:"required,xmin=0,max=1000" doc:"Relative weight: shares are weight / sum of weights."`
}

type flagIn struct {
	Enabled        bool            `json:"enabled" schema:"required" doc:"Off for everyone when false."`
	Description    string          `json:"description" schema:"maxLen=500"`
	RolloutPercent float64         `json:"rolloutPercent" schema:"min=0,max=100,default=100" doc:"Share of users in the rollout. Raising it keeps everyone already in."`
	Tiers          []string        `json:"tiers" schema:"maxItems=2,enum=free|pro" doc:"Tiers it applies to; empty: all."`
	IncludeUsers   []string        `json:"includeUsers" schema:"maxItems=1000,minLen=1,maxLen=128" doc:"Always in (when enabled)."`
	ExcludeUsers   []string        `json:"excludeUsers" schema:"maxItems=1000,minLen=1,maxLen=128" doc:"Always out; wins over includeUsers."`
	Variants       []flagVariantIn `json:"variants" schema:"maxItems=10" doc:"A/B variants for users in the rollout."`
}

// flagRecord is a stored flag.
type flagRecord struct {
	Key            string          `json:"key"`
	Enabled        bool            `json:"enabled"`
	Description    string          `json:"description"`
	RolloutPercent float64         `json:"rolloutPercent"`
	Tiers          []string        `json:"tiers"`
	IncludeUsers   []string        `json:"includeUsers"`
	ExcludeUsers   []string        `json:"excludeUsers"`
	Variants       []flagVariantIn `json:"variants"`
	CreatedAt      time.Time       `json:"createdAt"`
	UpdatedAt      time.Time       `json:"updatedAt"`
}

type evaluation struct {
	Key     string  `json:"key" schema:"required"`
	Enabled bool    `json:"enabled" schema:"required"`
	Variant *string `json:"variant" schema:"required,nullable" doc:"null when the flag has no variants or the caller is not enrolled."`
	Exists  bool    `json:"exists" schema:"required" doc:"false for a key that is not defined: it then evaluates as disabled."`
}

type variantStat struct {
	Name  string `json:"name"`
	Users int    `json:"users" doc:"Distinct users assigned."`
}

type flagStats struct {
	Key           string        `json:"key"`
	EnabledUsers  int           `json:"enabledUsers"`
	DisabledUsers int           `json:"disabledUsers"`
	Variants      []variantStat `json:"variants"`
}

// Handlers serve the feature-flag routes and evaluate flags for the
// service's own routes, from an in-memory snapshot of the stored flags.
type Handlers struct {
	db    store.Store
	now   func() time.Time
	log   *slog.Logger
	flags flags
	in    *schema.Schema[flagIn]
	// Docs describes the routes for the OpenAPI document.
	Docs Docs
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	List, Get, Put, Delete, Stats *rest.Doc
}

// Config is what the feature flags need.
type Config struct {
	DB  store.Store
	Now func() time.Time
	Log *slog.Logger
}

// New loads the stored flags into memory.
func New(v *schema.Vocabulary, cfg Config) (*Handlers, error) {
	s := &Handlers{db: cfg.DB, now: cfg.Now, log: cfg.Log}
	var err error
	if s.in, err = schema.Compile[flagIn](v); err != nil {
		return nil, err
	}
	recordDoc, err := schema.CompileDoc[flagRecord](v)
	if err != nil {
		return nil, err
	}
	evaluationDoc, err := schema.CompileDoc[evaluation](v)
	if err != nil {
		return nil, err
	}
	statsDoc, err := schema.CompileDoc[flagStats](v)
	if err != nil {
		return nil, err
	}
	if err := s.load(); errors.Is(err, store.ErrUnavailable) {
		// The store has not reached its database yet: no flag is known
		// until the first sync after it has (version -1 matches none).
		s.flags.set.Store(&flagSet{byKey: map[string]*flagEntry{}})
		s.flags.version = -1
	} else if err != nil {
		return nil, fmt.Errorf("cannot load feature flags: %w", err)
	}
	s.Docs = s.docs(recordDoc, evaluationDoc, statsDoc)
	return s, nil
}

type flagEntry struct {
	rec  flagRecord
	eval flag.Flag
}

// flagSet is an immutable snapshot of every flag.
type flagSet struct {
	keys  []string // sorted
	byKey map[string]*flagEntry
}

// flags holds the snapshot and the pending exposures.
type flags struct {
	set     atomic.Pointer[flagSet]
	writeMu sync.Mutex // serialises writers and reloads
	version int64      // the store's FlagsVersion of the snapshot; under writeMu

	seenMu sync.Mutex
	seen   map[string]map[string]string
	nSeen  int
}

// maxPendingExposures bounds memory between flushes; beyond it exposures
// are not recorded until the next flush (stats undercount, never grow
// memory).
const maxPendingExposures = 200000

func newEntry(rec flagRecord) *flagEntry {
	e := &flagEntry{rec: rec}
	e.eval = flag.Flag{Key: rec.Key, Enabled: rec.Enabled, RolloutPercent: rec.RolloutPercent,
		Tiers: rec.Tiers, IncludeUsers: rec.IncludeUsers, ExcludeUsers: rec.ExcludeUsers}
	for _, v := range rec.Variants {
		e.eval.Variants = append(e.eval.Variants, flag.Variant{Name: v.Name, Weight: v.Weight})
	}
	return e
}

func (s *Handlers) load() error {
	s.flags.seen = map[string]map[string]string{}
	return s.Reload()
}

// Reload replaces the snapshot with the stored flags, so that flags
// written by other nodes take effect here. Pending exposures are kept.
func (s *Handlers) Reload() error {
	f := &s.flags
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	// The version first: a write landing between the two reads moves it
	// again, and the next Sync reloads.
	v, err := s.db.FlagsVersion()
	if err != nil {
		return err
	}
	set := &flagSet{byKey: map[string]*flagEntry{}}
	err = s.db.Flags(func(key string, raw []byte) error {
		var rec flagRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		set.keys = append(set.keys, key)
		set.byKey[key] = newEntry(rec)
		return nil
	})
	if err != nil {
		return err
	}
	f.set.Store(set)
	f.version = v
	return nil
}

// Sync reloads the snapshot when the stored flags changed since it was
// taken: one cheap read when they did not. The server calls it twice a
// second, so a flag written on any node is live everywhere within a
// second, while evaluation never reads the database.
func (s *Handlers) Sync() error {
	v, err := s.db.FlagsVersion()
	if err != nil {
		return fmt.Errorf("cannot check feature flags: %w", err)
	}
	f := &s.flags
	f.writeMu.Lock()
	same := v == f.version
	f.writeMu.Unlock()
	if same {
		return nil
	}
	if err := s.Reload(); err != nil {
		return fmt.Errorf("cannot reload feature flags: %w", err)
	}
	return nil
}

// with returns a copy of the snapshot with key set to e (nil removes it).
func (fs *flagSet) with(key string, e *flagEntry) *flagSet {
	n := &flagSet{byKey: make(map[string]*flagEntry, len(fs.byKey)+1)}
	for k, v := range fs.byKey {
		n.byKey[k] = v
	}
	if e == nil {
		delete(n.byKey, key)
	} else {
		n.byKey[key] = e
	}
	for k := range n.byKey {
		n.keys = append(n.keys, k)
	}
	slices.Sort(n.keys)
	return n
}

// subject is who a flag is evaluated for.
func (s *Handlers) subject(c *rest.Ctx) (user, tier string) {
	if c.Authed {
		return c.Principal.User, c.Principal.Tier.String()
	}
	return "ip:" + netip.AddrFrom16(c.Client()).Unmap().String(), ""
}

// Flag reports whether the flag key is on for the caller; def is the
// answer while the flag is not defined.
func (s *Handlers) Flag(c *rest.Ctx, key string, def bool) bool {
	e := s.flags.set.Load().byKey[key]
	if e == nil {
		return def
	}
	user, tier := s.subject(c)
	r := flag.Evaluate(&e.eval, user, tier)
	s.expose(key, user, r)
	return r.Enabled
}

func (s *Handlers) expose(key, user string, r flag.Result) {
	v := r.Variant
	if !r.Enabled {
		v = store.Disabled
	}
	f := &s.flags
	f.seenMu.Lock()
	m := f.seen[key]
	if m == nil {
		m = map[string]string{}
		f.seen[key] = m
	}
	if old, ok := m[user]; !ok && f.nSeen < maxPendingExposures {
		m[user] = v
		f.nSeen++
	} else if ok && old != v {
		m[user] = v
	}
	f.seenMu.Unlock()
}

// Flush writes the exposures recorded since the last flush.
func (s *Handlers) Flush() {
	f := &s.flags
	f.seenMu.Lock()
	if f.nSeen == 0 {
		f.seenMu.Unlock()
		return
	}
	batch := f.seen
	f.seen, f.nSeen = map[string]map[string]string{}, 0
	f.seenMu.Unlock()
	if err := s.db.RecordExposures(batch); err != nil {
		s.log.Warn("cannot record flag exposures", "err", err)
	}
}

// PendingExposures adds to dst the user's exposures not yet written.
func (s *Handlers) PendingExposures(user string, dst map[string]string) {
	s.flags.pendingExposures(user, dst)
}

// Forget drops the user's exposures not yet written (erasure), so the next
// flush does not write them back.
func (s *Handlers) Forget(user string) { s.flags.forget(user) }

func (f *flags) pendingExposures(user string, dst map[string]string) {
	f.seenMu.Lock()
	for key, users := range f.seen {
		if v, ok := users[user]; ok {
			dst[key] = v
		}
	}
	f.seenMu.Unlock()
}

// forget drops the user's exposures not yet written (erasure), so the next
// flush does not write them back.
func (f *flags) forget(user string) {
	f.seenMu.Lock()
	for _, users := range f.seen {
		if _, ok := users[user]; ok {
			delete(users, user)
			f.nSeen--
		}
	}
	f.seenMu.Unlock()
}

// FlagKey is the grammar of a flag's key, the {key} of the flag routes.
var FlagKey = rest.NewPathParam("key", `^[a-z]([a-z0-9-]*[a-z0-9])?$`, 64, flagKeyRule)

func validFlagKey(k []byte) bool { return FlagKey.Valid(k) }

const flagKeyRule = "must be 1 to 64 characters of lowercase letters, digits and dashes, starting with a letter and not ending with a dash"

func (s *Handlers) flagKey(c *rest.Ctx) ([]byte, bool) {
	k := c.Param("key")
	if !validFlagKey(k) {
		c.Fail("key", flagKeyRule)
		return nil, false
	}
	return k, true
}

func writeEvaluation(c *rest.Ctx, key string, exists bool, r flag.Result) {
	out := c.Begin()
	appendEvaluation(out, key, exists, r)
	c.Send(fasthttp.StatusOK)
}

func appendEvaluation(out *jsonw.Writer, key string, exists bool, r flag.Result) {
	out.Begin()
	out.Key("key")
	out.String(key)
	out.Key("enabled")
	out.Bool(r.Enabled)
	out.Key("variant")
	out.StringOrNull(r.Variant)
	out.Key("exists")
	out.Bool(exists)
	out.End()
}

func (s *Handlers) Get(c *rest.Ctx) {
	k, ok := s.flagKey(c)
	if !ok {
		return
	}
	e := s.flags.set.Load().byKey[bytesconv.String(k)]
	if e == nil {
		writeEvaluation(c, string(k), false, flag.Result{})
		return
	}
	user, tier := s.subject(c)
	r := flag.Evaluate(&e.eval, user, tier)
	s.expose(e.rec.Key, user, r)
	writeEvaluation(c, e.rec.Key, true, r)
}

func (s *Handlers) List(c *rest.Ctx) {
	set := s.flags.set.Load()
	user, tier := s.subject(c)
	out := c.Begin()
	out.BeginArray()
	for _, k := range set.keys {
		e := set.byKey[k]
		r := flag.Evaluate(&e.eval, user, tier)
		s.expose(k, user, r)
		appendEvaluation(out, k, true, r)
	}
	out.EndArray()
	c.SendList(fasthttp.StatusOK, len(set.keys), len(set.keys), 0)
}

func (s *Handlers) Put(c *rest.Ctx) {
	k, ok := s.flagKey(c)
	if !ok {
		return
	}
	var in flagIn
	if !rest.Decode(c, s.in, &in) {
		return
	}
	for i := range in.Variants {
		for j := range i {
			if in.Variants[j].Name == in.Variants[i].Name {
				c.Fail("variants["+strconv.Itoa(i)+"].name", "duplicates variants["+strconv.Itoa(j)+"].name")
				return
			}
		}
	}
	key := string(k)
	f := &s.flags
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	now := s.now().UTC().Truncate(time.Second)
	rec := flagRecord{Key: key, Enabled: in.Enabled, Description: in.Description, RolloutPercent: in.RolloutPercent,
		Tiers: nonNil(in.Tiers), IncludeUsers: nonNil(in.IncludeUsers), ExcludeUsers: nonNil(in.ExcludeUsers),
		Variants: in.Variants, CreatedAt: now, UpdatedAt: now}
	if rec.Variants == nil {
		rec.Variants = []flagVariantIn{}
	}
	if old := f.set.Load().byKey[key]; old != nil {
		rec.CreatedAt = old.rec.CreatedAt
	}
	created, err := s.db.PutFlag(key, rec)
	if err != nil {
		c.Storage(err)
		return
	}
	f.set.Store(f.set.Load().with(key, newEntry(rec)))
	status := fasthttp.StatusOK
	if created {
		status = fasthttp.StatusCreated
	}
	c.JSON(status, rec)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (s *Handlers) Delete(c *rest.Ctx) {
	k, ok := s.flagKey(c)
	if !ok {
		return
	}
	f := &s.flags
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	switch err := s.db.DeleteFlag(string(k)); {
	case errors.Is(err, store.ErrNotFound):
		c.Error(errcode.NotFound, "no such flag")
	case err != nil:
		c.Storage(err)
	default:
		f.set.Store(f.set.Load().with(string(k), nil))
		c.NoContent()
	}
}

func (s *Handlers) Stats(c *rest.Ctx) {
	k, ok := s.flagKey(c)
	if !ok {
		return
	}
	e := s.flags.set.Load().byKey[bytesconv.String(k)]
	if e == nil {
		c.Error(errcode.NotFound, "no such flag")
		return
	}
	s.Flush()
	counts, err := s.db.Exposures(e.rec.Key)
	if err != nil {
		c.Storage(err)
		return
	}
	st := flagStats{Key: e.rec.Key, DisabledUsers: counts[store.Disabled], Variants: []variantStat{}}
	for v, n := range counts {
		if v != store.Disabled {
			st.EnabledUsers += n
		}
	}
	for _, v := range e.rec.Variants {
		st.Variants = append(st.Variants, variantStat{Name: v.Name, Users: counts[v.Name]})
	}
	c.JSON(fasthttp.StatusOK, st)
}

func (s *Handlers) docs(flagRecordDoc, evaluationDoc, flagStatsDoc rest.Schema) Docs {
	keyErr := rest.Err(errcode.Validation, "the key "+flagKeyRule)
	return Docs{
		List: &rest.Doc{
			Tag:     "features",
			Status:  200,
			List:    true,
			Summary: "Every flag, evaluated for you",
			Desc:    "Each defined flag with whether it is on for the caller and the A/B variant they are in. Assignment is sticky: a stable hash of the flag key and the user id decides it.",
			Data:    evaluationDoc},
		Get: &rest.Doc{
			Tag:     "features",
			Status:  200,
			Summary: "One flag, evaluated for you",
			Desc:    "`{key, enabled, variant}`. A key that is not defined answers 200 with enabled false, variant null and exists false, so that clients degrade to the off state when a flag is removed.",
			Data:    evaluationDoc,
			Errs:    []rest.ErrDoc{keyErr}},
		Put: &rest.Doc{
			Tag:     "features",
			Status:  200,
			Created: true,
			Summary: "Define or replace a flag (admin)",
			Desc:    "Creates the flag (201) or replaces its definition (200), keeping createdAt. The change is live for the next evaluation.",
			Body:    s.in,
			Data:    flagRecordDoc,
			Errs:    []rest.ErrDoc{keyErr}},
		Delete: &rest.Doc{
			Tag:     "features",
			Status:  204,
			Summary: "Remove a flag (admin)",
			Desc:    "Removes the flag and its exposure counts.",
			Errs:    []rest.ErrDoc{keyErr, rest.Err(errcode.NotFound, "no such flag")}},
		Stats: &rest.Doc{
			Tag:     "features",
			Status:  200,
			Summary: "A/B test counts (admin)",
			Desc:    "Distinct users evaluated since the flag was defined, by variant, with those it was off for: enough to read an A/B test. Evaluations are written in batches within 30 seconds.",
			Data:    flagStatsDoc,
			Errs:    []rest.ErrDoc{keyErr, rest.Err(errcode.NotFound, "no such flag")}},
	}
}
