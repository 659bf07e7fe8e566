package rest

import (
	"fiplan/handlers/errcode"
	"fiplan/handlers/schema"
)

// Access is who may call a route.
type Access uint8

const (
	Public  Access = iota // anyone; credentials, when sent, must be valid
	User                  // any authenticated caller, by session or API key
	Session               // an authenticated person, not an API key
	Pro                   // the pro tier (403 SUBSCRIPTION_REQUIRED)
	Admin                 // role admin (403 FORBIDDEN)
	// Probe is a health check: anyone, never rate limited, and no
	// credentials are read (any sent are ignored), so that answering it
	// touches nothing but what the route itself checks.
	Probe
)

// Route is one operation: its method and path, who may call it, the
// handler, and what the OpenAPI document says about it. The router and
// the document are both built from the one table of routes, so neither
// can list an operation the other lacks.
type Route struct {
	Method, Path string
	Access       Access
	Handler      func(*Ctx)
	// ID is the route's position in the server's table plus one, set when
	// the server starts (0: a route outside the table); the server finds
	// the route's metrics by it.
	ID int
	// PathParams are the grammars of the path's parameters (Where).
	PathParams []*PathParam
	// Idempotent: the route takes an Idempotency-Key header
	// (WithIdempotencyKey).
	Idempotent bool
	*Doc
}

// Doc describes an operation for the OpenAPI document; the query
// parameters it declares are also the only ones the route accepts.
type Doc struct {
	Tag, Summary, Desc string
	Body               Schema // request body, nil when none
	Data               Schema // response data (an item, for lists); nil: any object
	List               bool   // data is an array of Data with paging meta
	Status             int    // success status
	Bytes              string // when set, the success body's only media type, instead of the JSON envelope
	Created            bool   // also answers 201 when the call creates the resource
	// NotModified: the response carries a strong ETag and a request whose
	// If-None-Match names it is answered 304 with no body.
	NotModified bool
	// Versioned: the route serves a stored document. Its answer carries
	// the document's strong ETag, and a write whose If-Match names no
	// current tag is answered 412 PRECONDITION_FAILED and writes nothing;
	// the OpenAPI document declares the header, If-Match and the 412.
	Versioned bool
	Errs      []ErrDoc
	Query     []Param
	// Media lists the success response's other media types, beside JSON,
	// that the route answers when the request's Accept header asks.
	Media []Media
	// CSVBody: the route also takes its body as Content-Type text/csv.
	CSVBody bool
	// FormBody: the route also takes a form-encoded body (a one-click
	// unsubscribe's POST, which mail clients send as a form).
	FormBody bool
}

// Media is a media type of a success response other than JSON: its type
// (such as text/csv) and what the body holds.
type Media struct {
	Type, Desc string
}

// Schema is a compiled body declaration (schema.Schema[T] for any T).
type Schema interface{ JSONSchema() []byte }

var _ Schema = (*schema.Schema[struct{}])(nil)

// ErrDoc documents an error a route sends beyond those every route of its
// kind sends.
type ErrDoc struct {
	Status int
	Code   string
	When   string
}

// Param declares a query parameter: its name, its JSON Schema type and
// what it does.
type Param struct {
	Name, Type, Doc string
}

// Get, Post, Put, Patch and Delete declare a route on one line.
func Get(path string, a Access, h func(*Ctx), d *Doc) *Route   { return route("GET", path, a, h, d) }
func Post(path string, a Access, h func(*Ctx), d *Doc) *Route  { return route("POST", path, a, h, d) }
func Put(path string, a Access, h func(*Ctx), d *Doc) *Route   { return route("PUT", path, a, h, d) }
func Patch(path string, a Access, h func(*Ctx), d *Doc) *Route { return route("PATCH", path, a, h, d) }
func Delete(path string, a Access, h func(*Ctx), d *Doc) *Route {
	return route("DELETE", path, a, h, d)
}

func route(m, path string, a Access, h func(*Ctx), d *Doc) *Route {
	if d == nil {
		d = &Doc{Status: 200}
	}
	return &Route{Method: m, Path: path, Access: a, Handler: h, Doc: d}
}

func (r *Route) declares(name []byte) bool {
	for i := range r.Query {
		if r.Query[i].Name == string(name) {
			return true
		}
	}
	return false
}

// Err documents an error code a route sends and when; its status is the
// code's own.
func Err(code, when string) ErrDoc {
	return ErrDoc{Status: errcode.Status(code), Code: code, When: when}
}

// Q declares a query parameter.
func Q(name, typ, doc string) Param { return Param{Name: name, Type: typ, Doc: doc} }
