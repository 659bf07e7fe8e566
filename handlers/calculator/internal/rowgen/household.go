package rowgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The household row: what a household plan adds to the one-pot row,
// written from compute/household's Row (x, row i of the result h) by the
// members of Row's declaration that carry a household tag, in declared
// order, nested objects and the account list included. The tag names the
// value and, after commas, when it is written:
//
//	household:"Short"              x.Short; "." is the enclosing value itself
//	household:"h.IDs[k]"           a value of the result h (k: the list index)
//	household:"Tax,if=taxed"       written only when the encoder's taxed is true
//	household:"Wealth,if=WealthOn" written only when the enclosing value's WealthOn is
//	household:"PartnerAge,nonneg"  written only when not negative (-1: absent)
//	household:"Health,nonzero"     written only when a member is not 0 to the cent
//	household:"h.Accounts(i),of=household.AccountYear"  a list, its elements a
//
// A float64 is written to the cent; one with omitempty in its JSON name is
// left out at 0 to the cent, a string with omitempty when empty, as
// encoding/json would leave out the declared value.
//
// The household CSV columns are the members with a csv tag, csv:"N" or
// csv:"N,name" (the JSON name by default): N is the column's place, 1, 2,
// ... A column's place never changes, a new one takes the next number.
// Conditions leave the cell empty (if, nonneg) or change nothing (nonzero);
// a column under if=taxed is there only when the plan is taxed. The
// account list's members are the columns written for each account,
// "<id>.<name>".

// hfield is one member of the household row's declaration.
type hfield struct {
	goName  string
	key     string // the JSON name
	omit    bool   // omitempty
	src     string // the Go expression of the value
	typ     string // the declared Go type
	param   string // if= an encoder parameter
	cond    string // if= a field: the Go expression
	nonneg  bool
	nonzero bool
	of      string // a list's element type
	members []hfield
	csv     int // the CSV place, 0 for none
	column  string
}

// params are the encoder parameters an if= may name.
var params = []string{"taxed"}

// householdFields reads the household members of struct st (parent is the
// Go expression of its value).
func householdFields(structs map[string]*ast.StructType, owner string, st *ast.StructType, parent string, depth int) ([]hfield, error) {
	var out []hfield
	for _, sf := range st.Fields.List {
		if sf.Tag == nil || len(sf.Names) != 1 {
			continue
		}
		name := owner + "." + sf.Names[0].Name
		tagText, err := strconv.Unquote(sf.Tag.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read the tag: %w", name, err)
		}
		tag := reflect.StructTag(tagText)
		spec, ok := tag.Lookup("household")
		if !ok {
			if _, ok := tag.Lookup("csv"); ok {
				return nil, fmt.Errorf("%s: a csv column needs a household tag", name)
			}
			continue
		}
		jsonName, jsonOpts, _ := strings.Cut(tag.Get("json"), ",")
		if jsonName == "" || jsonName == "-" {
			return nil, fmt.Errorf("%s: a household field needs a JSON name", name)
		}
		f := hfield{goName: sf.Names[0].Name, key: jsonName, omit: slices.Contains(strings.Split(jsonOpts, ","), "omitempty"), typ: types.ExprString(sf.Type)}
		if err := f.read(name, parent, spec, tag); err != nil {
			return nil, err
		}
		elem := strings.TrimLeft(f.typ, "*[]")
		if inner, ok := structs[elem]; ok {
			if depth > 0 && strings.HasPrefix(f.typ, "[]") {
				return nil, fmt.Errorf("%s: a list inside a list", name)
			}
			member := f.src
			if strings.HasPrefix(f.typ, "[]") {
				if f.of == "" {
					return nil, fmt.Errorf("%s: a list names its elements' type (of=)", name)
				}
				member = "a"
			}
			if f.members, err = householdFields(structs, elem, inner, member, depth+1); err != nil {
				return nil, err
			}
			if len(f.members) == 0 {
				return nil, fmt.Errorf("%s: %s has no household member", name, elem)
			}
			if m := f.members[0]; m.param != "" || m.cond != "" || m.nonneg || m.nonzero || (m.omit && !strings.HasPrefix(m.typ, "*")) {
				return nil, fmt.Errorf("%s: the first member of %s is written always", name, elem)
			}
			if f.csv != 0 {
				return nil, fmt.Errorf("%s: an object's columns are its members'", name)
			}
		} else if err := f.checkLeaf(name); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// read sets f's value, conditions and CSV column from its household tag
// spec and its tags (name says where, parent is the enclosing value).
func (f *hfield) read(name, parent, spec string, tag reflect.StructTag) error {
	parts := strings.Split(spec, ",")
	switch src := parts[0]; {
	case src == "":
		return fmt.Errorf("%s: a household tag names its value", name)
	case src == ".":
		f.src = parent
	case strings.HasPrefix(src, "h."):
		f.src = src
	default:
		f.src = parent + "." + src
	}
	for _, o := range parts[1:] {
		switch k, v, _ := strings.Cut(o, "="); k {
		case "if":
			if slices.Contains(params, v) {
				f.param = v
			} else if v != "" && v[0] >= 'A' && v[0] <= 'Z' {
				f.cond = parent + "." + v
			} else {
				return fmt.Errorf("%s: if=%s is neither a parameter (%s) nor a field", name, v, strings.Join(params, ", "))
			}
		case "nonneg":
			f.nonneg = true
		case "nonzero":
			f.nonzero = true
		case "of":
			f.of = v
		default:
			return fmt.Errorf("%s: unknown household option %q", name, o)
		}
	}
	if c, ok := tag.Lookup("csv"); ok {
		n, col, _ := strings.Cut(c, ",")
		var err error
		if f.csv, err = strconv.Atoi(n); err != nil || f.csv < 1 {
			return fmt.Errorf("%s: csv tag %q: the column's place is a number from 1", name, c)
		}
		f.column = cmp(col, f.key)
	}
	return nil
}

// checkLeaf refuses a value the encoders cannot write as declared.
func (f *hfield) checkLeaf(name string) error {
	switch f.typ {
	case "float64", "int", "string":
	case "*float64", "*int":
		if f.param == "" && f.cond == "" && !f.nonneg {
			return fmt.Errorf("%s: a %s says when it is absent (if= or nonneg)", name, f.typ)
		}
	default:
		return fmt.Errorf("%s: a household value is a float64, an int, a string, their pointers, a struct or a list of structs, not %s", name, f.typ)
	}
	if f.nonzero && strings.TrimPrefix(f.typ, "*") != "float64" {
		return fmt.Errorf("%s: nonzero on a %s", name, f.typ)
	}
	if f.csv != 0 && strings.HasPrefix(f.src, "h.") {
		return fmt.Errorf("%s: a CSV column is a value of the row", name)
	}
	return nil
}

// writeHouseholdCSV writes the household CSV's header, its cell count and
// its row's cells from cols, in place order.
func writeHouseholdCSV(b *bytes.Buffer, e *emitter, cols []column) {
	// the header, in runs of columns present under the same parameter
	b.WriteString("\n// appendHouseholdCSVHeader appends the household columns' names after the\n// one-pot row's, the accounts' left out.\nfunc appendHouseholdCSVHeader(b []byte, taxed bool) []byte {\n")
	n := map[string]int{}
	for i := 0; i < len(cols); {
		j := i
		var names string
		for j < len(cols) && cols[j].param == cols[i].param {
			names += "," + cols[j].f.column
			j++
		}
		n[cols[i].param] += j - i
		if p := cols[i].param; p != "" {
			fmt.Fprintf(b, "if %s {\nb = append(b, %q...)\n}\n", p, names)
		} else {
			fmt.Fprintf(b, "b = append(b, %q...)\n", names)
		}
		i = j
	}
	b.WriteString("return b\n}\n")
	fmt.Fprintf(b, "\n// householdCSVCells is the number of household cells, the accounts' left out.\nfunc householdCSVCells(taxed bool) int {\n")
	if k := n["taxed"]; k > 0 {
		fmt.Fprintf(b, "if taxed {\nreturn %d\n}\n", n[""]+k)
	}
	fmt.Fprintf(b, "return %d\n}\n", n[""])

	b.WriteString("\n// appendHouseholdCSVRow appends row x's household cells, each after a\n// comma, in appendHouseholdCSVHeader's order.\nfunc appendHouseholdCSVRow(b []byte, x *household.Row, taxed bool) []byte {\n")
	for i := 0; i < len(cols); {
		j := i
		for j < len(cols) && cols[j].param == cols[i].param {
			j++
		}
		if p := cols[i].param; p != "" {
			e.code("if %s {\n", p)
			e.cells(cols[i:j])
			e.code("}\n")
		} else {
			e.cells(cols[i:j])
		}
		i = j
	}
	b.WriteString("return b\n}\n")
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// emitter writes append statements, joining constant text.
type emitter struct {
	b   *bytes.Buffer
	lit string
}

func (e *emitter) text(s string) { e.lit += s }

func (e *emitter) flush() {
	if len(e.lit) == 1 {
		fmt.Fprintf(e.b, "b = append(b, %s)\n", strconv.QuoteRune(rune(e.lit[0])))
		e.lit = ""
	} else if e.lit != "" {
		fmt.Fprintf(e.b, "b = append(b, %s...)\n", quote(e.lit))
		e.lit = ""
	}
}

func (e *emitter) code(format string, a ...any) {
	e.flush()
	fmt.Fprintf(e.b, format, a...)
}

// quote is s as a raw string literal where it can be one.
func quote(s string) string {
	if !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// scalar appends the value of leaf f (the key written before).
func (e *emitter) scalar(f *hfield, csv bool) {
	v := f.src
	switch strings.TrimPrefix(f.typ, "*") {
	case "float64":
		e.code("b = jsonw.AppendFixed(b, %s, 2)\n", v)
	case "int":
		e.code("b = strconv.AppendInt(b, int64(%s), 10)\n", v)
	case "string":
		if csv {
			e.code("b = appendCSVField(b, %s)\n", v)
		} else {
			e.code("b = jsonw.AppendString(b, %s)\n", v)
		}
	}
}

// when is the condition under which f is written in JSON, "" for always.
func when(f *hfield) string {
	var c []string
	if f.param != "" {
		c = append(c, f.param)
	}
	if f.cond != "" {
		c = append(c, f.cond)
	}
	if f.nonneg {
		c = append(c, f.src+" >= 0")
	}
	if f.members == nil {
		switch {
		case f.typ == "float64" && (f.nonzero || f.omit):
			c = append(c, "cents("+f.src+") != 0")
		case f.typ == "string" && f.omit:
			c = append(c, f.src+` != ""`)
		}
	} else if f.nonzero {
		var any []string
		for _, m := range f.members {
			if m.typ == "float64" {
				any = append(any, "cents("+m.src+") != 0")
			}
		}
		c = append(c, "("+strings.Join(any, " || ")+")")
	}
	return strings.Join(c, " && ")
}

// json writes the JSON of fields, each after sep (the first after first).
func (e *emitter) json(fields []hfield, first string) {
	for i := range fields {
		f := &fields[i]
		sep := ","
		if i == 0 {
			sep = first
		}
		cond := when(f)
		if cond != "" {
			e.code("if %s {\n", cond)
		}
		e.text(sep + strconv.Quote(f.key) + ":")
		switch {
		case strings.HasPrefix(f.typ, "[]"):
			e.text("[")
			e.code("accts := %s\nfor k := range accts {\n", f.src)
			e.code("a := &accts[k]\nif k > 0 {\nb = append(b, ',')\n}\n")
			e.json(f.members, "{")
			e.text("}")
			e.code("}\n")
			e.text("]")
		case f.members != nil:
			e.json(f.members, "{")
			e.text("}")
		default:
			e.scalar(f, false)
		}
		if cond != "" {
			e.code("}\n")
		}
	}
}

// column is one household CSV column.
type column struct {
	f     *hfield
	param string // present only when this parameter is true
	empty string // the cell is empty unless this holds
}

// columns gathers the CSV columns of fields, in no order.
func columns(fields []hfield, param string, out []column) []column {
	for i := range fields {
		f := &fields[i]
		p := cmp(f.param, param)
		if f.members != nil && !strings.HasPrefix(f.typ, "[]") {
			out = columns(f.members, p, out)
			continue
		}
		if f.csv == 0 {
			continue
		}
		var c []string
		if f.cond != "" {
			c = append(c, f.cond)
		}
		if f.nonneg {
			c = append(c, f.src+" >= 0")
		}
		out = append(out, column{f: f, param: p, empty: strings.Join(c, " && ")})
	}
	return out
}

// ordered sorts cols by place and requires the places 1, 2, ... n.
func ordered(what string, cols []column) error {
	slices.SortFunc(cols, func(a, b column) int { return a.f.csv - b.f.csv })
	for i, c := range cols {
		if c.f.csv != i+1 {
			return fmt.Errorf("%s: csv place %d where %d is due (places are 1, 2, ... once each)", what, c.f.csv, i+1)
		}
	}
	return nil
}

// cells writes the CSV cells of cols, each after a comma.
func (e *emitter) cells(cols []column) {
	for _, c := range cols {
		e.text(",")
		if c.empty != "" {
			e.code("if %s {\n", c.empty)
		}
		e.scalar(c.f, true)
		if c.empty != "" {
			e.code("}\n")
		}
	}
	e.flush()
}

// writeHousehold writes the household row's encoders.
func writeHousehold(b *bytes.Buffer, fields []hfield) error {
	cols := columns(fields, "", nil)
	if err := ordered(Row, cols); err != nil {
		return err
	}
	var list *hfield
	for i := range fields {
		if strings.HasPrefix(fields[i].typ, "[]") {
			if list != nil {
				return fmt.Errorf("%s: one account list, not two", Row)
			}
			list = &fields[i]
		}
	}
	e := &emitter{b: b}
	b.WriteString(`
// appendHouseholdRow appends what a household adds to row i of h (after a
// comma), the encoding of ` + Row + `'s household members.
func appendHouseholdRow(b []byte, h *household.Result, i int, taxed bool) []byte {
x := &h.Extra[i]
`)
	e.json(fields, ",")
	e.flush()
	b.WriteString("return b\n}\n")

	writeHouseholdCSV(b, e, cols)

	if list == nil {
		return nil
	}
	acols := columns(list.members, "", nil)
	if err := ordered(list.goName, acols); err != nil {
		return err
	}
	names := make([]string, len(acols))
	for i, c := range acols {
		if c.param != "" || c.empty != "" {
			return fmt.Errorf("%s: an account's cell is always written", c.f.goName)
		}
		names[i] = strconv.Quote("." + c.f.column)
	}
	fmt.Fprintf(b, "\n// csvAccountFields are the columns of each account, after its id.\nvar csvAccountFields = [...]string{%s}\n", strings.Join(names, ", "))
	fmt.Fprintf(b, "\n// appendCSVAccount appends account a's cells, each after a comma, in\n// csvAccountFields' order.\nfunc appendCSVAccount(b []byte, a *%s) []byte {\n", list.of)
	e.cells(acols)
	b.WriteString("return b\n}\n")
	return nil
}
