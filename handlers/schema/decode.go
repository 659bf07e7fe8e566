package schema

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
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

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
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

// mismatch reports a wrong JSON type and skips the value.
func (d *decoder) mismatch(f *field) {
	d.fail("must be " + article(f))
	d.skip()
}

func article(f *field) string {
	switch f.kind {
	case kInteger:
		return "an integer"
	case kObject, kRaw:
		return "an object"
	case kName:
		return "a string or an array of strings"
	case kArray:
		return "an array"
	case kTime:
		return "a date-time string (RFC 3339)"
	}
	return "a " + kindNames[f.kind]
}

func (d *decoder) setNumber(f *field, p unsafe.Pointer, x float64) {
	if msg := msgRange(f, x); msg != "" {
		d.fail(msg)
		return
	}
	if f.kind == kInteger && x != math.Trunc(x) {
		d.fail("must be an integer")
		return
	}
	switch f.gokind {
	case reflect.Float64:
		*(*float64)(p) = x
	case reflect.Int:
		*(*int)(p) = int(x)
	case reflect.Int64:
		*(*int64)(p) = int64(x)
	}
}

func msgRange(f *field, x float64) string {
	if math.IsInf(x, 0) {
		return "is out of range"
	}
	if f.hasMin && (x < f.min || f.xmin && x == f.min) {
		if f.xmin {
			return "must be greater than " + fmtNum(f.min)
		}
		return "must be at least " + fmtNum(f.min)
	}
	if f.hasMax && (x > f.max || f.xmax && x == f.max) {
		if f.xmax {
			return "must be less than " + fmtNum(f.max)
		}
		return "must be at most " + fmtNum(f.max)
	}
	return ""
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func (d *decoder) setString(f *field, p unsafe.Pointer, s []byte) {
	if f.kind == kTime {
		t, err := time.Parse(time.RFC3339, string(s))
		if err != nil {
			d.fail("must be a date-time string (RFC 3339)")
			return
		}
		*(*time.Time)(p) = t
		return
	}
	if bytes.IndexByte(s, 0) >= 0 {
		d.fail(MsgNUL)
		return
	}
	if f.enum != nil {
		for _, v := range f.enum {
			if v == string(s) {
				*(*string)(p) = v // the declaration's own string: no allocation
				return
			}
		}
		d.fail("must be one of: " + joinEnum(f.enum))
		return
	}
	n := utf8.RuneCount(s)
	if f.minLen >= 0 && n < f.minLen {
		if f.minLen == 1 {
			d.fail("must not be empty")
		} else {
			d.fail("must be at least " + strconv.Itoa(f.minLen) + " characters")
		}
		return
	}
	if f.maxLen >= 0 && n > f.maxLen {
		d.fail("must be at most " + strconv.Itoa(f.maxLen) + " characters")
		return
	}
	if f.check != nil {
		if msg := f.check(string(s)); msg != "" {
			d.fail(msg)
			return
		}
	}
	*(*string)(p) = string(s)
}

func joinEnum(list []string) string {
	n := 0
	for _, v := range list {
		n += len(v) + 2
	}
	b := make([]byte, 0, n)
	for i, v := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, v...)
	}
	return string(b)
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

func (d *decoder) literal(lit string) bool {
	if len(d.b)-d.i >= len(lit) && string(d.b[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	d.syntax("invalid literal")
	return false
}

// number scans a JSON number and parses it.
func (d *decoder) number() (float64, bool) {
	start := d.i
	b := d.b
	i := d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		d.i = i
		d.syntax("invalid number")
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.i = i
			d.syntax("invalid number")
			return 0, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.i = i
			d.syntax("invalid number")
			return 0, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	d.i = i
	x, err := strconv.ParseFloat(bytesconv.String(b[start:i]), 64)
	if err != nil && !math.IsInf(x, 0) {
		d.syntax("invalid number")
		return 0, false
	}
	return x, true // ±Inf (overflow) is reported by msgRange
}

// str scans a string at d.b[d.i] == '"' and returns its unescaped bytes,
// which alias either the body or a scratch buffer and are valid until the
// next call. key selects the scratch buffer kept for object keys.
func (d *decoder) str(key bool) ([]byte, bool) {
	d.i++
	start := d.i
	b := d.b
	for i := start; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			return b[start:i], true
		case c == '\\':
			return d.strSlow(start, i, key)
		case c < 0x20:
			d.i = i
			d.syntax("control character in string")
			return nil, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("invalid UTF-8")
				return nil, false
			}
			i += size
		}
	}
	d.i = len(b)
	d.syntax("unterminated string")
	return nil, false
}

func (d *decoder) strSlow(start, i int, key bool) ([]byte, bool) {
	b := d.b
	out := d.r.scratch[:0]
	if key {
		// Keys and values may be live at once: keep keys at the front of a
		// separate region by copying values after them.
		out = nil
	}
	out = append(out, b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			if !key {
				d.r.scratch = out
			}
			return out, true
		case c == '\\':
			var ok bool
			if out, i, ok = d.unescape(out, i); !ok {
				return nil, false
			}
		case c < 0x20:
			d.i = i
			d.syntax("control character in string")
			return nil, false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("invalid UTF-8")
				return nil, false
			}
			out = append(out, b[i:i+size]...)
			i += size
		}
	}
	d.i = len(b)
	d.syntax("unterminated string")
	return nil, false
}

// unescape appends the character of the escape at b[i] (a backslash) to
// out and returns out and the index after the escape; false after a
// syntax error.
func (d *decoder) unescape(out []byte, i int) ([]byte, int, bool) {
	b := d.b
	if i+1 >= len(b) {
		d.i = i
		d.syntax("unterminated string")
		return nil, 0, false
	}
	e := b[i+1]
	i += 2
	switch e {
	case '"', '\\', '/':
		out = append(out, e)
	case 'b':
		out = append(out, '\b')
	case 'f':
		out = append(out, '\f')
	case 'n':
		out = append(out, '\n')
	case 'r':
		out = append(out, '\r')
	case 't':
		out = append(out, '\t')
	case 'u':
		r, ok := hex4(b, i)
		if !ok {
			d.i = i
			d.syntax("invalid \\u escape")
			return nil, 0, false
		}
		i += 4
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if v, ok := hex4(b, i+2); ok {
					r2 = v
				}
			}
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				r = dec
				i += 6
			} else {
				r = utf8.RuneError
			}
		}
		out = utf8.AppendRune(out, r)
	default:
		d.i = i - 1
		d.syntax("invalid escape")
		return nil, 0, false
	}
	return out, i, true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip syntax-checks and passes over one value of any type.
func (d *decoder) skip() {
	d.ws()
	if d.i >= len(d.b) {
		d.syntax("unexpected end of input")
		return
	}
	switch c := d.b[d.i]; {
	case c == '{' || c == '[':
		if d.depth++; d.depth > MaxDepth {
			d.syntax("nesting is deeper than " + strconv.Itoa(MaxDepth))
			return
		}
		defer func() { d.depth-- }()
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == closer {
			d.i++
			return
		}
		for {
			d.ws()
			if c == '{' {
				if d.i >= len(d.b) || d.b[d.i] != '"' {
					d.syntax("expected a field name")
					return
				}
				if _, ok := d.str(true); !ok {
					return
				}
				d.ws()
				if d.i >= len(d.b) || d.b[d.i] != ':' {
					d.syntax("expected ':'")
					return
				}
				d.i++
			}
			d.skip()
			if d.bad {
				return
			}
			d.ws()
			if d.i < len(d.b) && d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.i < len(d.b) && d.b[d.i] == closer {
				d.i++
				return
			}
			d.syntax("expected ',' or '" + string(closer) + "'")
			return
		}
	case c == '"':
		d.str(false)
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	default:
		d.number()
	}
}

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
