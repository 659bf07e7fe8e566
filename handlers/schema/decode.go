package schema

import (
	"reflect"
	"strconv"
	"unsafe"

	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
)

// Detail is one failing field.
type Detail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Result receives the outcome of Decode. Keep one per request (pooled with
// the request) so that its buffers are reused.
type Result struct {
	Code    string // "" when the body was accepted
	Error   string // human-readable summary
	Details []Detail

	path    []byte
	failed  bool
	missing string
	scratch []byte
}

// Reset clears r, keeping its buffers.
func (r *Result) Reset() {
	r.Code, r.Error, r.missing, r.failed = "", "", "", false
	r.Details = r.Details[:0]
	r.path = r.path[:0]
}

type decoder struct {
	b     []byte
	i     int
	r     *Result
	path  []byte
	depth int
	bad   bool // a syntax error was found: stop
}

func (d *decoder) run(root *object, base unsafe.Pointer) {
	d.ws()
	if d.i >= len(d.b) {
		d.syntax("request body is empty")
		return
	}
	if d.b[d.i] != '{' {
		d.fail("must be a JSON object")
		d.skip()
	} else {
		d.object(root, base)
	}
	if d.bad {
		return
	}
	d.ws()
	if d.i < len(d.b) {
		d.syntax("unexpected data after the JSON value")
		return
	}
	switch {
	case d.r.missing != "":
		d.r.Code = errcode.Missing
		d.r.Error = "missing required field: " + d.r.missing
	case d.r.failed:
		d.r.Code = errcode.Validation
		d.r.Error = "request body failed validation"
	}
}

func (d *decoder) syntax(msg string) {
	if d.bad {
		return
	}
	d.bad = true
	d.r.Code = errcode.InvalidJSON
	d.r.Details = d.r.Details[:0]
	d.r.missing = ""
	if d.i < len(d.b) && msg != "request body is empty" {
		msg += " at offset " + strconv.Itoa(d.i)
	}
	d.r.Error = "request body is not valid JSON: " + msg
}

// fail records a validation error at the current path.
func (d *decoder) fail(msg string) {
	d.r.failed = true
	if len(d.r.Details) < MaxDetails {
		d.r.Details = append(d.r.Details, Detail{Path: string(d.path), Message: msg})
	}
}

func (d *decoder) pushKey(name []byte) int {
	n := len(d.path)
	if n > 0 {
		d.path = append(d.path, '.')
	}
	d.path = append(d.path, name...)
	return n
}

func (d *decoder) pushIndex(i int) int {
	n := len(d.path)
	d.path = append(d.path, '[')
	d.path = strconv.AppendInt(d.path, int64(i), 10)
	d.path = append(d.path, ']')
	return n
}

// object decodes an object for o into base; d.b[d.i] is '{'.
func (d *decoder) object(o *object, base unsafe.Pointer) {
	if d.depth++; d.depth > MaxDepth {
		d.syntax("nesting is deeper than " + strconv.Itoa(MaxDepth))
		return
	}
	defer func() { d.depth-- }()
	d.i++
	var seen uint64
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
	} else {
		for {
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != '"' {
				d.syntax("expected a field name")
				return
			}
			key, ok := d.str(true)
			if !ok {
				return
			}
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				d.syntax("expected ':'")
				return
			}
			d.i++
			d.ws()
			mark := d.pushKey(key)
			idx := o.lookup(key)
			switch {
			case idx < 0:
				d.fail("unknown field")
				d.skip()
			case seen&(1<<idx) != 0:
				d.fail("duplicate field")
				d.skip()
			default:
				seen |= 1 << idx
				f := &o.fields[idx]
				d.value(f, unsafe.Add(base, f.offset))
			}
			d.path = d.path[:mark]
			if d.bad {
				return
			}
			d.ws()
			if d.i >= len(d.b) {
				d.syntax("unterminated object")
				return
			}
			if d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.b[d.i] == '}' {
				d.i++
				break
			}
			d.syntax("expected ',' or '}'")
			return
		}
	}
	for i := range o.fields {
		if f := &o.fields[i]; f.required && seen&(1<<i) == 0 {
			mark := d.pushKey(bytesconv.Bytes(f.name))
			d.fail(MsgRequired)
			if d.r.missing == "" {
				d.r.missing = string(d.path)
			}
			d.path = d.path[:mark]
		}
	}
}

func (o *object) lookup(key []byte) int {
	for i := range o.fields {
		if o.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

// value decodes one JSON value for f into p (the field's storage).
func (d *decoder) value(f *field, p unsafe.Pointer) {
	if d.i >= len(d.b) {
		d.syntax("unexpected end of input")
		return
	}
	c := d.b[d.i]
	if c == 'n' {
		if !d.literal("null") {
			return
		}
		if !f.nullable {
			d.fail("must be " + article(f))
		}
		return
	}
	if f.ptr != nil && f.kind != kArray {
		// Decode into a fresh value; attach it only when valid.
		v := reflect.New(f.ptr)
		q := v.UnsafePointer()
		if f.kind == kObject {
			resetObject(f.obj, q)
		}
		failed := d.r.failed
		d.r.failed = false
		d.direct(f, q, c)
		ok := !d.r.failed
		d.r.failed = d.r.failed || failed
		if !d.bad && ok {
			*(*unsafe.Pointer)(p) = q
		}
		return
	}
	d.direct(f, p, c)
}

func (d *decoder) direct(f *field, p unsafe.Pointer, c byte) {
	switch f.kind {
	case kObject:
		if c != '{' {
			d.mismatch(f)
			return
		}
		d.object(f.obj, p)
	case kArray:
		if c != '[' {
			d.mismatch(f)
			return
		}
		d.array(f, p)
	case kRaw:
		if c != '{' {
			d.mismatch(f)
			return
		}
		start := d.i
		d.skip()
		if !d.bad {
			*(*RawObject)(p) = append(RawObject(nil), d.b[start:d.i]...)
		}
	case kName:
		d.nameOrList(f, (*NameOrList)(p), c)
	case kString, kTime:
		if c != '"' {
			d.mismatch(f)
			return
		}
		s, ok := d.str(false)
		if !ok {
			return
		}
		d.setString(f, p, s)
	case kBool:
		switch c {
		case 't':
			if d.literal("true") {
				*(*bool)(p) = true
			}
		case 'f':
			if d.literal("false") {
				*(*bool)(p) = false
			}
		default:
			d.mismatch(f)
		}
	case kNumber, kInteger:
		if c != '-' && (c < '0' || c > '9') {
			d.mismatch(f)
			return
		}
		x, ok := d.number()
		if !ok {
			return
		}
		d.setNumber(f, p, x)
	}
}

func (d *decoder) array(f *field, p unsafe.Pointer) {
	if d.depth++; d.depth > MaxDepth {
		d.syntax("nesting is deeper than " + strconv.Itoa(MaxDepth))
		return
	}
	defer func() { d.depth-- }()
	d.i++
	sv := reflect.NewAt(f.slice, p).Elem()
	n := 0
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
	} else {
		for {
			d.ws()
			if f.maxItems >= 0 && n >= f.maxItems {
				d.skip() // counted, syntax-checked, not stored
			} else {
				mark := d.pushIndex(n)
				ep := grow(sv)
				if f.elem.kind == kObject {
					resetObject(f.elem.obj, ep)
				} else {
					setScalarDefault(f.elem, ep)
				}
				d.value(f.elem, ep)
				d.path = d.path[:mark]
			}
			n++
			if d.bad {
				return
			}
			d.ws()
			if d.i >= len(d.b) {
				d.syntax("unterminated array")
				return
			}
			if d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.b[d.i] == ']' {
				d.i++
				break
			}
			d.syntax("expected ',' or ']'")
			return
		}
	}
	if f.maxItems >= 0 && n > f.maxItems {
		d.fail("must have at most " + strconv.Itoa(f.maxItems) + " items")
	}
	if n < f.minItems {
		d.fail("must have at least " + strconv.Itoa(f.minItems) + " items")
	}
}

// grow extends the slice by one element, reusing capacity, and returns a
// pointer to the new element.
func grow(sv reflect.Value) unsafe.Pointer {
	n := sv.Len()
	if n == sv.Cap() {
		c := 2 * n
		if c < 4 {
			c = 4
		}
		ns := reflect.MakeSlice(sv.Type(), n, c)
		reflect.Copy(ns, sv)
		sv.Set(ns)
	}
	sv.SetLen(n + 1)
	return sv.Index(n).Addr().UnsafePointer()
}
