package tax

import "reflect"

// handledFields lists, for each type a rule is made of, the fields the
// compiler translates (or that only the walker's breakdown and the data's
// checks read: labels, ids, sources, bounds). A field not listed that is
// set in a rule is a construct the compiler does not know: the rule's
// view is evaluated by the walker (see unhandled).
var handledFields = map[reflect.Type]map[string]bool{
	reflect.TypeFor[Rule](): set("When", "PerEarner", "ID", "Label", "Category", "Regions", "ExceptRegions",
		"Layers", "Deductions", "Credits", "Exempt", "ReliefAbove", "ReliefRate", "HasRelief", "RoundBase",
		"RoundTax", "MinTax", "Sources", "maxRate", "reads", "idleable", "exemptCls", "reliefCls", "minTaxCls",
		"classes"),
	reflect.TypeFor[Layer](): set("When", "ID", "Label", "Base", "Bands", "NilRate", "NilLabel", "Buckets",
		"Exempt", "nilCls", "exemptCls"),
	reflect.TypeFor[Band]():    set("From", "Rate", "Label", "Formula", "cls"),
	reflect.TypeFor[Formula](): set("Y0", "Div", "A", "B", "C"),
	reflect.TypeFor[Measure](): set("On", "Parts", "Refs", "nparts", "idx", "weights"),
	reflect.TypeFor[Ref]():     set("Rule", "Layer", "What", "Weight"),
	reflect.TypeFor[Adjust](): set("When", "Label", "Of", "Segments", "Min", "Max", "HasMax", "MaxLess", "Less",
		"Round", "CapAtBase", "Layer", "Spill", "PerPerson", "PerMinAge", "Pooled", "Gate", "GateBelow", "Sources", "minCls", "maxCls", "gateCls"),
	reflect.TypeFor[Segment]():  set("From", "Base", "Rate", "fromCls", "baseCls"),
	reflect.TypeFor[Rounding](): set("Mode", "Unit"),
	reflect.TypeFor[Bucket]():   set("From", "To", "Width"),
	reflect.TypeFor[Source]():   set("Doc", "Section"),
	// a condition is decided per kind of return by filer.holds itself,
	// whatever it holds
	reflect.TypeFor[Condition](): nil,
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// unhandled names the first construct of rule r the compiler does not
// know ("" when it knows them all): a field set in the rule, or in
// anything the rule holds, that handledFields does not list. A rule
// evaluated through values the compiler does not read (a Ref's What, a
// Measure's On beyond those known) counts too.
func unhandled(r *Rule) string {
	if why := unknownIn(reflect.ValueOf(r).Elem(), "Rule"); why != "" {
		return why
	}
	known := func(m *Measure) bool {
		if m == nil {
			return true
		}
		if m.On > OnTax {
			return false
		}
		for _, rf := range m.Refs {
			if rf.What < RefAmount || rf.What > RefDeducted || rf.Layer >= MaxLayers {
				return false
			}
		}
		return true
	}
	for li := range r.Layers {
		if !known(&r.Layers[li].Base) {
			return "a layer's base reads a value the compiler does not know"
		}
	}
	for _, as := range [2][]Adjust{r.Deductions, r.Credits} {
		for k := range as {
			if a := &as[k]; !known(&a.Of) || !known(a.Less) || !known(a.MaxLess) || !known(a.Gate) || a.Round.Mode > RoundNearest {
				return "an adjustment reads a value the compiler does not know"
			}
		}
	}
	if r.RoundBase.Mode > RoundNearest || r.RoundTax.Mode > RoundNearest {
		return "a rounding mode the compiler does not know"
	}
	return ""
}

// unknownIn is the path of the first field set in v (a struct of type
// name) that handledFields does not list, recursing into the listed
// fields of listed types.
func unknownIn(v reflect.Value, name string) string {
	known, listed := handledFields[v.Type()]
	if !listed {
		if v.IsZero() {
			return ""
		}
		return name
	}
	if known == nil {
		return ""
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		path := name + "." + f.Name
		if !known[f.Name] {
			if !fv.IsZero() {
				return path
			}
			continue
		}
		if why := unknownInValue(fv, path); why != "" {
			return why
		}
	}
	return ""
}

// unknownInValue is unknownIn through pointers, slices and arrays; other
// values (numbers, strings, maps of known fields) are known.
func unknownInValue(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return unknownInValue(v.Elem(), path)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Struct && v.Type().Elem().Kind() != reflect.Pointer {
			return ""
		}
		for i := 0; i < v.Len(); i++ {
			if why := unknownInValue(v.Index(i), path); why != "" {
				return why
			}
		}
		return ""
	case reflect.Struct:
		return unknownIn(v, path)
	}
	return ""
}
