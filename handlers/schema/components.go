package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"unicode"
	"unicode/utf8"
)

// A document that describes many bodies, such as the OpenAPI document,
// names each declared object once as a component and refers to it with
// $ref, so that code generators make one named type per declaration
// instead of an anonymous one per use. JSONSchema stays self-contained
// (every object inline) for consumers that take one schema alone.
//
// A component is named after its Go type, first letter in upper case, or
// after what the type's SchemaName method returns. A type used both in a
// request (Compile) and in a response (CompileDoc) has two schemas when
// the response form requires more fields; the request form is then named
// with the suffix "Input". Two types that would share a name are an error,
// found when the document is built.

// Named is a declaration that names its own component.
type Named interface{ SchemaName() string }

// Declared is a compiled declaration, whichever its Go type.
type Declared interface{ declaration() *object }

func (s *Schema[T]) declaration() *object { return s.root }

// Components gathers the objects of declarations and names them.
type Components struct {
	base     string // prefix of every reference, such as "#/components/schemas/"
	reserved map[string]bool
	entries  map[string]*component // by identity: Go type and inline schema
	of       map[*object]*component
	order    []*component
	named    map[string]*component
	sealed   bool
}

type component struct {
	obj  *object // the first object seen of this identity
	name string
}

var componentName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// NewComponents returns an empty set whose references start with base;
// reserved are names the document uses for schemas of its own.
func NewComponents(base string, reserved ...string) *Components {
	c := &Components{base: base, reserved: map[string]bool{}, entries: map[string]*component{},
		of: map[*object]*component{}, named: map[string]*component{}}
	for _, r := range reserved {
		c.reserved[r] = true
	}
	return c
}

// Add gathers the objects of d: its root and every object nested in it.
func (c *Components) Add(d Declared) {
	if c.sealed {
		panic("schema: Components.Add after Seal")
	}
	c.add(d.declaration())
}

func (c *Components) add(o *object) {
	if c.of[o] != nil {
		return
	}
	key := o.typ.String() + "\x00" + string(appendObjectSchema(nil, o))
	e := c.entries[key]
	if e == nil {
		e = &component{obj: o}
		c.entries[key] = e
		c.order = append(c.order, e)
	}
	c.of[o] = e
	for i := range o.fields {
		if f := &o.fields[i]; f.obj != nil {
			c.add(f.obj)
		}
	}
}

// Seal names every gathered object; it fails when two types would share a
// name, a name is reserved or not a valid component name, or an object has
// no name (an anonymous struct).
func (c *Components) Seal() error {
	c.sealed = true
	byType := map[reflect.Type][]*component{}
	var types []reflect.Type
	for _, e := range c.order {
		t := e.obj.typ
		if byType[t] == nil {
			types = append(types, t)
		}
		byType[t] = append(byType[t], e)
	}
	for _, t := range types {
		base, err := typeName(t)
		if err != nil {
			return err
		}
		es := byType[t]
		switch {
		case len(es) == 1:
			es[0].name = base
		case len(es) == 2 && es[0].obj.strict != es[1].obj.strict:
			for _, e := range es {
				e.name = base
				if e.obj.strict {
					e.name = base + "Input"
				}
			}
		default:
			return fmt.Errorf("cannot name the schemas of %v: it has %d different forms", t, len(es))
		}
		for _, e := range es {
			if c.reserved[e.name] {
				return fmt.Errorf("cannot name the schema of %v %q: the document reserves that name", t, e.name)
			}
			if other := c.named[e.name]; other != nil {
				return fmt.Errorf("cannot name the schema of %v %q: %v has that name", t, e.name, other.obj.typ)
			}
			c.named[e.name] = e
		}
	}
	return nil
}

// typeName is the component name of Go type t.
func typeName(t reflect.Type) (string, error) {
	var name string
	if n, ok := reflect.Zero(t).Interface().(Named); ok {
		name = n.SchemaName()
	} else if t.Name() == "" {
		return "", fmt.Errorf("cannot name the schema of %v: an anonymous struct is not a component name (declare a type)", t)
	} else {
		name = t.Name()
		r, size := utf8.DecodeRuneInString(name)
		name = string(unicode.ToUpper(r)) + name[size:]
	}
	if !componentName.MatchString(name) {
		return "", fmt.Errorf("cannot name the schema of %v: %q is not a component name (give the type a SchemaName method)", t, name)
	}
	return name, nil
}

// Ref is the reference to the root object of d, which Add gathered.
func (c *Components) Ref(d Declared) string { return c.ref(d.declaration()) }

func (c *Components) ref(o *object) string {
	if !c.sealed {
		panic("schema: Components.Ref before Seal")
	}
	e := c.of[o]
	if e == nil {
		panic(fmt.Sprintf("schema: %v was not added to the components", o.typ))
	}
	return c.base + e.name
}

// Names lists the components' names in order.
func (c *Components) Names() []string {
	names := make([]string, 0, len(c.named))
	for n := range c.named {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// AppendSchema appends the JSON Schema of the component named name, its
// nested objects as references.
func (c *Components) AppendSchema(dst []byte, name string) []byte {
	e := c.named[name]
	if e == nil {
		panic("schema: no component " + name)
	}
	w := schemaWriter{ref: c.ref}
	w.B = dst
	w.object(e.obj)
	return w.B
}
