// Package schema declares request and response bodies once, as Go structs
// with constraint tags, and derives from that one declaration both a
// compiled, allocation-light validating decoder and the JSON Schema
// (2020-12, as OpenAPI 3.1 uses it) that documents the body. The two cannot
// drift because neither is written by hand.
//
// A declaration:
//
//	type Request struct {
//		CurrentAge float64  `json:"currentAge" schema:"required,min=18,max=100" doc:"Age today."`
//		Strategy   string   `json:"strategy" schema:"enum=constant|percent,default=constant"`
//		Holdings   []Holding `json:"holdings" schema:"minItems=1,maxItems=200"`
//	}
//
// Tag options, comma separated:
//
//	required            the field must be present (absent: MISSING_FIELD)
//	nullable            JSON null is accepted and leaves the zero value
//	min=X, max=X        inclusive numeric bounds
//	xmin=X, xmax=X      exclusive numeric bounds
//	minLen=N, maxLen=N  string length in characters (code points)
//	enum=a|b|c          allowed string values; enum=@name uses a list
//	                    the Vocabulary defines
//	minItems, maxItems  array length bounds (other options apply to items)
//	default=V           value the field holds when absent (documented too);
//	                    on a pointer field, documentation of the caller's
//	                    default (the field stays nil when absent)
//	format=NAME         a named check the Vocabulary defines
//	orNumber            an object field documented as the object or a
//	                    number (oneOf): an answer's field whose simpler
//	                    form is a number (its type marshals itself)
//
// Every number field must declare both bounds, so absurd values such as
// 1e308 are always rejected with a field-level message instead of leaking
// into arithmetic. Supported Go types: float64, int, int64, string, bool,
// time.Time (RFC 3339 string), structs (embedded structs are flattened),
// pointers to those (nil when absent) and slices of those.
//
// Decoding is strict: wrong JSON types, out-of-range values, unknown or
// duplicated fields, and strings holding U+0000 (no text a person writes
// holds one, and PostgreSQL's text refuses it) are reported per field with
// a JSON path such as holdings[2].value. A body that is not one well-formed JSON value (empty,
// trailing garbage, invalid UTF-8, nesting deeper than MaxDepth) is
// INVALID_JSON.
package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// MsgRequired is the detail message of a required field left out.
const MsgRequired = "is required"

// MsgNUL is the detail message of a string that holds U+0000.
const MsgNUL = "must not contain the NUL character (U+0000)"

// MaxDepth bounds the nesting of any JSON body, known fields or not.
const MaxDepth = 32

// MaxDetails bounds how many field errors one response reports.
const MaxDetails = 50

type kind uint8

const (
	kNumber kind = iota + 1
	kInteger
	kString
	kBool
	kTime
	kObject
	kArray
	kRaw  // a RawObject
	kName // a NameOrList
)

var kindNames = [...]string{kNumber: "number", kInteger: "integer", kString: "string", kBool: "boolean", kTime: "string", kObject: "object", kArray: "array", kRaw: "object", kName: "string"}

// RawObject is a JSON object a declaration keeps as it was sent, byte for
// byte: decoding checks only that it is one well-formed object, and the
// document calls it an object. Its owner validates what it holds (a
// stored request body, for instance, by that request's own declaration).
type RawObject []byte

// MarshalJSON writes the object as it is; null when empty.
func (r RawObject) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of b.
func (r *RawObject) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

var rawObjectType = reflect.TypeFor[RawObject]()

// NameOrList is a field that holds either one name (a JSON string, checked
// against the field's enum) or a list of names (a JSON array of strings,
// at most maxItems, each at most maxLen characters): a withdrawal order
// named, or spelt out account by account. The document gives both forms
// (oneOf).
type NameOrList struct {
	Name string   // the string sent; "" when a list was
	List []string // the list sent; nil when a string was
}

var nameOrListType = reflect.TypeFor[NameOrList]()

type field struct {
	name     string
	doc      string
	kind     kind
	gokind   reflect.Kind // storage of scalars: Float64, Int, Int64, String, Bool
	offset   uintptr
	ptr      reflect.Type // non-nil: stored behind a pointer to this type
	required bool
	nullable bool
	orNumber bool // an object that may also be a number (answers only)

	hasMin, hasMax, xmin, xmax bool
	min, max                   float64
	minLen, maxLen             int // -1: unset

	enum   []string
	format string
	check  func(string) string

	hasDef bool
	defNum float64
	defStr string
	defB   bool

	obj *object // kObject, or the element object of an array

	// kArray
	elem     *field
	slice    reflect.Type
	minItems int
	maxItems int // -1: unset
}

type object struct {
	typ    reflect.Type
	fields []field
	strict bool // compiled for decoding requests (Compile), not CompileDoc
}

// Schema is the compiled declaration of T.
type Schema[T any] struct {
	root    *object
	doc     []byte
	docOnly bool
}

// Vocabulary holds the named lists and checks that declarations refer to
// with enum=@name and format=name. The server owns one and fills it at
// start-up, before compiling the schemas that use it; naming an entry
// twice is an error, so one name can never mean two things.
type Vocabulary struct {
	enums   map[string][]string
	formats map[string]func(string) string
	err     error
}

// NewVocabulary returns an empty vocabulary.
func NewVocabulary() *Vocabulary {
	return &Vocabulary{enums: map[string][]string{}, formats: map[string]func(string) string{}}
}

// Enum adds a named list of allowed values, so that a tag "enum=@name"
// uses the list its owner exports instead of repeating it.
func (v *Vocabulary) Enum(name string, values []string) *Vocabulary {
	switch {
	case v.enums[name] != nil:
		v.fail(fmt.Errorf("cannot add enum %q: it is already defined", name))
	case len(values) == 0:
		v.fail(fmt.Errorf("cannot add enum %q: it has no values", name))
	default:
		v.enums[name] = slices.Clone(values)
	}
	return v
}

// Format adds a named string check: it returns "" for a valid value or the
// message to report.
func (v *Vocabulary) Format(name string, check func(string) string) *Vocabulary {
	if v.formats[name] != nil {
		v.fail(fmt.Errorf("cannot add format %q: it is already defined", name))
	} else {
		v.formats[name] = check
	}
	return v
}

func (v *Vocabulary) fail(err error) {
	if v.err == nil {
		v.err = err
	}
}

// Err reports the first mistake made while filling v.
func (v *Vocabulary) Err() error { return v.err }

// Compile compiles the request declaration T against v. A malformed
// declaration or a name v does not define is an error, found at start-up.
func Compile[T any](v *Vocabulary) (s *Schema[T], err error) {
	return compile[T](v, true)
}

// CompileDoc compiles the response declaration T against v, for
// documentation and response checks only: bounds are optional there, and
// the result must not be used to decode.
func CompileDoc[T any](v *Vocabulary) (s *Schema[T], err error) {
	return compile[T](v, false)
}

func compile[T any](v *Vocabulary, strict bool) (s *Schema[T], err error) {
	if v.err != nil {
		return nil, v.err
	}
	var zero T
	t := reflect.TypeOf(zero)
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("cannot compile schema of %v: %v", t, p)
		}
	}()
	if t == nil || t.Kind() != reflect.Struct {
		panic("not a struct")
	}
	s = &Schema[T]{root: (&compiler{seen: map[reflect.Type]bool{}, strict: strict, vocab: v}).object(t)}
	s.doc = appendObjectSchema(nil, s.root)
	s.docOnly = !strict
	return s, nil
}

// New compiles a declaration that names no vocabulary entries. It panics
// on a malformed declaration: declarations are program text, and a test
// that calls New finds the mistake.
func New[T any]() *Schema[T] {
	s, err := Compile[T](NewVocabulary())
	if err != nil {
		panic(err)
	}
	return s
}

// Doc is CompileDoc against an empty vocabulary, panicking on a mistake.
func Doc[T any]() *Schema[T] {
	s, err := CompileDoc[T](NewVocabulary())
	if err != nil {
		panic(err)
	}
	return s
}

type compiler struct {
	seen   map[reflect.Type]bool
	strict bool // demand the bounds that decoding relies on
	vocab  *Vocabulary
}

// JSONSchema returns the JSON Schema of the body, built once.
func (s *Schema[T]) JSONSchema() []byte { return s.doc }

// Fields lists the top-level JSON field names, in declaration order.
func (s *Schema[T]) Fields() []string {
	names := make([]string, len(s.root.fields))
	for i := range s.root.fields {
		names[i] = s.root.fields[i].name
	}
	return names
}

// Reset sets every field of dst to its declared default or zero value,
// keeping the capacity of slices so that a pooled dst decodes without
// allocating.
func (s *Schema[T]) Reset(dst *T) { resetObject(s.root, unsafe.Pointer(dst)) }

// Decode resets dst, then decodes and validates body into it. It reports
// success; on failure r holds the code, the message and the details.
func (s *Schema[T]) Decode(body []byte, dst *T, r *Result) bool {
	if s.docOnly {
		panic("schema: Decode on a documentation-only schema")
	}
	r.Reset()
	resetObject(s.root, unsafe.Pointer(dst))
	d := decoder{b: body, r: r, path: r.path[:0]}
	d.run(s.root, unsafe.Pointer(dst))
	r.path = d.path
	return r.Code == ""
}

var timeType = reflect.TypeOf(time.Time{})

func (c *compiler) object(t reflect.Type) *object {
	seen := c.seen
	if seen[t] {
		panic(fmt.Sprintf("schema: %v is recursive", t))
	}
	seen[t] = true
	defer delete(seen, t)
	o := &object{typ: t, strict: c.strict}
	c.fields(o, t, 0)
	if len(o.fields) > 64 {
		panic(fmt.Sprintf("schema: %v has more than 64 fields", t))
	}
	names := map[string]bool{}
	for _, f := range o.fields {
		if names[f.name] {
			panic(fmt.Sprintf("schema: %v declares %q twice", t, f.name))
		}
		names[f.name] = true
	}
	return o
}

func (c *compiler) fields(o *object, t reflect.Type, base uintptr) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct && sf.Tag.Get("json") == "" {
			c.fields(o, sf.Type, base+sf.Offset)
			continue
		}
		if sf.Anonymous && !c.strict && sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct && sf.Tag.Get("json") == "" {
			// An answer's embedded pointer: its members are written when it
			// is set, all or none, so each is documented and optional. An
			// answer is never decoded through its declaration.
			n := len(o.fields)
			c.fields(o, sf.Type.Elem(), 0)
			for k := n; k < len(o.fields); k++ {
				o.fields[k].required = false
			}
			continue
		}
		name, jsonOpts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || !sf.IsExported() {
			continue
		}
		if name == "" {
			panic(fmt.Sprintf("schema: %v.%s has no json name", t, sf.Name))
		}
		f := c.field(t, sf.Name, sf.Type, sf.Tag.Get("schema"))
		f.name = name
		if !c.strict && !strings.Contains(jsonOpts, "omitempty") && !strings.Contains(jsonOpts, "omitzero") {
			// A response always writes a field it declares without
			// omitempty or omitzero (as null when nullable), so its
			// schema requires it.
			f.required = true
		}
		f.doc = sf.Tag.Get("doc")
		f.offset = base + sf.Offset
		o.fields = append(o.fields, f)
	}
}

func (c *compiler) field(owner reflect.Type, goName string, t reflect.Type, tag string) field {
	where := owner.String() + "." + goName
	f := field{minLen: -1, maxLen: -1, maxItems: -1}
	opts := parseTag(where, tag)
	f.required = opts.flag("required")
	f.nullable = opts.flag("nullable")
	f.orNumber = opts.flag("orNumber")
	if t.Kind() == reflect.Slice && t != rawObjectType {
		f.kind = kArray
		f.slice = t
		elem := field{minLen: -1, maxLen: -1, maxItems: -1}
		c.setKind(where, &elem, t.Elem())
		if elem.ptr != nil {
			panic("schema: " + where + ": slices hold structs or scalars, not pointers")
		}
		f.elem = &elem
		f.obj = elem.obj
		if v, ok := opts.take("minItems"); ok {
			f.minItems = atoi(where, v)
		}
		if v, ok := opts.take("maxItems"); ok {
			f.maxItems = atoi(where, v)
		} else if c.strict {
			panic("schema: " + where + ": arrays must declare maxItems")
		}
		c.applyScalar(where, f.elem, opts)
	} else {
		c.setKind(where, &f, t)
		if v, ok := opts.take("maxItems"); ok && f.kind == kName {
			f.maxItems = atoi(where, v)
		}
		c.applyScalar(where, &f, opts)
	}
	opts.done(where)
	return f
}

// setKind records how a value of Go type t is stored and checked.
func (c *compiler) setKind(where string, f *field, t reflect.Type) {
	if t.Kind() == reflect.Pointer {
		f.ptr = t.Elem()
		t = t.Elem()
	}
	switch {
	case t == timeType:
		f.kind = kTime
	case t == rawObjectType:
		f.kind = kRaw
	case t == nameOrListType:
		f.kind = kName
	case t.Kind() == reflect.Struct:
		f.kind = kObject
		f.obj = c.object(t)
	case t.Kind() == reflect.Float64:
		f.kind = kNumber
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		f.kind = kInteger
	case t.Kind() == reflect.String:
		f.kind = kString
	case t.Kind() == reflect.Bool:
		f.kind = kBool
	default:
		panic(fmt.Sprintf("schema: %s: unsupported type %v", where, t))
	}
	f.gokind = t.Kind()
}

// applyScalar moves the scalar options from opts onto f.
func (c *compiler) applyScalar(where string, f *field, opts tagOpts) {
	num := func(k string) (float64, bool) {
		v, ok := opts.take(k)
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(fmt.Sprintf("schema: %s: %s=%q is not a number", where, k, v))
		}
		return x, true
	}
	if v, ok := num("min"); ok {
		f.min, f.hasMin = v, true
	}
	if v, ok := num("xmin"); ok {
		f.min, f.hasMin, f.xmin = v, true, true
	}
	if v, ok := num("max"); ok {
		f.max, f.hasMax = v, true
	}
	if v, ok := num("xmax"); ok {
		f.max, f.hasMax, f.xmax = v, true, true
	}
	if v, ok := opts.take("minLen"); ok {
		f.minLen = atoi(where, v)
	}
	if v, ok := opts.take("maxLen"); ok {
		f.maxLen = atoi(where, v)
	}
	if v, ok := opts.take("enum"); ok {
		if name, ok := strings.CutPrefix(v, "@"); ok {
			f.enum = c.vocab.enums[name]
			if len(f.enum) == 0 {
				panic(fmt.Sprintf("schema: %s: unknown enum %q", where, name))
			}
		} else {
			f.enum = strings.Split(v, "|")
		}
	}
	if v, ok := opts.take("format"); ok {
		f.check = c.vocab.formats[v]
		if f.check == nil {
			panic(fmt.Sprintf("schema: %s: unknown format %q", where, v))
		}
		f.format = v
	}
	if v, ok := opts.take("default"); ok {
		applyDefault(where, f, v)
	}
	if c.strict {
		checkStrict(where, f)
	}
}

// applyDefault sets f's default from its tag value v. On a pointer field
// the default is documentation only: decoding leaves the field nil, and
// the caller applies its own default.
func applyDefault(where string, f *field, v string) {
	f.hasDef = true
	switch f.kind {
	case kNumber, kInteger:
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(fmt.Sprintf("schema: %s: default %q is not a number", where, v))
		}
		f.defNum = x
	case kString:
		f.defStr = v
	case kBool:
		f.defB = v == "true"
	default:
		panic("schema: " + where + ": default is for scalars")
	}
}

// checkStrict enforces what a strict schema requires of a scalar: numbers
// bounded on both sides, strings bounded in length or enumerated, and a
// default the field itself accepts.
func checkStrict(where string, f *field) {
	switch f.kind {
	case kNumber, kInteger:
		if !f.hasMin || !f.hasMax {
			panic("schema: " + where + ": numbers must declare both bounds")
		}
		if f.hasDef && msgRange(f, f.defNum) != "" {
			panic("schema: " + where + ": default is out of range")
		}
	case kString:
		if f.maxLen < 0 && f.enum == nil {
			panic("schema: " + where + ": strings must declare maxLen or enum")
		}
		if f.enum != nil && f.hasDef && !contains(f.enum, f.defStr) {
			panic("schema: " + where + ": default is not in enum")
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func atoi(where, v string) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		panic(fmt.Sprintf("schema: %s: %q is not a count", where, v))
	}
	return n
}

type tagOpts map[string]string

func parseTag(where, tag string) tagOpts {
	opts := tagOpts{}
	if tag == "" {
		return opts
	}
	for _, part := range strings.Split(tag, ",") {
		k, v, _ := strings.Cut(part, "=")
		if _, dup := opts[k]; dup {
			panic("schema: " + where + ": option " + k + " given twice")
		}
		opts[k] = v
	}
	return opts
}

func (o tagOpts) take(k string) (string, bool) {
	v, ok := o[k]
	delete(o, k)
	return v, ok
}

func (o tagOpts) flag(k string) bool {
	_, ok := o.take(k)
	return ok
}

func (o tagOpts) done(where string) {
	for k := range o {
		panic("schema: " + where + ": unknown option " + k)
	}
}

// resetObject writes defaults or zero values into every field at base.
func resetObject(o *object, base unsafe.Pointer) {
	for i := range o.fields {
		f := &o.fields[i]
		p := unsafe.Add(base, f.offset)
		if f.ptr != nil {
			*(*unsafe.Pointer)(p) = nil
			continue
		}
		switch f.kind {
		case kArray:
			reflect.NewAt(f.slice, p).Elem().SetLen(0)
		case kObject:
			resetObject(f.obj, p)
		case kTime:
			*(*time.Time)(p) = time.Time{}
		case kRaw:
			*(*RawObject)(p) = nil
		case kName:
			*(*NameOrList)(p) = NameOrList{}
		default:
			setScalarDefault(f, p)
		}
	}
}

func setScalarDefault(f *field, p unsafe.Pointer) {
	switch f.gokind {
	case reflect.Float64:
		*(*float64)(p) = f.defNum
	case reflect.Int:
		*(*int)(p) = int(f.defNum)
	case reflect.Int64:
		*(*int64)(p) = int64(f.defNum)
	case reflect.String:
		*(*string)(p) = f.defStr
	case reflect.Bool:
		*(*bool)(p) = f.defB
	}
}
