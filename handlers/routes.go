package handlers

import (
	"fiplan/handlers/account"
	"fiplan/handlers/features"
	"fiplan/handlers/geo"
	"fiplan/handlers/hooks"
	"fiplan/handlers/plans"
	"fiplan/handlers/rest"
	"fiplan/handlers/tax"
)

// v1 is the prefix of every API route but the probes.
const v1 = "/api/v1"

// table is every route the server serves: method, path, who may call it,
// the handler and its documentation. The router and the OpenAPI document
// are both built from it.
func (s *Server) table() []*rest.Route {
	a, p, t, f, g, pl, wh := s.account, s.places, s.tax, s.features, s.health, s.plans, s.hooks
	return append([]*rest.Route{
		rest.Get(livezPath, rest.Probe, s.livez, s.probes.livezDoc),
		rest.Get(readyzPath, rest.Probe, s.readyz, s.probes.readyzDoc),
		rest.Get(v1+"/status", rest.Public, s.status, s.statusDoc),
		rest.Get(v1+"/openapi.json", rest.Public, s.openAPI, openAPIRoute),

		rest.Post(v1+"/calculator", rest.Public, s.calc.Calculate, s.calc.Doc),
		rest.Post(v1+"/portfolio-health", rest.Public, g.Health, g.Docs.Health),
		rest.Get(v1+"/fi-score", rest.User, a.FIScore, a.Docs.FIScore),

		rest.Get(v1+"/assets", rest.User, a.ListAssets, a.Docs.ListAssets),
		rest.Post(v1+"/assets", rest.User, a.CreateAsset, a.Docs.CreateAsset).WithIdempotencyKey(),
		rest.Get(v1+"/assets/summary", rest.User, a.Summary, a.Docs.Summary),
		rest.Post(v1+"/assets/categorize", rest.User, a.Categorize, a.Docs.Categorize),
		rest.Get(v1+"/assets/{id}", rest.User, a.GetAsset, a.Docs.GetAsset).Where(account.AssetID),
		rest.Put(v1+"/assets/{id}", rest.User, a.PutAsset, a.Docs.PutAsset).Where(account.AssetID),
		rest.Patch(v1+"/assets/{id}", rest.User, a.PatchAsset, a.Docs.PatchAsset).Where(account.AssetID),
		rest.Delete(v1+"/assets/{id}", rest.User, a.DeleteAsset, a.Docs.DeleteAsset).Where(account.AssetID),

		rest.Get(v1+"/plans", rest.User, pl.List, pl.Docs.List),
		rest.Post(v1+"/plans", rest.User, pl.Create, pl.Docs.Create).WithIdempotencyKey(),
		rest.Get(v1+"/plans/{id}", rest.User, pl.Get, pl.Docs.Get).Where(plans.PlanID),
		rest.Put(v1+"/plans/{id}", rest.User, pl.Put, pl.Docs.Put).Where(plans.PlanID),
		rest.Patch(v1+"/plans/{id}", rest.User, pl.Patch, pl.Docs.Patch).Where(plans.PlanID),
		rest.Delete(v1+"/plans/{id}", rest.User, pl.Delete, pl.Docs.Delete).Where(plans.PlanID),
		rest.Post(v1+"/plans/{id}/run", rest.User, pl.Run, pl.Docs.Run).Where(plans.PlanID),
		rest.Post(v1+"/plans/{id}/checkin", rest.User, pl.CheckIn, pl.Docs.CheckIn).Where(plans.PlanID),
		rest.Post(v1+"/plans/{id}/optimize", rest.User, pl.Optimize, pl.Docs.Optimize).Where(plans.PlanID),

		rest.Get(v1+"/user/profile", rest.User, a.Profile.Get, a.Profile.Docs.Get),
		rest.Put(v1+"/user/profile", rest.User, a.Profile.Put, a.Profile.Docs.Put),
		rest.Patch(v1+"/user/profile", rest.User, a.Profile.Patch, a.Profile.Docs.Patch),
		rest.Get(v1+"/user/settings", rest.User, a.Settings.Get, a.Settings.Docs.Get),
		rest.Put(v1+"/user/settings", rest.User, a.Settings.Put, a.Settings.Docs.Put),
		rest.Patch(v1+"/user/settings", rest.User, a.Settings.Patch, a.Settings.Docs.Patch),
		rest.Get(v1+"/user/notifications", rest.User, a.Notifications.Get, a.Notifications.Docs.Get),
		rest.Put(v1+"/user/notifications", rest.User, a.Notifications.Put, a.Notifications.Docs.Put),
		rest.Patch(v1+"/user/notifications", rest.User, a.Notifications.Patch, a.Notifications.Docs.Patch),
		rest.Get(v1+"/user/export", rest.User, a.Export, a.Docs.Export),
		rest.Get(v1+"/user/series", rest.User, a.ListSeries, a.Docs.ListSeries),
		rest.Post(v1+"/user/series", rest.User, a.CreateSeries, a.Docs.CreateSeries),
		rest.Get(v1+"/user/series/{id}", rest.User, a.GetSeries, a.Docs.GetSeries).Where(account.SeriesID),
		rest.Delete(v1+"/user/series/{id}", rest.User, a.DeleteSeries, a.Docs.DeleteSeries).Where(account.SeriesID),
		rest.Delete(v1+"/user", rest.Session, a.Erase, a.Docs.Erase),
		rest.Get(v1+"/user/api-keys", rest.User, a.ListKeys, a.Docs.ListKeys),
		rest.Post(v1+"/user/api-keys", rest.Session, a.CreateKey, a.Docs.CreateKey).WithIdempotencyKey(),
		rest.Delete(v1+"/user/api-keys/{id}", rest.Session, a.RevokeKey, a.Docs.RevokeKey).Where(account.KeyID),
		rest.Get(v1+"/user/webhooks", rest.User, wh.List, wh.Docs.List),
		rest.Post(v1+"/user/webhooks", rest.User, wh.Create, wh.Docs.Create),
		rest.Delete(v1+"/user/webhooks/{id}", rest.User, wh.Delete, wh.Docs.Delete).Where(hooks.HookID),
		rest.Post(v1+"/user/webhooks/{id}/rotate", rest.User, wh.Rotate, wh.Docs.Rotate).Where(hooks.HookID),
		rest.Post(v1+"/user/webhooks/{id}/test", rest.User, wh.Test, wh.Docs.Test).Where(hooks.HookID),
		rest.Get(v1+"/user/deliveries", rest.User, wh.Deliveries, wh.Docs.Deliveries),
		rest.Get(v1+"/user/events", rest.User, wh.Events, wh.Docs.Events),

		rest.Get(v1+"/geo/cities", rest.Public, p.List, p.Docs.List),
		rest.Get(v1+"/geo/cities/{id}", rest.User, p.Get, p.Docs.Get).Where(geo.CityID),
		rest.Get(v1+"/geo/compare", rest.User, p.Compare, p.Docs.Compare),
		rest.Post(v1+"/geo/recommendations", rest.User, p.Recommend, p.Docs.Recommend),

		rest.Get(v1+"/tax/countries", rest.User, t.Countries, t.Docs.Countries),
		rest.Post(v1+"/tax/calculate", rest.User, t.Calculate, t.Docs.Calculate),
		rest.Get(v1+"/tax/programs", rest.User, t.Programs, t.Docs.Programs),
		rest.Get(v1+"/tax/programs/{id}", rest.User, t.Program, t.Docs.Program).Where(tax.ProgramID),
		rest.Post(v1+"/tax/optimize", rest.Pro, t.Optimize, t.Docs.Optimize),

		rest.Get(v1+"/features", rest.User, f.List, f.Docs.List),
		rest.Get(v1+"/features/{key}", rest.User, f.Get, f.Docs.Get).Where(features.FlagKey),
		rest.Put(v1+"/features/{key}", rest.Admin, f.Put, f.Docs.Put).Where(features.FlagKey),
		rest.Delete(v1+"/features/{key}", rest.Admin, f.Delete, f.Docs.Delete).Where(features.FlagKey),
		rest.Get(v1+"/features/{key}/stats", rest.Admin, f.Stats, f.Docs.Stats).Where(features.FlagKey),

		rest.Get(v1+"/admin/backup", rest.Admin, s.backup, backupDoc),
	}, s.mailRoutes()...)
}

// mailRoutes are the email channel's: the verification link and the
// one-click unsubscribe need no sign-in, their signed token is the proof.
func (s *Server) mailRoutes() []*rest.Route {
	m := s.mail
	return []*rest.Route{
		rest.Post(v1+"/user/email/verify", rest.User, m.Request, m.Docs.Request),
		rest.Get(v1+"/user/email/verify", rest.Public, m.Verify, m.Docs.Verify),
		rest.Get(v1+"/unsubscribe", rest.Public, m.UnsubscribePage, m.Docs.UnsubscribePage),
		rest.Post(v1+"/unsubscribe", rest.Public, m.Unsubscribe, m.Docs.Unsubscribe),
	}
}
