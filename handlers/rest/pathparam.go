package rest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PathParam is the grammar of a path parameter: the pattern every value
// matches, its longest length and the sentence a refusal quotes. A grammar
// is declared once, by the package that owns the ids, and every route
// with the parameter names it (Route.Where): the chain checks the value
// before the handler runs, the OpenAPI document and the MCP tools' input
// schemas publish it, and an MCP tool checks an id argument against it
// before the id becomes part of a path, so no value can walk to another
// route ("..", "a/b").
type PathParam struct {
	Name    string
	Pattern string // anchored regular expression, as JSON Schema writes it
	MaxLen  int
	Rule    string // what a value must be: "must be ..."
	re      *regexp.Regexp
}

// NewPathParam declares a grammar; it panics when pattern does not compile
// or is not anchored at both ends, as declarations are made at start.
func NewPathParam(name, pattern string, maxLen int, rule string) *PathParam {
	if !strings.HasPrefix(pattern, "^") || !strings.HasSuffix(pattern, "$") || maxLen < 1 {
		panic("path parameter " + name + ": the pattern must be anchored and the length bounded")
	}
	return &PathParam{Name: name, Pattern: pattern, MaxLen: maxLen, Rule: rule, re: regexp.MustCompile(pattern)}
}

// Valid reports whether v is a value of the grammar.
func (p *PathParam) Valid(v []byte) bool { return len(v) <= p.MaxLen && p.re.Match(v) }

// ValidString is Valid for a string.
func (p *PathParam) ValidString(v string) bool { return len(v) <= p.MaxLen && p.re.MatchString(v) }

// Schema is the grammar as a JSON Schema string type.
func (p *PathParam) Schema() map[string]any {
	return map[string]any{"type": "string", "pattern": p.Pattern, "maxLength": p.MaxLen}
}

func (p *PathParam) schemaJSON() string {
	return `{"type":"string","pattern":` + strconv.Quote(p.Pattern) + `,"maxLength":` + strconv.Itoa(p.MaxLen) + `}`
}

// Where declares the grammars of the route's path parameters.
func (r *Route) Where(ps ...*PathParam) *Route {
	r.PathParams = append(r.PathParams, ps...)
	return r
}

// PathParam returns the grammar of the named parameter, or nil.
func (r *Route) PathParam(name string) *PathParam {
	for _, p := range r.PathParams {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// pathNames lists the parameters of the route's path, in order.
func (r *Route) pathNames() []string {
	var ps []string
	for _, seg := range strings.Split(r.Path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			ps = append(ps, seg[1:len(seg)-1])
		}
	}
	return ps
}

// CheckParams reports a path parameter the route declares no grammar for,
// or a grammar for a parameter its path lacks.
func (r *Route) CheckParams() error {
	names := r.pathNames()
	for _, n := range names {
		if r.PathParam(n) == nil {
			return fmt.Errorf("route %s %s: path parameter {%s} declares no grammar", r.Method, r.Path, n)
		}
	}
	for _, p := range r.PathParams {
		found := false
		for _, n := range names {
			found = found || n == p.Name
		}
		if !found {
			return fmt.Errorf("route %s %s: a grammar for {%s}, which the path lacks", r.Method, r.Path, p.Name)
		}
	}
	return nil
}

// CheckPath refuses a path parameter outside its grammar with 400
// VALIDATION_ERROR naming the parameter. Every route passes through it.
func (c *Ctx) CheckPath() bool {
	for i := 0; i < c.params.n; i++ {
		p := c.route.PathParam(c.params.names[i])
		if p == nil || !p.Valid(c.params.values[i]) {
			rule := "is not a known parameter"
			if p != nil {
				rule = p.Rule
			}
			c.Fail(c.params.names[i], rule)
			return false
		}
	}
	return true
}

// WithIdempotencyKey marks a create route that takes an Idempotency-Key
// header: a retry under the same key answers the first answer again.
func (r *Route) WithIdempotencyKey() *Route {
	r.Idempotent = true
	return r
}
