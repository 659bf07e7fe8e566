package handlers

import (
	"fiplan/data/fx"
	"fiplan/handlers/schema"
)

// fxSchemaFormats registers the fxCurrency format: an ISO 4217 code that
// the embedded reference exchange-rate table converts, so every stored
// amount can be summed in any base currency.
var fxSchemaFormats = func() bool {
	schema.Format("fxCurrency", func(s string) string {
		if msg := checkCurrency(s); msg != "" {
			return msg
		}
		if t, err := fx.Embedded(); err != nil || !t.Has(s) {
			return "is not a currency of the reference exchange-rate table (see GET /api/v1/assets/summary for its date)"
		}
		return ""
	})
	return true
}()
