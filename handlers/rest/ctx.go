package rest

import (
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
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

	route  *Route
	params Params
	w      jsonw.Writer
	z      sink // a compressed body
	res    schema.Result
	log    *slog.Logger
	start  time.Time
	status int
	code   string // error code sent, for the access log
	num    [24]byte
	id     [40]byte
	idLen  int
	trace  Trace
	client [16]byte
	keeper Keeper // the request's Idempotency-Key, when it has one
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

// AcquireCtx returns a Ctx for rc from the pool; log receives what
// Internal and Storage report. Give it back with ReleaseCtx.
func AcquireCtx(rc *fasthttp.RequestCtx, log *slog.Logger, start time.Time) *Ctx {
	c := ctxPool.Get().(*Ctx)
	c.RC, c.log, c.start = rc, log, start
	return c
}

// ReleaseCtx returns c to the pool.
func ReleaseCtx(c *Ctx) {
	c.RC, c.log, c.route = nil, nil, nil
	c.Principal, c.Authed = auth.Principal{}, false
	c.params = Params{}
	c.status, c.code, c.idLen, c.client = 0, "", 0, [16]byte{}
	c.trace = Trace{}
	c.keeper = nil
	c.w.Reset()
	c.w.B = poolable(c.w.B)
	c.z.b = poolable(c.z.b)
	ctxPool.Put(c)
}

// Route is the operation being served, nil before routing.
func (c *Ctx) Route() *Route { return c.route }

// SetRoute records the operation the router found.
func (c *Ctx) SetRoute(r *Route) { c.route = r }

// Params receives the path parameters of the route being looked up.
func (c *Ctx) Params() *Params { return &c.params }

// Param returns a path parameter; the bytes are valid during the request.
func (c *Ctx) Param(name string) []byte { return c.params.get(name) }

// Client is the client's address (IPv4 mapped into IPv6), as the server
// resolved it, trusted proxies considered, and as anonymous clients are
// counted: an IPv6 address cut to its network (see limit.AddrKey).
func (c *Ctx) Client() [16]byte { return c.client }

// SetClient records the client's address, or its network's.
func (c *Ctx) SetClient(a [16]byte) { c.client = a }

// Start is when the request began.
func (c *Ctx) Start() time.Time { return c.start }

// Status is the status sent so far, 0 before a response.
func (c *Ctx) Status() int { return c.status }

// Code is the error code sent, "" on success.
func (c *Ctx) Code() string { return c.code }

// SetRequestID sets the request id and its response header.
func (c *Ctx) SetRequestID(id []byte) {
	c.idLen = copy(c.id[:], id)
	c.RC.Response.Header.SetBytesV("X-Request-ID", c.id[:c.idLen])
}

// RequestID is the request's id; the bytes are valid during the request.
func (c *Ctx) RequestID() []byte { return c.id[:c.idLen] }

// IDBuffer is scratch space to build a request id in.
func (c *Ctx) IDBuffer() []byte { return c.id[:0] }

// SetHeaderInt sets a response header to a decimal integer without
// allocating.
func (c *Ctx) SetHeaderInt(name string, v int64) {
	c.RC.Response.Header.SetBytesV(name, strconv.AppendInt(c.num[:0], v, 10))
}

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
	c.w.B = AppendMeta(c.w.B, total, limit, offset)
	c.w.B = append(c.w.B, '}')
	c.flush(status)
}

// AppendMeta appends the list envelope's `,"meta":{...}` member.
func AppendMeta(b []byte, total, limit, offset int) []byte {
	b = append(b, `,"meta":{"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(limit), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(offset), 10)
	return append(b, '}')
}

// SendBody sends a complete, prebuilt response body with status,
// compressed when the request asks for it and the body is large enough.
// body must stay unchanged for the server's life (it is not copied).
func (c *Ctx) SendBody(status int, body []byte) {
	c.SendBodyAs(status, "", body)
}

// SendBodyAs is SendBody for a body of another media type than JSON,
// such as "text/csv; charset=utf-8"; an empty contentType is JSON.
func (c *Ctx) SendBodyAs(status int, contentType string, body []byte) {
	c.send(status, contentType, body, false)
}

// SendCopy is SendBodyAs for a body the caller reuses once the call
// returns: the response keeps a copy, in fasthttp's pooled buffer.
func (c *Ctx) SendCopy(status int, contentType string, body []byte) {
	c.send(status, contentType, body, true)
}

// send answers body with status, compressed when it is JSON and the
// request asks for it; copied into the response when copyBody is set, else
// kept as it is.
func (c *Ctx) send(status int, contentType string, body []byte, copyBody bool) {
	if contentType == "" && c.compressed(status, body) {
		return
	}
	c.status = status
	c.RC.SetStatusCode(status)
	setContentType(&c.RC.Response.Header, contentType)
	if copyBody {
		c.RC.Response.SetBody(body)
	} else {
		c.RC.Response.SetBodyRaw(body)
	}
}

// setContentType sets contentType, JSON when it is empty.
func setContentType(h *fasthttp.ResponseHeader, contentType string) {
	if contentType == "" {
		h.SetContentTypeBytes(contentJSON)
	} else {
		h.SetContentType(contentType)
	}
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
	c.send(status, "", c.w.B, true)
	c.w.Reset()
}

var contentJSON = []byte("application/json")

// compressed sends body compressed in the coding the request prefers and
// reports whether it did; it does not for a body under CompressMin, for a
// request that takes no coding the server has, or when the coding would
// not make the body smaller. The compressed bytes are built in the Ctx's
// own buffer, which stays with the pooled Ctx like the writer's.
func (c *Ctx) compressed(status int, body []byte) bool {
	if len(body) < CompressMin {
		return false
	}
	c.RC.Response.Header.Set(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
	cd := acceptEncoding(c.RC.Request.Header.Peek(fasthttp.HeaderAcceptEncoding))
	if cd == identity {
		return false
	}
	c.z.b = c.z.b[:0]
	compress(&c.z, cd, body)
	if len(c.z.b) >= len(body) {
		return false
	}
	c.status = status
	c.RC.SetStatusCode(status)
	c.RC.Response.Header.SetContentTypeBytes(contentJSON)
	c.RC.Response.Header.SetContentEncodingBytes(codingNames[cd])
	if tag := c.RC.Response.Header.Peek(fasthttp.HeaderETag); len(tag) >= 2 && tag[len(tag)-1] == '"' {
		// Another representation, another strong tag.
		var b [64]byte
		coded := append(append(append(b[:0], tag[:len(tag)-1]...), '-'), codingNames[cd]...)
		c.RC.Response.Header.SetBytesV(fasthttp.HeaderETag, append(coded, '"'))
	}
	c.RC.Response.SetBody(c.z.b)
	return true
}

// Error sends the error envelope; status is the code's own.
func (c *Ctx) Error(code, msg string) {
	c.errorStart(code, msg)
	c.w.End()
	c.flush(errcode.Status(code))
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

// ErrorMessage sends the error envelope with the optional message.
func (c *Ctx) ErrorMessage(code, msg, message string) {
	c.errorStart(code, msg)
	c.w.Key("message")
	c.w.String(message)
	c.w.End()
	c.flush(errcode.Status(code))
}

// RateLimited sends 429 RATE_LIMITED with retryAfter and Retry-After.
func (c *Ctx) RateLimited(retryAfter int) {
	c.SetHeaderInt(fasthttp.HeaderRetryAfter, int64(retryAfter))
	c.errorStart(errcode.RateLimited, "too many requests; retry after retryAfter seconds")
	c.w.Key("retryAfter")
	c.w.Int(int64(retryAfter))
	c.w.End()
	c.flush(fasthttp.StatusTooManyRequests)
}

// OverAllowance sends 429 COST_OVER_ALLOWANCE: the request costs cost
// units, more than the caller's whole allowance of limit, so no wait would
// admit it; there is no retryAfter and no Retry-After.
func (c *Ctx) OverAllowance(cost, limit int) {
	c.errorStart(errcode.CostOverAllowance, "this request costs "+strconv.Itoa(cost)+" units of the rate limit, more than your tier's whole allowance of "+strconv.Itoa(limit)+"; no wait will admit it")
	c.w.Key("message")
	c.w.String("ask for less work (fewer Monte Carlo simulations, years, accounts or rows), or use a tier with a larger allowance")
	c.w.End()
	c.flush(fasthttp.StatusTooManyRequests)
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

// Result is scratch space for a decode whose outcome the handler judges
// before sending (a merge patch).
func (c *Ctx) Result() *schema.Result { return &c.res }

// Internal logs err and sends 500 INTERNAL_ERROR with nothing internal.
func (c *Ctx) Internal(err error) {
	c.log.Error("internal error", "err", err, "requestId", string(c.RequestID()), "trace", string(c.trace.ID[:]))
	c.Error(errcode.Internal, "internal error; retry after a moment")
}

// Storage logs err and sends 500 DATABASE_ERROR; an error that says when
// to retry (a store that has not reached its database since start, or
// whose circuit breaker is open) is
// 503 SERVICE_UNAVAILABLE with Retry-After instead, and is not logged per
// request; a create refused because its Idempotency-Key was used
// (*store.KeyUsed) replays the answer kept under the key.
func (c *Ctx) Storage(err error) {
	if c.replayed(err) {
		return
	}
	var later retryLater
	if errors.As(err, &later) {
		msg := "the database does not answer (this node stopped asking it for a moment); retry after retryAfter seconds"
		if errors.Is(err, store.ErrUnavailable) {
			msg = "the database has not been reached since this node started; retry after retryAfter seconds"
		}
		c.Unavailable(later.RetryAfter(), msg)
		return
	}
	c.log.Error("storage error", "err", err, "requestId", string(c.RequestID()), "trace", string(c.trace.ID[:]))
	c.Error(errcode.Database, "database operation failed; retry")
}

// retryLater is an error that says how many seconds to wait before
// retrying (store.ErrUnavailable).
type retryLater interface {
	error
	RetryAfter() int
}

// Decode reads the request body into dst with s; on failure it has sent
// the 400 and returns false.
func Decode[T any](c *Ctx, s *schema.Schema[T], dst *T) bool {
	if s.Decode(c.RC.Request.Body(), dst, &c.res) {
		return true
	}
	c.Invalid(&c.res)
	return false
}

// FailMissing sends 400 MISSING_FIELD for one field a cross-field rule
// requires; msg is the envelope's error text, detail the field's message.
func (c *Ctx) FailMissing(path, msg, detail string) {
	c.res.Reset()
	c.res.Code = errcode.Missing
	c.res.Error = msg
	c.res.Details = append(c.res.Details, schema.Detail{Path: path, Message: detail})
	c.Invalid(&c.res)
}
