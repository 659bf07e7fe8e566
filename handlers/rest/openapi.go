package rest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/schema"
)

// The OpenAPI 3.1 document is built once at start from the route table and
// the route's schema declarations, and served as those bytes.

// Description is the API-wide part of the document's description.
const Description = `fiplan is an HTTP JSON API for financial-independence planning.

Every success answers {"success": true, "data": ...}; lists add "meta": {"total", "limit", "offset"}.
Every error answers {"success": false, "error": "...", "code": "..."} with "details" (one {path, message}
per failing field) for VALIDATION_ERROR and MISSING_FIELD, "retryAfter" for RATE_LIMITED and "message"
on some 401 and 403 answers. Every response carries X-Request-ID and X-Content-Type-Options: nosniff;
every response to an authenticated request, and every 401, carries Cache-Control: no-store.

Authentication: "Authorization: Bearer <token>" with a session JWT (HS256 with the server's secret, or
RS256/ES256/EdDSA from its JWKS; claims sub, exp, optional iat, tier free|pro, role admin; a session is
expired when exp has passed or iat is over one hour ago; a token without iat whose exp is more than one
hour ahead is refused as UNAUTHORIZED, "token lifetime exceeds one hour") or an API key "svc_..." created at
/api/v1/user/api-keys. The web app may send the session JWT in the cookie fiplan_session; unsafe
methods authenticated by cookie must carry an Origin header naming this host. Public routes need no
credentials, but credentials that are sent must be valid.

Rate limits: anonymous callers per client IP (IPv6 per /64 network unless configured otherwise),
signed-in callers per user by tier. Limited responses
carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds); over the limit answers 429
with retryAfter and Retry-After. A request that alone costs more than the caller's whole allowance
answers 429 COST_OVER_ALLOWANCE without retryAfter, since no wait admits it, and charges nothing more. A request costs one unit of the limit; a calculator request answered in
JSON with monteCarlo, historical or goals costs one unit per 100,000 modelled years, rounded up, so the
limit bounds the work a caller asks for: monteCarlo simulations x years of the plan; historical the
backtest's windows x historical.years (twice, plus three paths, with sequences); goals.targetSuccessRate
13 backtests (the most its search over 1 to 2000 basis points runs); goals.fiByAge 220 timelines x years
of the plan. A CSV answer computes the projections alone and costs one unit. Request bodies are
limited to 1 MiB (413 PAYLOAD_TOO_LARGE). Bodies are
validated strictly: unknown fields, wrong JSON types and out-of-range values are VALIDATION_ERROR; an
absent required field is MISSING_FIELD, which wins when both apply. A POST, PUT or PATCH body must be
sent as Content-Type application/json (parameters such as charset=utf-8 allowed; a PATCH may say
application/merge-patch+json) and without Content-Encoding, else 415 UNSUPPORTED_MEDIA_TYPE; a body
without Content-Type is read as JSON, and a route that needs a body answers INVALID_JSON to none.

Every GET route also answers HEAD (the same headers, no body), and every path answers OPTIONS with 204
and Allow. When the server lists CORS origins, a request whose Origin is one of them exactly gets
Access-Control-Allow-Origin echoing it (never *, and no credentials mode: send the token in
Authorization) and Access-Control-Expose-Headers (ETag, RateLimit-*, Retry-After, X-Request-ID); a
preflight gets Access-Control-Allow-Methods, Access-Control-Allow-Headers (Authorization, Content-Type,
If-Match, X-Request-ID) and Access-Control-Max-Age 600. Responses then carry Vary: Origin.

Stored documents (the profile, settings and notification preferences, one asset) carry a strong ETag,
a hash of the data answered. A PUT, PATCH or DELETE with If-Match writes only when the stored document
still has one of the listed tags (or, with *, exists), decided inside the write, else it answers 412
PRECONDITION_FAILED and writes nothing; weak tags never match.

HTTP: a request URI over 8 KiB is 414 URI_TOO_LONG; headers over 8 KiB (the Authorization header over
4 KiB, the request line and headers together over 16 KiB) are 431 HEADER_TOO_LARGE. Requests are
HTTP/1.1 or HTTP/1.0; Transfer-Encoding other than chunked, or together with
Content-Length, is 400 BAD_REQUEST and the connection is closed.

AI assistants: the same operations are offered as Model Context Protocol tools at /mcp (streamable
HTTP: POST, GET and DELETE; protocol 2025-06-18 and later), with "Authorization: Bearer" and an API
key or a session token. Each tool's input schema is its route's request schema here and its output
schema the route's data schema, each standing alone (its objects inline instead of $ref); a call runs the route with the caller's credentials, so the same
validation, tiers and rate limits apply, and an error envelope becomes a tool result with isError
carrying its code, message and details. Without credentials /mcp answers 401 with a
WWW-Authenticate challenge naming /.well-known/oauth-protected-resource (RFC 9728).`

// Info is what the document says about the API as a whole.
type Info struct {
	Title, Version, Description string
	SessionCookie               string // the cookie that may carry a session
}

// OpenAPI builds the OpenAPI 3.1 document of routes.
func OpenAPI(info Info, routes []*Route) ([]byte, error) {
	w := &jsonw.Writer{}
	w.Begin()
	writeInfo(w, info)

	// Every declared body is a named component, referred to where used.
	comps := schema.NewComponents(componentsBase, "Error", "ListMeta")
	for _, r := range routes {
		for _, d := range [...]Schema{r.Body, r.Data} {
			if d, ok := d.(schema.Declared); ok {
				comps.Add(d)
			}
		}
	}
	if err := comps.Seal(); err != nil {
		return nil, fmt.Errorf("cannot document the schemas: %w", err)
	}

	// Paths, in a stable order, each with its operations.
	byPath := map[string][]*Route{}
	var paths []string
	for _, r := range routes {
		if err := r.CheckParams(); err != nil {
			return nil, fmt.Errorf("cannot document %w", err)
		}
		if byPath[r.Path] == nil {
			paths = append(paths, r.Path)
		}
		byPath[r.Path] = append(byPath[r.Path], r)
	}
	sort.Strings(paths)
	w.Key("paths")
	w.Begin()
	for _, p := range paths {
		w.Key(p)
		w.Begin()
		for _, r := range byPath[p] {
			w.Key(strings.ToLower(r.Method))
			writeOperation(w, r, comps)
		}
		w.End()
	}
	w.End()

	writeComponents(w, info, comps)
	w.End()
	return w.B, nil
}

// writeInfo writes the document's version, info and servers.
func writeInfo(w *jsonw.Writer, info Info) {
	w.Key("openapi")
	w.String("3.1.0")
	w.Key("info")
	w.Begin()
	w.Key("title")
	w.String(info.Title)
	w.Key("version")
	w.String(info.Version)
	w.Key("description")
	w.String(info.Description)
	w.End()
	w.Key("servers")
	w.BeginArray()
	w.Begin()
	w.Key("url")
	w.String("/")
	w.End()
	w.EndArray()
}

// writeComponents writes the security schemes and every component schema,
// in name order.
func writeComponents(w *jsonw.Writer, info Info, comps *schema.Components) {
	w.Key("components")
	w.Begin()
	w.Key("securitySchemes")
	w.Begin()
	w.Key("bearer")
	w.Begin()
	w.Key("type")
	w.String("http")
	w.Key("scheme")
	w.String("bearer")
	w.Key("description")
	w.String("A session JWT, or an API key svc_...")
	w.End()
	w.Key("cookie")
	w.Begin()
	w.Key("type")
	w.String("apiKey")
	w.Key("in")
	w.String("cookie")
	w.Key("name")
	w.String(info.SessionCookie)
	w.End()
	w.End()
	w.Key("schemas")
	w.Begin()
	own := map[string]string{"Error": errorSchema, "ListMeta": listMetaSchema}
	names := append(comps.Names(), "Error", "ListMeta")
	sort.Strings(names)
	for _, name := range names {
		w.Key(name)
		if s, ok := own[name]; ok {
			w.Raw([]byte(s))
		} else {
			w.Raw(comps.AppendSchema(nil, name))
		}
	}
	w.End()
	w.End()
}

// componentsBase starts every reference to a component schema.
const componentsBase = "#/components/schemas/"

// listMetaSchema is the paging of a list answer.
const listMetaSchema = `{"type":"object","required":["total","limit","offset"],"properties":{"total":{"type":"integer","format":"int64"},"limit":{"type":"integer","format":"int64"},"offset":{"type":"integer","format":"int64"}}}`

// schemaRef is the schema of a body declared by d: a reference to its
// component, or d's own schema when d is no declaration.
func schemaRef(comps *schema.Components, d Schema) []byte {
	if dd, ok := d.(schema.Declared); ok {
		return []byte(`{"$ref":` + strconv.Quote(comps.Ref(dd)) + `}`)
	}
	return d.JSONSchema()
}

var errorSchema = func() string {
	var b strings.Builder
	b.WriteString(`{"type":"object","required":["success","error","code"],"properties":{` +
		`"success":{"const":false},"error":{"type":"string","description":"Human-readable message."},` +
		`"code":{"enum":[`)
	for i, c := range errcode.All() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(c.Code))
	}
	b.WriteString(`]},"message":{"type":"string"},` +
		`"details":{"type":"array","items":{"type":"object","required":["path","message"],"properties":{"path":{"type":"string"},"message":{"type":"string"}}}},` +
		`"retryAfter":{"type":"integer","format":"int64","minimum":1}}}`)
	return b.String()
}()

func writeOperation(w *jsonw.Writer, r *Route, comps *schema.Components) {
	w.Begin()
	w.Key("operationId")
	w.String(operationID(r))
	w.Key("tags")
	w.BeginArray()
	w.String(r.Tag)
	w.EndArray()
	w.Key("summary")
	w.String(r.Summary)
	w.Key("description")
	w.String(r.Desc + accessNote(r.Access))
	writeSecurity(w, r)
	writeParameters(w, r)
	if r.Body != nil {
		w.Key("requestBody")
		w.Begin()
		w.Key("required")
		w.Bool(true)
		w.Key("content")
		w.Begin()
		w.Key("application/json")
		w.Begin()
		w.Key("schema")
		w.Raw(schemaRef(comps, r.Body))
		w.End()
		w.End()
		w.End()
	}
	w.Key("responses")
	w.Begin()
	writeSuccess(w, r, comps)
	writeOtherResponses(w, r, comps)
	w.End()
	w.End()
}

// writeSecurity writes the credentials an operation takes.
func writeSecurity(w *jsonw.Writer, r *Route) {
	w.Key("security")
	w.BeginArray()
	if r.Access == Public || r.Access == Probe {
		w.Begin() // optional: credentials may be sent (a probe reads none)
		w.End()
	}
	if r.Access != Probe {
		w.Begin()
		w.Key("bearer")
		w.BeginArray()
		w.EndArray()
		w.End()
		w.Begin()
		w.Key("cookie")
		w.BeginArray()
		w.EndArray()
		w.End()
	}
	w.EndArray()

}

// writeParameters writes an operation's path and query parameters and the
// headers it reads (If-Match, Idempotency-Key).
func writeParameters(w *jsonw.Writer, r *Route) {
	ps := r.pathNames()
	ifMatch := r.Versioned && r.Method != "GET"
	if len(ps)+len(r.Query) > 0 || ifMatch || r.Idempotent {
		w.Key("parameters")
		w.BeginArray()
		for _, p := range ps {
			w.Begin()
			w.Key("name")
			w.String(p)
			w.Key("in")
			w.String("path")
			w.Key("required")
			w.Bool(true)
			w.Key("description")
			w.String("The value " + r.PathParam(p).Rule + ".")
			w.Key("schema")
			w.Raw([]byte(r.PathParam(p).schemaJSON()))
			w.End()
		}
		for _, q := range r.Query {
			w.Begin()
			w.Key("name")
			w.String(q.Name)
			w.Key("in")
			w.String("query")
			w.Key("description")
			w.String(q.Doc)
			w.Key("schema")
			w.Begin()
			w.Key("type")
			w.String(q.Type)
			if f := paramFormat(q.Type); f != "" {
				w.Key("format")
				w.String(f)
			}
			w.End()
			w.End()
		}
		if ifMatch {
			w.Begin()
			w.Key("name")
			w.String("If-Match")
			w.Key("in")
			w.String("header")
			w.Key("description")
			w.String("The ETag the client read (or `*`, any current version): the write happens only when the stored document still has it, else 412 PRECONDITION_FAILED. Weak tags never match.")
			w.Key("schema")
			w.Raw([]byte(`{"type":"string"}`))
			w.End()
		}
		if r.Idempotent {
			w.Begin()
			w.Key("name")
			w.String("Idempotency-Key")
			w.Key("in")
			w.String("header")
			w.Key("description")
			w.String("A key of the client's choosing (a random UUID; 8 to 255 visible ASCII characters) that makes a retry safe: the same key with the same request within 24 hours answers the first answer again, with Idempotent-Replayed: true, and stores nothing; with another request, 409 CONFLICT. The answer is kept by the create's own transaction: a create that failed or never finished left nothing under the key, and its retry runs; of two requests under one key at once, one creates and the other answers its answer. Keys are the caller's own.")
			w.Key("schema")
			w.Raw([]byte(`{"type":"string","minLength":8,"maxLength":255}`))
			w.End()
		}
		w.EndArray()
	}
}

// writeSuccess writes the response of an operation's own status.
func writeSuccess(w *jsonw.Writer, r *Route, comps *schema.Components) {
	w.Key(strconv.Itoa(r.Status))
	w.Begin()
	w.Key("description")
	w.String(httpText(r.Status))
	if r.Versioned && r.Status != 204 {
		w.Key("headers")
		w.Raw([]byte(`{"ETag":{"description":"The document's strong entity tag, to send back in If-Match (a compressed answer's tag names its content coding; either form matches).","schema":{"type":"string"}}}`))
	}
	switch {
	case r.Bytes != "":
		w.Key("content")
		w.Begin()
		w.Key(r.Bytes)
		w.Raw([]byte(`{"schema":{"type":"string","contentMediaType":` + strconv.Quote(r.Bytes) + `}}`))
		w.End()
	case r.Status != 204:
		w.Key("content")
		w.Begin()
		w.Key("application/json")
		w.Begin()
		w.Key("schema")
		writeEnvelope(w, r, comps)
		w.End()
		for _, m := range r.Media {
			w.Key(m.Type)
			w.Begin()
			w.Key("schema")
			w.Begin()
			w.Key("type")
			w.String("string")
			w.Key("description")
			w.String(m.Desc)
			w.End()
			w.End()
		}
		w.End()
	}
	w.End()
}

// writeOtherResponses writes an operation's 201, 304 and error responses.
func writeOtherResponses(w *jsonw.Writer, r *Route, comps *schema.Components) {
	if r.Created {
		w.Key("201")
		w.Begin()
		w.Key("description")
		w.String("Created")
		w.Key("content")
		w.Begin()
		w.Key("application/json")
		w.Begin()
		w.Key("schema")
		writeEnvelope(w, r, comps)
		w.End()
		w.End()
		w.End()
	}
	if r.NotModified {
		w.Key("304")
		w.Begin()
		w.Key("description")
		w.String("Not Modified: If-None-Match names the current ETag; no body")
		w.End()
	}
	for _, e := range routeErrors(r) {
		w.Key(strconv.Itoa(e.Status))
		w.Begin()
		w.Key("description")
		w.String(e.When)
		w.Key("content")
		w.Raw([]byte(`{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}`))
		w.End()
	}
}

func writeEnvelope(w *jsonw.Writer, r *Route, comps *schema.Components) {
	if r.Data == nil {
		w.Raw([]byte(`{"type":"object"}`))
		return
	}
	w.Begin()
	w.Key("type")
	w.String("object")
	w.Key("required")
	w.Raw([]byte(`["success","data"]`))
	w.Key("properties")
	w.Begin()
	w.Key("success")
	w.Raw([]byte(`{"const":true}`))
	w.Key("data")
	if r.List {
		w.Begin()
		w.Key("type")
		w.String("array")
		w.Key("items")
		w.Raw(schemaRef(comps, r.Data))
		w.End()
		w.Key("meta")
		w.Raw([]byte(`{"$ref":"` + componentsBase + `ListMeta"}`))
	} else {
		w.Raw(schemaRef(comps, r.Data))
	}
	w.End()
	w.End()
}

// routeErrors lists every error a route can answer, grouped by status.
func routeErrors(r *Route) []ErrDoc {
	var out []ErrDoc
	add := func(status int, codes, when string) {
		for i := range out {
			if out[i].Status == status {
				out[i].When += "; " + codes + ": " + when
				return
			}
		}
		out = append(out, ErrDoc{Status: status, When: codes + ": " + when})
	}
	add(400, errcode.Validation, "a query parameter is unknown, repeated or malformed; details name it")
	add(400, errcode.BadRequest, "the HTTP message itself is malformed or ambiguously framed")
	if r.Body != nil {
		add(400, "INVALID_JSON, VALIDATION_ERROR, MISSING_FIELD", "the body is not JSON, fails validation or lacks a required field")
		add(413, errcode.PayloadTooLarge, "the body is over 1 MiB")
	}
	add(414, errcode.URITooLong, "the request URI is longer than 8 KiB")
	add(431, errcode.HeaderTooLarge, "the headers are larger than 8 KiB, or the Authorization header than 4 KiB")
	switch r.Method {
	case "POST", "PUT", "PATCH":
		add(415, errcode.UnsupportedMedia, "Content-Type is not application/json, or a Content-Encoding was sent")
	}
	switch r.Access {
	case Probe:
	case Public:
		add(401, "UNAUTHORIZED, TOKEN_EXPIRED", "credentials were sent and are invalid or expired")
	default:
		add(401, "UNAUTHORIZED, TOKEN_EXPIRED", "credentials are missing, invalid or expired")
	}
	switch r.Access {
	case Pro:
		add(403, errcode.SubscriptionRequired, "the caller is on the free tier")
	case Admin:
		add(403, errcode.Forbidden, "the caller lacks role admin")
	case Session:
		add(403, errcode.Forbidden, "called with an API key")
	}
	if r.Method != "GET" {
		add(403, errcode.Forbidden, "authenticated by the session cookie without an Origin header naming this host")
	}
	if r.Versioned && r.Method != "GET" {
		add(412, errcode.PreconditionFailed, "If-Match names no current version of the document; nothing was written")
	}
	if r.Idempotent {
		add(409, errcode.Conflict, "the Idempotency-Key was used for another request in the last 24 hours")
		add(400, errcode.Validation, "the Idempotency-Key is not 8 to 255 visible ASCII characters")
	}
	for _, e := range r.Errs {
		if r.Access == Session && e.Code == errcode.Forbidden && e.When == "called with an API key" {
			continue // documented above for every session route
		}
		add(e.Status, e.Code, e.When)
	}
	add(405, errcode.MethodNotAllowed, "the path exists with other methods (see Allow)")
	if r.Access == Probe {
		add(500, errcode.Internal, "an unexpected error")
	} else {
		add(429, errcode.RateLimited+", "+errcode.CostOverAllowance, "over the rate limit: wait retryAfter seconds; COST_OVER_ALLOWANCE (no retryAfter): the request alone costs more than the whole allowance")
		add(500, errcode.Internal+", "+errcode.Database, "an unexpected or storage error")
		add(503, errcode.Unavailable, "the route needed the database (an API key, a session's account, stored data) and this node has not reached it since it started; retryAfter and Retry-After say when to retry")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Status < out[j].Status })
	return out
}

// paramFormat is the format of a query parameter of JSON Schema type typ.
func paramFormat(typ string) string {
	switch typ {
	case "number":
		return "double"
	case "integer":
		return "int64"
	}
	return ""
}

func accessNote(a Access) string {
	switch a {
	case Public:
		return "\n\nPublic: no credentials needed (anonymous rate limit per IP); credentials that are sent must be valid, and API keys are accepted."
	case Session:
		return "\n\nNeeds a session token or cookie; API keys are refused (403 FORBIDDEN)."
	case Pro:
		return "\n\nNeeds authentication and the pro tier; API keys are accepted and act with their owner's tier."
	case Admin:
		return "\n\nNeeds authentication and role admin; API keys are accepted but never carry role admin, so only a session can call it."
	case Probe:
		return "\n\nA health check: open to anyone and never rate limited; no credentials are read (any sent, API keys included, are ignored)."
	}
	return "\n\nNeeds authentication by session token, cookie or API key; API keys are accepted."
}

func operationID(r *Route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(r.Method))
	for _, seg := range strings.Split(strings.TrimPrefix(r.Path, "/api/v1"), "/") {
		seg = strings.Trim(seg, "{}")
		for _, part := range strings.FieldsFunc(seg, func(c rune) bool { return c == '-' || c == '.' }) {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func httpText(status int) string {
	switch status {
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 204:
		return "No Content"
	}
	return strconv.Itoa(status)
}
