package mcp

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
)

// wrapperBrief is a tax-advantaged account of a country's wrapper rules,
// as tax_countries lists it.
type wrapperBrief struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	AccessAge float64 `json:"accessAge"`
	Notes     string  `json:"notes"`
}

// withWrappers adds to each country of tax_countries' answer the wrappers
// of its wrapper rules (none when it has no rules on file), unless the
// API already lists them.
func (h *Handler) withWrappers(t *tool, out []byte) ([]byte, error) {
	if t.filter != countryFilter || h.cfg.Datasets.Taxes == nil {
		return out, nil
	}
	var d struct {
		Items []map[string]json.RawMessage `json:"items"`
		Meta  json.RawMessage              `json:"meta"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, err
	}
	for _, it := range d.Items {
		if _, ok := it["wrappers"]; ok {
			continue
		}
		var cc string
		if err := json.Unmarshal(it["code"], &cc); err != nil {
			return nil, fmt.Errorf("a country without a code: %w", err)
		}
		list := []wrapperBrief{}
		if r := h.cfg.Datasets.Taxes.Wrappers(strings.ToUpper(cc)); r != nil {
			for _, w := range r.Wrappers {
				list = append(list, wrapperBrief{ID: w.ID, Name: w.Name, Kind: w.KindName, AccessAge: w.Access.Age, Notes: w.Notes})
			}
		}
		var err error
		if it["wrappers"], err = json.Marshal(list); err != nil {
			return nil, err
		}
	}
	return json.Marshal(d)
}

func countriesSummary(out []byte) (string, error) {
	items, total, err := list[struct {
		Code     string            `json:"code"`
		Currency string            `json:"currency"`
		Years    []int             `json:"years"`
		Regions  []json.RawMessage `json:"regions"`
		Wrappers []json.RawMessage `json:"wrappers"`
	}](out)
	if err != nil {
		return "", err
	}
	if total == 0 || len(items) == 0 {
		return "No country matches.", nil
	}
	names := make([]string, len(items))
	for i, c := range items {
		years := ""
		if n := len(c.Years); n > 0 {
			years = fmt.Sprintf(", %d-%d", c.Years[0], c.Years[n-1])
		}
		names[i] = fmt.Sprintf("%s (%s%s, %d regions, %d wrappers)", c.Code, c.Currency, years, len(c.Regions), len(c.Wrappers))
	}
	return fmt.Sprintf("%d countries: %s.", len(items), firstFew(names)), nil
}

// documentSummary is the summary of a profile or settings document: its
// fields that are set. key is a field every such document carries
// (null when the user never set it).
func documentSummary(what, key string) summary {
	return func(out []byte) (string, error) {
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			return "", err
		}
		if _, ok := m[key]; !ok {
			return "", fmt.Errorf("the %s has no %s", strings.ToLower(what), key)
		}
		var set []string
		for _, k := range sortedKeys(m) {
			if v := m[k]; v != nil {
				set = append(set, fmt.Sprintf("%s %v", k, v))
			}
		}
		return what + ": " + strings.Join(set, ", ") + ".", nil
	}
}
