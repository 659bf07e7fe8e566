package schema

import "fiplan/handlers/jsonw"

// appendObjectSchema writes the JSON Schema (2020-12) of o.
func appendObjectSchema(dst []byte, o *object) []byte {
	w := jsonw.Writer{B: dst}
	writeObject(&w, o, "", false)
	return w.B
}

func writeObject(w *jsonw.Writer, o *object, doc string, nullable bool) {
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

func writeType(w *jsonw.Writer, t string, nullable bool) {
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

func writeField(w *jsonw.Writer, f *field) {
	switch f.kind {
	case kObject:
		writeObject(w, f.obj, f.doc, f.nullable)
		return
	case kArray:
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
		return
	}
	w.Begin()
	writeType(w, kindNames[f.kind], f.nullable)
	if f.doc != "" {
		w.Key("description")
		w.String(f.doc)
	}
	if f.kind == kTime {
		w.Key("format")
		w.String("date-time")
	}
	if f.format != "" {
		w.Key("format")
		w.String(f.format)
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
	w.End()
}
