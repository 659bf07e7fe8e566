package tax

import (
	"fmt"
	"sort"
	"strconv"
)

// Dated rules. A file lists its rules once, for every year (or each year
// in full, the older form); inside them a value may change with the year,
// and a figure may say how it moves past the newest published year:
//
//   - a dated value {"values": {"2024": a, "2026": b}} is a in 2024 and
//     2025 and b from 2026 on. Its keys are years up to the newest
//     published one: a change the law schedules later is a sunset;
//   - a figure (a money amount: a band's threshold, an allowance, a
//     limit) may carry its indexation: {"value": 12570, "indexed": "prices"
//     | "wages" | "none", "frozenUntil": 2030, "plus": 0.02, "round":
//     {"mode": "ceil", "unit": 10}, "src": [...]}, with "values" in place of
//     "value" when it also changes between years (see Class);
//   - a dated value or a figure may end: "until": 2028 and "then": 0, its
//     value from 2029 on;
//   - an element of a list (a rule, a layer, a band, a deduction, a credit)
//     may say "since" and "until": it applies in those years only, both
//     included.
//
// resolve turns the rules into those of one year, which Parse then decodes
// as a year written out in full; a figure keeps its indexation for the
// typed decoding (jFig).

// figureMeta are the keys a figure may carry besides its value.
var figureMeta = map[string]bool{"indexed": true, "frozenUntil": true, "plus": true, "round": true, "src": true}

// isDated reports whether n is a dated value or a figure object.
func (n *node) isDated() bool {
	return n.kind == 'o' && (n.get("values") != nil || n.get("value") != nil)
}

// resolver resolves a file's rules for one year.
type resolver struct {
	year, last int // the year resolved and the newest published year
	// keep: the sunsets past the newest year stay in the result, as a
	// year written out in full may say them (Convert)
	keep bool
}

// resolve is n as it stands in the resolver's year.
func (r *resolver) resolve(n *node) (*node, error) {
	switch n.kind {
	case 'a':
		out := &node{kind: 'a'}
		for i, v := range n.vals {
			keep, v, err := r.element(v)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			if !keep {
				continue
			}
			if v, err = r.resolve(v); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out.vals = append(out.vals, v)
		}
		return out, nil
	case 'o':
		if n.isDated() {
			return r.dated(n)
		}
		out := &node{kind: 'o'}
		for i, k := range n.keys {
			v, err := r.resolve(n.vals[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			if v.kind == 'z' {
				continue // null: absent this year
			}
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, v)
		}
		return out, nil
	}
	return n, nil
}

// element reads an element's "since" and "until": whether it applies in
// the year, and the element without them.
func (r *resolver) element(n *node) (bool, *node, error) {
	if n.kind != 'o' || n.isDated() || (n.get("since") == nil && n.get("until") == nil) {
		return true, n, nil
	}
	since, until, err := r.span(n)
	if err != nil {
		return false, nil, err
	}
	if (since != 0 && r.year < since) || (until != 0 && r.year > until) {
		return false, nil, nil
	}
	keepUntil := r.keep && until >= r.last
	c := &node{kind: 'o'}
	for i, k := range n.keys {
		if k != "since" && (k != "until" || keepUntil) {
			c.keys = append(c.keys, k)
			c.vals = append(c.vals, n.vals[i])
		}
	}
	return true, c, nil
}

// span reads an element's since and until (0 when absent).
func (r *resolver) span(n *node) (since, until int, err error) {
	if v := n.get("since"); v != nil {
		var ok bool
		if since, ok = v.year(); !ok {
			return 0, 0, fmt.Errorf("since is not a year")
		}
		if since > r.last {
			return 0, 0, fmt.Errorf("since %d is past the newest published year %d", since, r.last)
		}
	}
	if v := n.get("until"); v != nil {
		var ok bool
		if until, ok = v.year(); !ok {
			return 0, 0, fmt.Errorf("until is not a year")
		}
	}
	if since != 0 && until != 0 && until < since {
		return 0, 0, fmt.Errorf("until %d before since %d", until, since)
	}
	return since, until, nil
}

// dated resolves a dated value or a figure object.
func (r *resolver) dated(n *node) (*node, error) {
	var v *node
	if vs := n.get("values"); vs != nil {
		if n.get("value") != nil {
			return nil, fmt.Errorf("both value and values")
		}
		var err error
		if v, err = r.pick(vs); err != nil {
			return nil, err
		}
	} else {
		v = n.get("value")
	}
	meta := &node{kind: 'o'}
	for i, k := range n.keys {
		switch {
		case k == "value" || k == "values" || k == "then":
		case k == "until":
			u, ok := n.vals[i].year()
			if !ok {
				return nil, fmt.Errorf("until is not a year")
			}
			then := n.get("then")
			if then == nil {
				return nil, fmt.Errorf("until %d without then (the value after it)", u)
			}
			if r.year > u {
				v = then
			} else if r.keep && u >= r.last {
				meta.keys = append(meta.keys, "until", "then")
				meta.vals = append(meta.vals, n.vals[i], then)
			}
		case figureMeta[k]:
			meta.keys = append(meta.keys, k)
			meta.vals = append(meta.vals, n.vals[i])
		default:
			return nil, fmt.Errorf("a dated value has no key %q", k)
		}
	}
	if n.get("then") != nil && n.get("until") == nil {
		return nil, fmt.Errorf("then without until")
	}
	if v.isDated() {
		return nil, fmt.Errorf("a dated value inside a dated value")
	}
	v, err := r.resolve(v)
	if err != nil {
		return nil, err
	}
	if len(meta.keys) == 0 {
		return v, nil
	}
	if v.kind != 'n' && meta.get("until") == nil {
		return nil, fmt.Errorf("indexation on a value that is not a number")
	}
	meta.keys = append([]string{"value"}, meta.keys...)
	meta.vals = append([]*node{v}, meta.vals...)
	return meta, nil
}

// pick is the value of a dated value's years that holds in the year: the
// latest not after it.
func (r *resolver) pick(vs *node) (*node, error) {
	if vs.kind != 'o' || len(vs.keys) == 0 {
		return nil, fmt.Errorf("values is not an object of years")
	}
	best, at := -1, 0
	for i, k := range vs.keys {
		y, err := strconv.Atoi(k)
		if err != nil || y < 1900 || y > 2200 {
			return nil, fmt.Errorf("values: %q is not a year", k)
		}
		if y > r.last {
			return nil, fmt.Errorf("values: %d is past the newest published year %d (a later change is a sunset: until and then)", y, r.last)
		}
		if y <= r.year && (best < 0 || y > at) {
			best, at = i, y
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("values: none from %d or before", r.year)
	}
	return vs.vals[best], nil
}

// sunsets lists the years after the newest published one, last, in which
// some element or value of n ends: each starts a new projected year.
func sunsets(n *node, last int) []int {
	seen := map[int]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n.kind == 'o' {
			if u, ok := n.get("until").year(); ok && u >= last {
				seen[u+1] = true
			}
		}
		for _, v := range n.vals {
			walk(v)
		}
	}
	walk(n)
	out := make([]int, 0, len(seen))
	for y := range seen {
		out = append(out, y)
	}
	sort.Ints(out)
	return out
}
