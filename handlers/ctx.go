package handlers

import (
	"strconv"
	"sync"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/schema"
)

// Ctx is one request in flight. It is pooled: nothing may keep a Ctx, its
// RequestCtx or any byte slice from either past the handler call.
type Ctx struct {
	RC *fasthttp.RequestCtx
	// Principal is the authenticated caller; valid when Authed.
	Principal auth.Principal
	Authed    bool

	s      *Server
	route  *route
	params params
	w      jsonw.Writer
	res    schema.Result
	start  time.Time
	status int
	code   string // error code sent, for the access log
	num    [24]byte
	id     [40]byte
	idLen  int
}

// maxPooledBody is the largest writer buffer a released Ctx keeps.
const maxPooledBody = 1 << 20

// poolable returns b emptied, or a fresh buffer when b is so large that
// one outsized body would pin it in the pool.
func poolable(b []byte) []byte {
	if cap(b) > maxPooledBody {
		return make([]byte, 0, 4096)
	}
	return b[:0]
}

var ctxPool = sync.Pool{New: func() any { return &Ctx{w: jsonw.Writer{B: make([]byte, 0, 4096)}} }}

func acquireCtx(s *Server, rc *fasthttp.RequestCtx) *Ctx {
	c := ctxPool.Get().(*Ctx)
	c.RC, c.s = rc, s
	c.start = s.now()
	return c
}

func releaseCtx(c *Ctx) {
	c.RC, c.s, c.route = nil, nil, nil
	c.Principal, c.Authed = auth.Principal{}, false
	c.params = params{}
	c.status, c.code, c.idLen = 0, "", 0
	c.w.Reset()
	c.w.B = poolable(c.w.B)
	ctxPool.Put(c)
}

// Param returns a path parameter; the bytes are valid during the request.
func (c *Ctx) Param(name string) []byte { return c.params.get(name) }

// Begin starts a success envelope and returns the writer positioned where
// the data value goes. Finish the response with Send or SendList.
func (c *Ctx) Begin() *jsonw.Writer {
	c.w.Reset()
	c.w.B = append(c.w.B, `{"success":true,"data":`...)
	return &c.w
}

// Send completes the envelope begun with Begin and sends it with status.
func (c *Ctx) Send(status int) {
	c.w.B = append(c.w.B, '}')
	c.flush(status)
}

// SendList completes a list envelope with its paging metadata.
func (c *Ctx) SendList(status, total, limit, offset int) {
	b := append(c.w.B, `,"meta":{"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(limit), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(offset), 10)
	c.w.B = append(b, "}}"...)
	c.flush(status)
}

// JSON sends v, encoded with go-json, as the data of a success envelope.
// It is for cold paths; hot paths write with Begin.
func (c *Ctx) JSON(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.Internal(err)
		return
	}
	c.Begin().Raw(b)
	c.Send(status)
}

// NoContent sends 204 with an empty body.
func (c *Ctx) NoContent() {
	c.status = fasthttp.StatusNoContent
	c.RC.Response.ResetBody()
	c.RC.SetStatusCode(fasthttp.StatusNoContent)
}

// flush copies the built body into fasthttp's response buffer. Swapping
// the buffers instead would save the copy but hand the writer's grown
// buffer to fasthttp's body pool, which keeps only buffers of the usual
// response size: behind a run of small responses, every large one (an FI
// timeline, an optimize ranking) then regrew its buffer from scratch, about
// 150 KB in 13 allocations for a 32 KB body. Copying keeps the capacity
// with the pooled Ctx; fasthttp's buffer grows at most once.
func (c *Ctx) flush(status int) {
	c.status = status
	c.RC.SetStatusCode(status)
	c.RC.Response.Header.SetContentTypeBytes(contentJSON)
	c.RC.Response.SetBody(c.w.B)
	c.w.Reset()
}

var contentJSON = []byte("application/json")

// Error codes, short names for the errcode list.
const (
	CodeUnauthorized         = errcode.Unauthorized
	CodeTokenExpired         = errcode.TokenExpired
	CodeForbidden            = errcode.Forbidden
	CodeSubscriptionRequired = errcode.SubscriptionRequired
	CodeNotFound             = errcode.NotFound
	CodeEndpointNotFound     = errcode.EndpointNotFound
	CodeMethodNotAllowed     = errcode.MethodNotAllowed
	CodeConflict             = errcode.Conflict
	CodePayloadTooLarge      = errcode.PayloadTooLarge
	CodeRateLimited          = errcode.RateLimited
	CodeInternal             = errcode.Internal
	CodeDatabase             = errcode.Database
	CodeUnavailable          = errcode.Unavailable
)

// Error sends the error envelope.
func (c *Ctx) Error(status int, code, msg string) {
	c.errorStart(code, msg)
	c.w.End()
	c.flush(status)
}

func (c *Ctx) errorStart(code, msg string) {
	c.code = code
	c.w.Reset()
	c.w.Begin()
	c.w.Key("success")
	c.w.Bool(false)
	c.w.Key("error")
	c.w.String(msg)
	c.w.Key("code")
	c.w.String(code)
}

// ErrorMessage sends the error envelope with the spec's optional message.
func (c *Ctx) ErrorMessage(status int, code, msg, message string) {
	c.errorStart(code, msg)
	c.w.Key("message")
	c.w.String(message)
	c.w.End()
	c.flush(status)
}

// Invalid sends the outcome of a failed schema decode.
func (c *Ctx) Invalid(r *schema.Result) {
	c.errorStart(r.Code, r.Error)
	if len(r.Details) > 0 {
		c.w.Key("details")
		c.w.BeginArray()
		for _, d := range r.Details {
			c.w.Begin()
			c.w.Key("path")
			c.w.String(d.Path)
			c.w.Key("message")
			c.w.String(d.Message)
			c.w.End()
		}
		c.w.EndArray()
	}
	c.w.End()
	c.flush(fasthttp.StatusBadRequest)
}

// Fail sends a validation error for one field, for checks a schema cannot
// express (a query parameter, a cross-field rule).
func (c *Ctx) Fail(path, msg string) {
	c.res.Reset()
	c.res.Code = errcode.Validation
	c.res.Error = "request failed validation"
	c.res.Details = append(c.res.Details, schema.Detail{Path: path, Message: msg})
	c.Invalid(&c.res)
}

// Internal logs err and sends 500 INTERNAL_ERROR with nothing internal.
func (c *Ctx) Internal(err error) {
	c.s.log.Error("internal error", "err", err, "requestId", string(c.id[:c.idLen]))
	c.Error(fasthttp.StatusInternalServerError, CodeInternal, "internal error; retry after a moment")
}

// Storage logs err and sends 500 DATABASE_ERROR.
func (c *Ctx) Storage(err error) {
	c.s.log.Error("storage error", "err", err, "requestId", string(c.id[:c.idLen]))
	c.Error(fasthttp.StatusInternalServerError, CodeDatabase, "database operation failed; retry")
}

// decode reads the request body into dst with s; on failure it has sent
// the 400 and returns false.
func decode[T any](c *Ctx, s *schema.Schema[T], dst *T) bool {
	if s.Decode(c.RC.Request.Body(), dst, &c.res) {
		return true
	}
	c.Invalid(&c.res)
	return false
}
