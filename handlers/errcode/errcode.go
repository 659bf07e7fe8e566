// Package errcode is the one list of the API's machine-readable error
// codes, each with the HTTP status it is always sent with and when it is
// sent. The error envelope, the schema decoder, the OpenAPI document and
// the README's table all read this list; no code is spelt anywhere else.
package errcode

// The codes. A response's `code` field carries one of them.
const (
	InvalidJSON          = "INVALID_JSON"
	Validation           = "VALIDATION_ERROR"
	Missing              = "MISSING_FIELD"
	Unauthorized         = "UNAUTHORIZED"
	TokenExpired         = "TOKEN_EXPIRED"
	Forbidden            = "FORBIDDEN"
	SubscriptionRequired = "SUBSCRIPTION_REQUIRED"
	NotFound             = "NOT_FOUND"
	EndpointNotFound     = "ENDPOINT_NOT_FOUND"
	MethodNotAllowed     = "METHOD_NOT_ALLOWED"
	Conflict             = "CONFLICT"
	PreconditionFailed   = "PRECONDITION_FAILED"
	PayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	URITooLong           = "URI_TOO_LONG"
	UnsupportedMedia     = "UNSUPPORTED_MEDIA_TYPE"
	RateLimited          = "RATE_LIMITED"
	CostOverAllowance    = "COST_OVER_ALLOWANCE"
	HeaderTooLarge       = "HEADER_TOO_LARGE"
	BadRequest           = "BAD_REQUEST"
	RequestTimeout       = "REQUEST_TIMEOUT"
	Internal             = "INTERNAL_ERROR"
	Database             = "DATABASE_ERROR"
	Unavailable          = "SERVICE_UNAVAILABLE"
)

// Code describes one error code.
type Code struct {
	Code   string
	Status int
	When   string
}

// codes lists every code in the order the documentation shows them.
var codes = [...]Code{
	{InvalidJSON, 400, "the body is not one well-formed JSON value (empty, trailing data, invalid UTF-8)"},
	{Validation, 400, "wrong JSON type, out-of-range value, a string holding U+0000, unknown or duplicated field or query parameter, a path id outside its grammar (asset `ast_`, plan `pln_` and key `key_` plus 26 of `a-z2-7`, city slug `lisbon-pt`, program `pt-nhr`, flag key); `details` names each"},
	{Missing, 400, "a required field is absent (wins over VALIDATION_ERROR)"},
	{BadRequest, 400, "the HTTP message itself is malformed or ambiguously framed (an HTTP version other than 1.0 and 1.1, Transfer-Encoding other than chunked or with Content-Length, a body cut short), its path has a dot segment or an encoded slash, backslash or dot, or its Host names a host the server does not answer for"},
	{Unauthorized, 401, "missing, malformed or invalid credentials, revoked API key, a session token of a signed-out session; a token without `iat` whose `exp` is more than an hour ahead (\"token lifetime exceeds one hour\")"},
	{TokenExpired, 401, "`exp` has passed, or `iat` is more than an hour ago"},
	{Forbidden, 403, "admin-only route, API key on a session-only route, cookie request without a matching Origin"},
	{SubscriptionRequired, 403, "pro-only route on the free tier"},
	{NotFound, 404, "no such resource (another user's resource looks the same)"},
	{EndpointNotFound, 404, "no such route (decided before authentication)"},
	{MethodNotAllowed, 405, "the route exists with other methods; see `Allow`"},
	{RequestTimeout, 408, "no complete request arrived within the read timeout (the connection is closed)"},
	{Conflict, 409, "duplicate (an asset's ISIN), a limit of stored things reached, or a saved plan that cannot be run from today"},
	{PreconditionFailed, 412, "`If-Match` names no current version of the document (another write came first); read it again, then retry"},
	{PayloadTooLarge, 413, "body over the size limit (1 MiB)"},
	{URITooLong, 414, "the request URI is longer than 8 KiB"},
	{UnsupportedMedia, 415, "a POST, PUT or PATCH whose Content-Type is not `application/json` (charset allowed), or with a Content-Encoding"},
	{RateLimited, 429, "over the limit; `retryAfter` and `Retry-After` say how long to wait"},
	{CostOverAllowance, 429, "the request alone costs more units than the caller's whole allowance (an expensive request, or an MCP batch), so no wait admits it: there is no `retryAfter`; ask for less work or use a tier with a larger allowance"},
	{HeaderTooLarge, 431, "the headers are larger than 8 KiB, the Authorization header than 4 KiB, or the request line and headers together than 16 KiB"},
	{Internal, 500, "unexpected; retry after a moment"},
	{Database, 500, "storage failed; retry"},
	{Unavailable, 503, "storage unusable (status, readyz), the database not reached since the node started, Monte Carlo asked of the calculator while the `calculator-monte-carlo` flag switches it off, or too many expensive requests at once (`retryAfter` and `Retry-After` say when); retry later"},
}

// All lists every code in the order the documentation shows them; the
// slice is the caller's.
func All() []Code { return append([]Code(nil), codes[:]...) }

// Status is the HTTP status code is sent with, or 0 for an unknown code.
func Status(code string) int {
	for i := range codes {
		if c := &codes[i]; c.Code == code {
			return c.Status
		}
	}
	return 0
}
