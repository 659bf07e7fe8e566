package tax

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// node is a JSON value that keeps its object keys in order and its numbers
// as written: the form of a tax file that is resolved for a year (dated
// values, sunsets) before it is decoded, and that Convert reads and
// writes.
type node struct {
	kind byte     // 'o' object, 'a' array, 's' string, 'n' number, 't' true, 'f' false, 'z' null
	keys []string // object keys, in order
	vals []*node  // object values, or array elements
	str  string   // a string's value, a number's text
}

// decodeNode reads one JSON value.
func decodeNode(b []byte) (*node, error) {
	if !json.Valid(b) {
		var v any
		return nil, json.Unmarshal(b, &v) // the decoder's own message
	}
	p := nodeParser{b: b}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i != len(p.b) {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return n, nil
}

// nodeParser reads valid JSON into nodes.
type nodeParser struct {
	b []byte
	i int
}

func (p *nodeParser) skip() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *nodeParser) value() (*node, error) {
	p.skip()
	switch c := p.b[p.i]; c {
	case '{':
		p.i++
		n := &node{kind: 'o'}
		for {
			p.skip()
			if p.b[p.i] == '}' {
				p.i++
				return n, nil
			}
			if p.b[p.i] == ',' {
				p.i++
				p.skip()
			}
			key, err := p.string()
			if err != nil {
				return nil, err
			}
			if n.get(key) != nil {
				return nil, fmt.Errorf("key %q twice in an object", key)
			}
			p.skip()
			p.i++ // ':'
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, key)
			n.vals = append(n.vals, v)
		}
	case '[':
		p.i++
		n := &node{kind: 'a'}
		for {
			p.skip()
			if p.b[p.i] == ']' {
				p.i++
				return n, nil
			}
			if p.b[p.i] == ',' {
				p.i++
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
	case '"':
		str, err := p.string()
		return &node{kind: 's', str: str}, err
	case 't':
		p.i += 4
		return &node{kind: 't'}, nil
	case 'f':
		p.i += 5
		return &node{kind: 'f'}, nil
	case 'n':
		p.i += 4
		return &node{kind: 'z'}, nil
	}
	j := p.i
	for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
		p.i++
	}
	return &node{kind: 'n', str: string(p.b[j:p.i])}, nil
}

// string reads a string at p.i.
func (p *nodeParser) string() (string, error) {
	j := p.i + 1
	esc := false
	k := j
	for ; p.b[k] != '"'; k++ {
		if p.b[k] == '\\' {
			esc = true
			k++
		}
	}
	p.i = k + 1
	if !esc {
		return string(p.b[j:k]), nil
	}
	var s string
	err := json.Unmarshal(p.b[j-1:k+1], &s)
	return s, err
}

// get is the value of key in an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// set sets key in an object, appending it when new.
func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// del removes key from an object.
func (n *node) del(key string) {
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return
		}
	}
}

// year reads a number node as a whole year.
func (n *node) year() (int, bool) {
	if n == nil || n.kind != 'n' {
		return 0, false
	}
	y, err := strconv.Atoi(n.str)
	return y, err == nil
}

// equal reports whether a and b are the same value (object keys in any
// order, numbers by value).
func (a *node) equal(b *node) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case 'o':
		if len(a.keys) != len(b.keys) {
			return false
		}
		for i, k := range a.keys {
			bv := b.get(k)
			if bv == nil || !a.vals[i].equal(bv) {
				return false
			}
		}
		return true
	case 'a':
		if len(a.vals) != len(b.vals) {
			return false
		}
		for i := range a.vals {
			if !a.vals[i].equal(b.vals[i]) {
				return false
			}
		}
		return true
	case 'n':
		if a.str == b.str {
			return true
		}
		x, err1 := strconv.ParseFloat(a.str, 64)
		y, err2 := strconv.ParseFloat(b.str, 64)
		return err1 == nil && err2 == nil && x == y
	}
	return a.str == b.str
}

// clone is a deep copy.
func (n *node) clone() *node {
	c := &node{kind: n.kind, str: n.str, keys: append([]string(nil), n.keys...)}
	for _, v := range n.vals {
		c.vals = append(c.vals, v.clone())
	}
	return c
}

// encode writes n; indent > 0 writes one value a line, each level indented
// by indent spaces more (the tax files use 1), as Python's json module
// does, and 0 writes it compact.
func (n *node) encode(b *bytes.Buffer, indent, depth int) {
	nl := func(d int) {
		if indent > 0 {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent*d))
		}
	}
	switch n.kind {
	case 'o', 'a':
		open, shut := byte('{'), byte('}')
		if n.kind == 'a' {
			open, shut = '[', ']'
		}
		b.WriteByte(open)
		if len(n.vals) == 0 {
			b.WriteByte(shut)
			return
		}
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			if n.kind == 'o' {
				writeString(b, n.keys[i])
				b.WriteByte(':')
				if indent > 0 {
					b.WriteByte(' ')
				}
			}
			v.encode(b, indent, depth+1)
		}
		nl(depth)
		b.WriteByte(shut)
	case 's':
		writeString(b, n.str)
	case 'n':
		b.WriteString(n.str)
	case 't':
		b.WriteString("true")
	case 'f':
		b.WriteString("false")
	default:
		b.WriteString("null")
	}
}

// writeString writes s as a JSON string, escaping only what JSON requires
// (the files keep their accents and symbols as written).
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// compact is n written without spaces, for decoding into a struct.
func (n *node) compact() []byte {
	var b bytes.Buffer
	n.encode(&b, 0, 0)
	return b.Bytes()
}
