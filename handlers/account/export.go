package account

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/history"
	"fiplan/data/store"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

func (s *Handlers) userDocs(d *Docs, exportDoc rest.Schema) {
	d.Export = &rest.Doc{
		Tag:     "user",
		Status:  200,
		Data:    exportDoc,
		Summary: "Export everything stored about you",
		Desc:    "Your account, profile, settings, notification preferences, assets, saved plans, return series, API-key metadata, feature-flag assignments, webhook endpoints (without secrets), events and webhook deliveries, read in one transaction. Documents you never wrote are null."}
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
		Assets: make([]asset, len(e.Assets)), Plans: make([]exportedPlan, len(e.Plans)), APIKeys: apiKeys(e.Keys), Flags: []flagExposure{}}
	if e.Account != nil {
		out.Account = &accountInfo{Tier: e.Account.Tier, CreatedAt: e.Account.CreatedAt, UpdatedAt: e.Account.UpdatedAt}
	}
	for i, raw := range e.Assets {
		if err := json.Unmarshal(raw, &out.Assets[i]); err != nil {
			c.Internal(err)
			return
		}
	}
	for i, raw := range e.Plans {
		if err := json.Unmarshal(raw, &out.Plans[i]); err != nil {
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
	if out.Series, err = exportSeries(e.Docs); err != nil {
		c.Internal(err)
		return
	}
	// Assignments not yet written (they are written every 30 s) count too.
	s.pending.Exposures(user, e.Exposures)
	for k, v := range e.Exposures {
		out.Flags = append(out.Flags, flagExposure{Key: k, Variant: v})
	}
	slices.SortFunc(out.Flags, func(a, b flagExposure) int { return strings.Compare(a.Key, b.Key) })
	exportOutbox(&e, &out)
	c.JSON(fasthttp.StatusOK, &out)
}

// exportOutbox lists the user's webhooks (without secrets), events and
// deliveries.
func exportOutbox(e *store.Export, out *exportData) {
	out.Webhooks, out.Events, out.Deliveries = []exportedHook{}, []exportedEvent{}, []exportedDelivery{}
	for _, h := range e.Hooks {
		out.Webhooks = append(out.Webhooks, exportedHook{ID: h.ID, URL: h.URL, Events: h.Events, CreatedAt: h.CreatedAt})
	}
	for _, v := range e.Events {
		out.Events = append(out.Events, exportedEvent{ID: v.ID, Type: v.Type, CreatedAt: v.CreatedAt, PlanID: v.PlanID, Data: schema.RawObject(v.Data)})
	}
	for _, d := range e.Deliveries {
		out.Deliveries = append(out.Deliveries, exportedDelivery{ID: d.ID, EventID: d.EventID, EventType: d.EventType, WebhookID: d.HookID,
			Status: d.Status, Attempts: d.Attempts, NextAt: d.NextAt, LastStatus: d.LastStatus, LastError: d.LastError,
			CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt})
	}
}

// exportSeries is the user's series in the order the index lists them.
func exportSeries(docs map[string][]byte) ([]seriesFull, error) {
	out := []seriesFull{}
	raw, ok := docs[seriesIndex]
	if !ok {
		return out, nil
	}
	var idx seriesList
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, err
	}
	for _, sum := range idx.Series {
		body, ok := docs[seriesDoc(sum.ID)]
		if !ok {
			continue
		}
		var u history.UserSeries
		if err := json.Unmarshal(body, &u); err != nil {
			return nil, err
		}
		f := seriesFull{seriesSummary: summarize(&u), Rows: make([]seriesRow, len(u.Rows))}
		for i, r := range u.Rows {
			f.Rows[i] = seriesRow{Year: r.Year, Month: r.Month, Stocks: r.Stocks, Bonds: r.Bonds, Inflation: r.Inflation}
		}
		out = append(out, f)
	}
	return out, nil
}

func exportDocument[T any](docs map[string][]byte, r *userDoc[T], dst **T) error {
	raw, ok := docs[r.name]
	if !ok {
		return nil
	}
	v := new(T)
	if err := r.decode(raw, v); err != nil {
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
	s.seriesCache.forget(user)
	c.NoContent()
}
