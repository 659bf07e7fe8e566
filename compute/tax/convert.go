package tax

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
)

// Convert rewrites a tax file in the dated form: the rules once, beside
// the years; a value that differs between years dated at each change; a
// rule, layer, deduction or credit that starts or ends inside the years
// with since and until. Figures keep their indexation and sunsets. It
// reads either form, so it can be run again on a converted file (which it
// writes the same) or on one whose years were edited in full. The result
// is checked: both files must parse to the same years, published and
// projected, or Convert fails.
func Convert(b []byte) ([]byte, error) {
	tree, err := decodeNode(b)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	yearsN := tree.get("years")
	if yearsN == nil || yearsN.kind != 'a' || len(yearsN.vals) == 0 {
		return nil, fmt.Errorf("convert: no years")
	}
	years := make([]int, len(yearsN.vals))
	for i, e := range yearsN.vals {
		y, ok := e.get("year").year()
		if !ok || (i > 0 && y <= years[i-1]) {
			return nil, fmt.Errorf("convert: the years must be listed in ascending order")
		}
		years[i] = y
	}
	last := years[len(years)-1]
	// every year's rules in full, the sunsets past the newest year kept
	perYear := make([][]*node, len(years))
	shared := tree.get("rules")
	for i, e := range yearsN.vals {
		src := e.get("rules")
		if src == nil {
			src = shared
		}
		if src == nil {
			return nil, fmt.Errorf("convert: %d: no rules", years[i])
		}
		r := resolver{year: years[i], last: last, keep: true}
		rules, err := r.resolve(src)
		if err != nil {
			return nil, fmt.Errorf("convert: %d: rules%w", years[i], err)
		}
		perYear[i] = rules.vals
	}
	m := merger{years: years}
	rules, err := m.rules(perYear)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	out := &node{kind: 'o'}
	for i, k := range tree.keys {
		switch k {
		case "rules":
			continue
		case "years":
			ys := &node{kind: 'a'}
			for _, e := range yearsN.vals {
				c := e.clone()
				c.del("rules")
				ys.vals = append(ys.vals, c)
			}
			out.set("years", ys)
			out.set("rules", rules)
		default:
			out.set(k, tree.vals[i])
		}
	}
	var buf bytes.Buffer
	out.encode(&buf, 1, 0)
	buf.WriteByte('\n')
	if err := sameSystem(b, buf.Bytes()); err != nil {
		return nil, fmt.Errorf("convert: the converted file differs: %w", err)
	}
	return buf.Bytes(), nil
}

// sameSystem reports where two files parse to different years.
func sameSystem(a, b []byte) error {
	sa, err := Parse(a)
	if err != nil {
		return fmt.Errorf("before: %w", err)
	}
	sb, err := Parse(b)
	if err != nil {
		return fmt.Errorf("after: %w", err)
	}
	if !reflect.DeepEqual(sa.classes, sb.classes) || sa.realWages != sb.realWages {
		return fmt.Errorf("the classes of figures")
	}
	for _, pair := range [][2][]Year{{sa.years, sb.years}, {sa.projected, sb.projected}} {
		if len(pair[0]) != len(pair[1]) {
			return fmt.Errorf("%d years, then %d", len(pair[0]), len(pair[1]))
		}
		for i := range pair[0] {
			x, y := &pair[0][i], &pair[1][i]
			if x.Year != y.Year || x.Base != y.Base || x.Projected != y.Projected || x.classes != y.classes ||
				!reflect.DeepEqual(x.Notes, y.Notes) || !reflect.DeepEqual(x.Rules, y.Rules) || !sameViews(x.views, y.views) {
				return fmt.Errorf("year %d", x.Year)
			}
		}
	}
	return nil
}

func sameViews(a, b []view) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].covered != b[i].covered || a[i].joint != b[i].joint || !reflect.DeepEqual(a[i].rules, b[i].rules) {
			return false
		}
	}
	return true
}

// merger merges the years' values into dated ones.
type merger struct {
	years []int
}

// item is one year's value.
type item struct {
	year int
	n    *node
}

// rules merges the years' rule lists into one: each rule once, in an
// order every year's order keeps, with since and until where it starts
// after the first year or ends before the newest.
func (m *merger) rules(perYear [][]*node) (*node, error) {
	type entry struct {
		key   string
		items []item
	}
	var order []*entry
	byKey := map[string]*entry{}
	// the newest year's order first, earlier years' rules inserted after
	// the rule they follow
	for yi := len(perYear) - 1; yi >= 0; yi-- {
		seen := map[string]int{}
		pos := 0
		for _, r := range perYear[yi] {
			base := ruleKey(r)
			seen[base]++
			key := base + "#" + strconv.Itoa(seen[base])
			e := byKey[key]
			at := -1
			if e != nil {
				for i, o := range order {
					if o == e {
						at = i
					}
				}
				if at < pos {
					// out of the order the other years keep: its own entry
					key += "@" + strconv.Itoa(m.years[yi])
					e = nil
				}
			}
			if e == nil {
				e = &entry{key: key}
				byKey[key] = e
				order = append(order[:pos], append([]*entry{e}, order[pos:]...)...)
				at = pos
			}
			e.items = append([]item{{m.years[yi], r}}, e.items...)
			pos = at + 1
		}
	}
	out := &node{kind: 'a'}
	for _, e := range order {
		for _, run := range m.runs(e.items) {
			n, err := m.element(run, true)
			if err != nil {
				return nil, fmt.Errorf("rule %s: %w", e.key, err)
			}
			out.vals = append(out.vals, n)
		}
	}
	return out, nil
}

// ruleKey is what names a rule across years: its id, condition and
// regions.
func ruleKey(r *node) string {
	k := ""
	for _, f := range []string{"id", "when", "regions", "exceptRegions"} {
		if v := r.get(f); v != nil {
			k += string(v.compact())
		}
		k += "|"
	}
	return k
}

// runs splits items into runs of consecutive years.
func (m *merger) runs(items []item) [][]item {
	var out [][]item
	start := 0
	for i := 1; i <= len(items); i++ {
		if i == len(items) || m.index(items[i].year) != m.index(items[i-1].year)+1 {
			out = append(out, items[start:i])
			start = i
		}
	}
	return out
}

func (m *merger) index(year int) int {
	for i, y := range m.years {
		if y == year {
			return i
		}
	}
	return -1
}

// element merges a list element present in the consecutive years of
// items, adding since and until when it starts after the first year or
// ends before the newest (a sunset past the newest year it carries
// already).
func (m *merger) element(items []item, rule bool) (*node, error) {
	n, err := m.merge(items, "")
	if err != nil {
		return nil, err
	}
	first, end := items[0].year, items[len(items)-1].year
	if first == m.years[0] && end == m.years[len(m.years)-1] {
		return n, nil
	}
	if n.kind != 'o' || n.isDated() {
		return nil, fmt.Errorf("an element that is not in every year must be an object")
	}
	if n.get("until") != nil && end != m.years[len(m.years)-1] {
		return nil, fmt.Errorf("a sunset on an element that ends before the newest year")
	}
	c := n.clone()
	if first != m.years[0] {
		c.set("since", &node{kind: 'n', str: strconv.Itoa(first)})
	}
	if end != m.years[len(m.years)-1] {
		c.set("until", &node{kind: 'n', str: strconv.Itoa(end)})
	}
	return c, nil
}

// identity names the elements of a list across years, by the list's key:
// a layer by its id, an adjustment by its label and conditions; "" for a
// list merged element by element or as a whole.
func identity(list string, n *node) string {
	if n.kind != 'o' {
		return ""
	}
	switch list {
	case "layers":
		if id := n.get("id"); id != nil {
			return id.str
		}
	case "deductions", "credits":
		k := ""
		for _, f := range []string{"label", "when", "perPerson"} {
			if v := n.get(f); v != nil {
				k += string(v.compact())
			}
			k += "|"
		}
		return k
	}
	return ""
}

// elementwise lists merge element by element when every year has as many.
var elementwise = map[string]bool{"bands": true, "nilRate": true, "segments": true, "": true}

// merge merges one value over consecutive years; key is the object key it
// is found under ("" inside a list).
func (m *merger) merge(items []item, key string) (*node, error) {
	same := true
	for _, it := range items[1:] {
		same = same && it.n.equal(items[0].n)
	}
	if same {
		return items[0].n, nil
	}
	first := items[0].n
	switch {
	case isFigure(first) || allNumbersOrFigures(items):
		return m.figure(items)
	case first.kind == 'o' && sameKind(items) && !anyFigure(items):
		// key by key; a key some years lack is null (absent) in them
		out := &node{kind: 'o'}
		for _, k := range unionKeys(items) {
			var vs []item
			for _, it := range items {
				v := it.n.get(k)
				if v == nil {
					v = &node{kind: 'z'}
				}
				vs = append(vs, item{it.year, v})
			}
			v, err := m.merge(vs, k)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out.set(k, v)
		}
		return out, nil
	case first.kind == 'a' && sameKind(items):
		if n, ok, err := m.list(items, key); ok || err != nil {
			return n, err
		}
	}
	return m.dated(items)
}

// list merges a list over years: by identity (layers, adjustments), or
// element by element when the years have as many (bands); false when
// neither fits, for a dated whole.
func (m *merger) list(items []item, key string) (*node, bool, error) {
	for _, it := range items {
		if len(it.n.vals) > 0 && identity(key, it.n.vals[0]) != "" {
			return m.byIdentity(items, key)
		}
	}
	n := len(items[0].n.vals)
	for _, it := range items {
		if len(it.n.vals) != n {
			return nil, false, nil
		}
	}
	if !elementwise[key] && key != "layers" && key != "deductions" && key != "credits" {
		return nil, false, nil
	}
	out := &node{kind: 'a'}
	for i := 0; i < n; i++ {
		var vs []item
		for _, it := range items {
			vs = append(vs, item{it.year, it.n.vals[i]})
		}
		v, err := m.merge(vs, "")
		if err != nil {
			return nil, false, fmt.Errorf("[%d]: %w", i, err)
		}
		out.vals = append(out.vals, v)
	}
	return out, true, nil
}

// byIdentity merges a list whose elements are named across years.
func (m *merger) byIdentity(items []item, key string) (*node, bool, error) {
	var order []string
	got := map[string][]item{}
	for yi := len(items) - 1; yi >= 0; yi-- {
		seen := map[string]int{}
		pos := 0
		for _, e := range items[yi].n.vals {
			id := identity(key, e)
			if id == "" {
				return nil, false, nil
			}
			seen[id]++
			id += "#" + strconv.Itoa(seen[id])
			at := -1
			for i, o := range order {
				if o == id {
					at = i
				}
			}
			if at >= 0 && at < pos {
				return nil, false, nil // the years order them differently
			}
			if at < 0 {
				order = append(order[:pos], append([]string{id}, order[pos:]...)...)
				at = pos
			}
			got[id] = append([]item{{items[yi].year, e}}, got[id]...)
			pos = at + 1
		}
	}
	out := &node{kind: 'a'}
	for _, id := range order {
		runs := m.runs(got[id])
		if len(runs) != 1 {
			return nil, false, nil // gone and back: dated as a whole
		}
		if runs[0][0].year < items[0].year || runs[0][len(runs[0])-1].year > items[len(items)-1].year {
			return nil, false, nil
		}
		sub := merger{years: m.years[m.index(items[0].year) : m.index(items[len(items)-1].year)+1]}
		e, err := sub.element(runs[0], false)
		if err != nil {
			return nil, false, err
		}
		out.vals = append(out.vals, e)
	}
	return out, true, nil
}

// figure merges a number that may carry its indexation: one value, or the
// values by year, and the indexation every year gives it.
func (m *merger) figure(items []item) (*node, error) {
	var meta *node
	vals := make([]item, len(items))
	for i, it := range items {
		v, mt := it.n, (*node)(nil)
		if isFigure(it.n) {
			v = it.n.get("value")
			mt = it.n.clone()
			mt.del("value")
		}
		if i > 0 && !sameMeta(meta, mt) {
			return nil, fmt.Errorf("a figure's indexation differs between years: give every year the same")
		}
		meta = mt
		vals[i] = item{it.year, v}
	}
	v, err := m.dated(vals)
	if err != nil {
		return nil, err
	}
	if meta == nil || len(meta.keys) == 0 {
		return v, nil
	}
	out := &node{kind: 'o'}
	if v.isDated() {
		out.set("values", v.get("values"))
	} else {
		out.set("value", v)
	}
	for i, k := range meta.keys {
		out.set(k, meta.vals[i])
	}
	return out, nil
}

func sameMeta(a, b *node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.equal(b)
}

// dated is {"values": {year: value}} with a key at each change.
func (m *merger) dated(items []item) (*node, error) {
	vs := &node{kind: 'o'}
	for i, it := range items {
		if i > 0 && it.n.equal(items[i-1].n) {
			continue
		}
		if it.n.isDated() {
			return nil, fmt.Errorf("a value dated inside a changing value")
		}
		vs.set(strconv.Itoa(it.year), it.n)
	}
	if len(vs.keys) == 1 {
		return vs.vals[0], nil
	}
	return &node{kind: 'o', keys: []string{"values"}, vals: []*node{vs}}, nil
}

// isFigure reports whether n is a figure object with its indexation.
func isFigure(n *node) bool { return n.kind == 'o' && n.get("value") != nil }

func allNumbersOrFigures(items []item) bool {
	for _, it := range items {
		if it.n.kind != 'n' && !isFigure(it.n) {
			return false
		}
	}
	return true
}

func sameKind(items []item) bool {
	for _, it := range items {
		if it.n.kind != items[0].n.kind {
			return false
		}
	}
	return true
}

func anyFigure(items []item) bool {
	for _, it := range items {
		if isFigure(it.n) || it.n.isDated() {
			return true
		}
	}
	return false
}

// unionKeys is the keys of the newest year's object, in its order, then
// those only earlier years have.
func unionKeys(items []item) []string {
	var keys []string
	seen := map[string]bool{}
	for i := len(items) - 1; i >= 0; i-- {
		for _, k := range items[i].n.keys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}
