package account

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"

	gojson "github.com/goccy/go-json"
)

// userDoc is one of the three documents: its store name, schema and the
// cross-field checks a schema cannot express.
type userDoc[T any] struct {
	name   string
	schema *schema.Schema[T]
	check  func(s *Handlers, v *T) *schema.Detail
	// fill, when set, completes a stored document written before some of
	// its members existed, from the stored JSON and the decoded value.
	fill func(stored []byte, v *T)
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

// inheritMilestones keeps the mail a user chose before each event type
// had its own preference: milestones' email switch then chose whether any
// event was mailed, so a per-type switch the stored document does not
// hold takes milestones' email switch.
func inheritMilestones(stored []byte, n *notifications) {
	var members map[string]json.RawMessage
	if json.Unmarshal(stored, &members) != nil {
		return
	}
	for name, ch := range map[string]*channels{"checkins": &n.Checkins, "guardrails": &n.Guardrails, "offTrack": &n.OffTrack, "dataUpdates": &n.DataUpdates} {
		if _, ok := members[name]; !ok {
			ch.Email = n.Milestones.Email
		}
	}
}

// read gives the user's document, or its defaults when never written.
func (r *userDoc[T]) read(db store.Store, user string, v *T) error {
	var stored json.RawMessage
	if _, err := db.GetDoc(user, r.name, &stored); err != nil {
		return err
	}
	return r.decode(stored, v)
}

// decode sets v to the defaults, then to the stored JSON (nil: never
// written) over them.
func (r *userDoc[T]) decode(stored []byte, v *T) error {
	r.schema.Reset(v)
	if stored == nil {
		return nil
	}
	if err := json.Unmarshal(stored, v); err != nil {
		return err
	}
	if r.fill != nil {
		r.fill(stored, v)
	}
	return nil
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
	if err := r.decode(old, v); err != nil {
		return nil, err
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
		if s.written != nil {
			s.written(c.Principal.User, r.name)
		}
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
		if s.written != nil {
			s.written(c.Principal.User, r.name)
		}
		answer(c, data)
	}
}

// settings reads the user's settings (defaults when never written).
func (s *Handlers) settings(user string) (settingsDoc, error) {
	var v settingsDoc
	err := s.settingsRes.read(s.db, user, &v)
	return v, err
}

// defaultCurrency is the currency of a user who never chose one.
const defaultCurrency = "USD"

// baseOf is the currency of the asset summary and the FI score: the
// settings' base currency, else the profile's currency, else USD. A
// currency the user never set is never stored; it is worked out here.
func baseOf(st *settingsDoc, p *profile) string {
	switch {
	case st.BaseCurrency != nil:
		return *st.BaseCurrency
	case p != nil && p.Currency != nil:
		return *p.Currency
	}
	return defaultCurrency
}

// base is baseOf for user, reading the profile only when the settings
// name no currency.
func (s *Handlers) base(user string, st *settingsDoc) (string, error) {
	if st.BaseCurrency != nil {
		return *st.BaseCurrency, nil
	}
	var p profile
	if err := s.profile.read(s.db, user, &p); err != nil {
		return "", err
	}
	return baseOf(st, &p), nil
}
