package schema

import (
	"strconv"
	"unsafe"
)

// nameOrList decodes a NameOrList: a string checked as a string field, or
// an array of strings, each checked for its length, at most maxItems.
func (d *decoder) nameOrList(f *field, v *NameOrList, c byte) {
	*v = NameOrList{}
	switch c {
	case '"':
		if s, ok := d.str(false); ok {
			d.setString(f, unsafe.Pointer(&v.Name), s)
		}
		return
	case '[':
	default:
		d.mismatch(f)
		return
	}
	d.i++
	v.List = []string{}
	item := *f
	item.enum = nil
	for n := 0; ; n++ {
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' && n == 0 {
			d.i++
			return
		}
		if d.i >= len(d.b) {
			d.syntax("unterminated array")
			return
		}
		if d.b[d.i] != '"' {
			d.mismatch(f) // reported for the field, the value skipped
		} else if s, ok := d.str(false); ok {
			d.nameAt(f, &item, v, n, s)
		}
		if d.bad {
			return
		}
		d.ws()
		switch {
		case d.i >= len(d.b):
			d.syntax("unterminated array")
			return
		case d.b[d.i] == ',':
			d.i++
		case d.b[d.i] == ']':
			d.i++
			return
		default:
			d.syntax("expected , or ] in an array")
			return
		}
	}
}

// nameAt checks and keeps the list's name s at index n.
func (d *decoder) nameAt(f, item *field, v *NameOrList, n int, s []byte) {
	if f.maxItems >= 0 && n >= f.maxItems {
		if n == f.maxItems {
			d.fail("must hold at most " + strconv.Itoa(f.maxItems) + " names")
		}
		return
	}
	mark := d.pushIndex(n)
	var name string
	d.setString(item, unsafe.Pointer(&name), s)
	d.path = d.path[:mark]
	v.List = append(v.List, name)
}
