package schema

import (
	"math"

	"fiplan/handlers/jsonw"
)

// appendObjectSchema writes the JSON Schema (2020-12) of o, every nested
// object inline, so that the schema stands alone.
func appendObjectSchema(dst []byte, o *object) []byte {
	w := schemaWriter{Writer: jsonw.Writer{B: dst}}
	w.object(o)
	return w.B
}

// schemaWriter writes JSON Schemas. With ref set, a nested object that
// ref names is written as a reference to it instead of inline.
type schemaWriter struct {
	jsonw.Writer
	ref func(*object) string
}

func (w *schemaWriter) object(o *object) { writeObject(w, o, "", false) }

// writeNested writes the schema of a field holding object o: a reference
// when w.ref names o (nullable as anyOf with null, described beside the
// reference), else the object inline.
func writeNested(w *schemaWriter, o *object, doc string, nullable bool) {
	ref := ""
	if w.ref != nil {
		ref = w.ref(o)
	}
	if ref == "" {
		writeObject(w, o, doc, nullable)
		return
	}
	w.Begin()
	if nullable {
		w.Key("anyOf")
		w.BeginArray()
		w.Begin()
		w.Key("$ref")
		w.String(ref)
		w.End()
		w.Begin()
		w.Key("type")
		w.String("null")
		w.End()
		w.EndArray()
	} else {
		w.Key("$ref")
		w.String(ref)
	}
	if doc != "" {
		w.Key("description")
		w.String(doc)
	}
	w.End()
}

func writeObject(w *schemaWriter, o *object, doc string, nullable bool) {
	w.Begin()
	writeType(w, "object", nullable)
	if doc != "" {
		w.Key("description")
		w.String(doc)
	}
	w.Key("additionalProperties")
	w.Bool(false)
	w.Key("properties")
	w.Begin()
	for i := range o.fields {
		f := &o.fields[i]
		w.Key(f.name)
		writeField(w, f)
	}
	w.End()
	n := 0
	for i := range o.fields {
		if o.fields[i].required {
			if n == 0 {
				w.Key("required")
				w.BeginArray()
			}
			w.String(o.fields[i].name)
			n++
		}
	}
	if n > 0 {
		w.EndArray()
	}
	w.End()
}

func writeType(w *schemaWriter, t string, nullable bool) {
	w.Key("type")
	if nullable {
		w.BeginArray()
		w.String(t)
		w.String("null")
		w.EndArray()
		return
	}
	w.String(t)
}

func writeField(w *schemaWriter, f *field) {
	switch f.kind {
	case kObject:
		if f.orNumber {
			w.Begin()
			if f.doc != "" {
				w.Key("description")
				w.String(f.doc)
			}
			w.Key("oneOf")
			w.BeginArray()
			w.Begin()
			writeType(w, "number", false)
			w.Key("format")
			w.String("double")
			w.End()
			writeNested(w, f.obj, "", false)
			w.EndArray()
			w.End()
			return
		}
		writeNested(w, f.obj, f.doc, f.nullable)
		return
	case kArray:
		writeArray(w, f)
		return
	case kName:
		writeNameOrList(w, f)
		return
	}
	w.Begin()
	writeType(w, kindNames[f.kind], f.nullable)
	if f.doc != "" {
		w.Key("description")
		w.String(f.doc)
	}
	if format := formatOf(f); format != "" {
		w.Key("format")
		w.String(format)
	}
	if f.hasMin {
		if f.xmin {
			w.Key("exclusiveMinimum")
		} else {
			w.Key("minimum")
		}
		w.Float(f.min)
	}
	if f.hasMax {
		if f.xmax {
			w.Key("exclusiveMaximum")
		} else {
			w.Key("maximum")
		}
		w.Float(f.max)
	}
	writeLimits(w, f)
	w.End()
}

// writeArray writes the schema of an array field.
func writeArray(w *schemaWriter, f *field) {
	w.Begin()
	writeType(w, "array", f.nullable)
	if f.doc != "" {
		w.Key("description")
		w.String(f.doc)
	}
	w.Key("items")
	writeField(w, f.elem)
	if f.minItems > 0 {
		w.Key("minItems")
		w.Int(int64(f.minItems))
	}
	if f.maxItems >= 0 {
		w.Key("maxItems")
		w.Int(int64(f.maxItems))
	}
	w.End()
}

// writeLimits writes a scalar field's length bounds, enum and default.
func writeLimits(w *schemaWriter, f *field) {
	if f.minLen >= 0 {
		w.Key("minLength")
		w.Int(int64(f.minLen))
	}
	if f.maxLen >= 0 {
		w.Key("maxLength")
		w.Int(int64(f.maxLen))
	}
	if f.enum != nil {
		w.Key("enum")
		w.BeginArray()
		for _, v := range f.enum {
			w.String(v)
		}
		if f.nullable {
			w.Null()
		}
		w.EndArray()
	}
	if f.hasDef {
		w.Key("default")
		switch f.kind {
		case kNumber, kInteger:
			w.Float(f.defNum)
		case kString:
			w.String(f.defStr)
		case kBool:
			w.Bool(f.defB)
		}
	}
}

// formatOf is the format a field's schema states: a named check, or the
// storage of a number, so that code generators pick a type that holds every
// value (a bare JSON Schema number becomes a 32-bit float in some, which
// loses cents above 167,772.16).
func formatOf(f *field) string {
	switch {
	case f.format != "":
		return f.format
	case f.kind == kTime:
		return "date-time"
	case f.kind == kNumber:
		return "double"
	case f.kind == kInteger:
		if f.hasMin && f.hasMax && f.min >= math.MinInt32 && f.max <= math.MaxInt32 {
			return "int32"
		}
		return "int64"
	}
	return ""
}

// writeNameOrList writes a NameOrList: one name (the field's enum) or an
// array of strings.
func writeNameOrList(w *schemaWriter, f *field) {
	w.Begin()
	if f.doc != "" {
		w.Key("description")
		w.String(f.doc)
	}
	w.Key("oneOf")
	w.BeginArray()
	w.Begin()
	writeType(w, "string", false)
	if f.enum != nil {
		w.Key("enum")
		w.BeginArray()
		for _, v := range f.enum {
			w.String(v)
		}
		w.EndArray()
	}
	w.End()
	w.Begin()
	writeType(w, "array", false)
	w.Key("items")
	w.Begin()
	writeType(w, "string", false)
	if f.maxLen >= 0 {
		w.Key("maxLength")
		w.Int(int64(f.maxLen))
	}
	w.End()
	if f.maxItems >= 0 {
		w.Key("maxItems")
		w.Int(int64(f.maxItems))
	}
	w.End()
	w.EndArray()
	w.End()
}
