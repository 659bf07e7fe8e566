package handlers

import (
	"strings"

	"fiplan/compute/category"
	"fiplan/compute/fi"
	"fiplan/compute/health"
	"fiplan/compute/isin"
	"fiplan/compute/tax"
	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/account"
	"fiplan/handlers/plans"
	"fiplan/handlers/schema"
)

// vocabulary names every enum and format that request and response
// declarations refer to (enum=@name, format=name), once: a second
// definition of a name fails start-up.
func vocabulary(rates *fx.Table) (*schema.Vocabulary, error) {
	parts := make([]string, tax.NumParts)
	for p := range parts {
		parts[p] = tax.Part(p).String()
	}
	v := schema.NewVocabulary().
		Enum("geoRegion", geo.Regions).
		Enum("climateBand", geo.ClimateBands).
		Enum("englishBand", geo.EnglishBands).
		Enum("taxIncomePart", parts).
		Enum("taxCategory", tax.CategoryNames).
		Enum("taxLineKind", tax.KindNames).
		Enum("programScope", names(program.Scopes)).
		Enum("programRuleType", names(program.RuleTypes)).
		Enum("programKind", names(program.Kinds)).
		Enum("assetClass", category.Names()).
		Enum("withdrawalStrategy", fi.StrategyNames()).
		Enum("region", health.Regions).
		Enum("riskTolerance", health.RiskTolerances).
		Enum("component", health.ComponentNames).
		Enum("recommendationKind", health.KindNames).
		Enum("accountType", account.AccountTypes).
		Format("isin", isin.Check).
		Format("currency", checkCurrency).
		Format("fxCurrency", func(s string) string {
			if msg := checkCurrency(s); msg != "" {
				return msg
			}
			if !rates.Has(s) {
				return "is not a currency of the reference exchange-rate table (see GET /api/v1/assets/summary for its date)"
			}
			return ""
		}).
		Format("dataset", func(s string) string {
			if s == "annual" || s == "shiller-monthly" {
				return ""
			}
			if id, ok := strings.CutPrefix(s, "user:"); ok && account.SeriesID.Valid([]byte(id)) {
				return ""
			}
			return "must be annual, shiller-monthly or user:<id>, the id of one of your series (GET /api/v1/user/series)"
		}).
		Format("email", account.CheckEmail).
		Format("country", account.CheckCountry).
		Format("locale", account.CheckLocale).
		Format("monthDay", plans.CheckMonthDay)
	return v, v.Err()
}

// checkCurrency accepts the shape of an ISO 4217 code.
func checkCurrency(s string) string {
	if len(s) != 3 {
		return "must be a three-letter ISO 4217 code"
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return "must be a three-letter ISO 4217 code in capitals"
		}
	}
	return ""
}

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
