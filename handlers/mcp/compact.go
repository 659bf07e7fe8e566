package mcp

import (
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"fiplan/handlers/rest"
)

// Compact answers. A model reads every byte a tool answers, so a tool's
// default answer is the part a model needs: a list's rows cut to a few
// fields, the calculator's summaries without their per-year rows. The call
// asks for the API's whole answer with detail: full (output: full for the
// calculator tools), which then holds every row the API answers.

// compaction says how a tool's default answer is cut down.
type compaction struct {
	// list is the top-level array cut to max rows ("" with rows: the
	// items of a list route, already paged).
	list string
	max  int
	// rows are the fields each row keeps; "regions.code" keeps a list of
	// the code of each region, or with counts their number.
	rows []string
	// counts: nested lists are counted unless the call picked one item
	// (tax_countries: 37 countries' region codes would not fit).
	counts bool
	// listOnly are rows' fields left out of a whole list's rows, kept
	// when the call picked one item.
	listOnly []string
	// also are top-level objects cut to rows like a row.
	also []string
	// drop are fields left out, "monteCarlo.balances" one inside another.
	drop []string
	// keep, when set, are the only top-level fields kept.
	keep []string
}

// planCompaction is the calculator tools': the per-year rows of the Monte
// Carlo percentiles and the backtest's sequences are left to output full
// (the projection rows already are: milestones stand for them).
var planCompaction = &compaction{drop: []string{"monteCarlo.balances", "historical.sequences"}}

// apply cuts out, an answer's JSON object, down to its compact form;
// picked says the call named one item.
func (c *compaction) apply(out []byte, list, picked bool) ([]byte, error) {
	count := c.counts && !picked
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, err
	}
	if len(c.keep) > 0 {
		for k := range m {
			if !slices.Contains(c.keep, k) {
				delete(m, k)
			}
		}
	}
	var err error
	for _, d := range c.drop {
		if err = dropField(m, d); err != nil {
			return nil, err
		}
	}
	name := c.list
	if list {
		name = "items"
	}
	if raw, ok := m[name]; ok && len(c.rows) > 0 {
		if m[name], err = c.cutRows(raw, count); err != nil {
			return nil, err
		}
	}
	for _, a := range c.also {
		if raw, ok := m[a]; ok && string(raw) != "null" {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(raw, &obj); err != nil {
				return nil, err
			}
			if m[a], err = json.Marshal(c.row(obj, count)); err != nil {
				return nil, err
			}
		}
	}
	return json.Marshal(m)
}

// cutRows keeps the first max rows of a list, each cut to rows.
func (c *compaction) cutRows(raw json.RawMessage, count bool) (json.RawMessage, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	if c.max > 0 && len(items) > c.max {
		items = items[:c.max]
	}
	rows := make([]map[string]any, len(items))
	for i, it := range items {
		rows[i] = c.row(it, count)
	}
	return json.Marshal(rows)
}

// row is one item cut to the compaction's fields.
func (c *compaction) row(it map[string]json.RawMessage, count bool) map[string]any {
	r := make(map[string]any, len(c.rows))
	for _, f := range c.rows {
		if count && slices.Contains(c.listOnly, f) {
			continue
		}
		name, sub, nested := strings.Cut(f, ".")
		v, ok := it[name]
		if !ok {
			continue
		}
		if !nested {
			r[name] = v
			continue
		}
		var list []map[string]json.RawMessage
		if json.Unmarshal(v, &list) != nil {
			r[name] = v
			continue
		}
		if count {
			r[name] = len(list)
			continue
		}
		subs := make([]json.RawMessage, 0, len(list))
		for _, e := range list {
			if s, ok := e[sub]; ok {
				subs = append(subs, s)
			}
		}
		r[name] = subs
	}
	return r
}

// dropField removes a field, or with "a.b" the field b of the object a.
func dropField(m map[string]json.RawMessage, path string) error {
	name, sub, nested := strings.Cut(path, ".")
	if !nested {
		delete(m, name)
		return nil
	}
	raw, ok := m[name]
	if !ok || string(raw) == "null" {
		return nil
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(raw, &inner); err != nil {
		return fmt.Errorf("%s is not an object: %w", name, err)
	}
	if err := dropField(inner, sub); err != nil {
		return err
	}
	var err error
	m[name], err = json.Marshal(inner)
	return err
}

// filter is a tool-only argument that picks one item of a list by its key
// field, checked against its grammar before use.
type filter struct {
	name, key, doc string
	grammar        *rest.PathParam
}

// countryFilter picks one country of tax_countries.
var countryFilter = &filter{name: "country", key: "code", doc: "ISO 3166-1 alpha-2 code: answer that country alone (with its regions and wrappers).",
	grammar: rest.NewPathParam("country", `^[A-Za-z]{2}$`, 2, "must be an ISO 3166-1 alpha-2 country code (two letters)")}

// pick keeps the items whose key is value (any case) and says so in meta.
func (f *filter) pick(out []byte, value string) ([]byte, error) {
	var d struct {
		Items []map[string]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, err
	}
	kept := []map[string]json.RawMessage{}
	for _, it := range d.Items {
		var k string
		if json.Unmarshal(it[f.key], &k) == nil && strings.EqualFold(k, value) {
			kept = append(kept, it)
		}
	}
	return json.Marshal(map[string]any{"items": kept, "meta": map[string]int{"total": len(kept), "limit": len(d.Items), "offset": 0}})
}
