package account

import (
	gojson "github.com/goccy/go-json"

	"fiplan/data/store"
)

// Watch judges a user's stored assets against the watches of the user's
// saved plans, inside the asset write that changed them (the store's
// store.AssetWatch): the assets' total, each converted with the embedded
// reference rates into the plan's currency, compared with what the plan
// expects this year and with its FI number (store.Track), as a check-in
// compares its balances. An asset in a currency the table lacks, or a
// plan in one, is left out of that plan's total.
func (s *Handlers) Watch(user string, each func(fn func(doc []byte) error) error, ws []store.PlanWatch) ([]store.Event, error) {
	var byCurrency map[string]float64
	err := each(func(doc []byte) error {
		var h struct {
			Value    float64 `json:"value"`
			Currency string  `json:"currency"`
		}
		if err := gojson.UnmarshalOf(doc, &h); err != nil {
			return err
		}
		if byCurrency == nil {
			byCurrency = map[string]float64{}
		}
		byCurrency[h.Currency] += h.Value
		return nil
	})
	if err != nil {
		return nil, err
	}
	now := s.now()
	year := now.Year()
	var evs []store.Event
	for i := range ws {
		w := &ws[i]
		expected, fiNumber, found := w.At(year)
		if !found {
			continue
		}
		total := 0.0
		for cur, v := range byCurrency {
			if x, ok := s.fx.Convert(v, cur, w.Currency); ok {
				total += x
			}
		}
		more, err := store.Track(user, w.Plan, w.Name, year, w.Currency, total, expected, true, fiNumber, now)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}
