package handlers

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/valyala/bytebufferpool"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// bodies are the buffers loadBody reads into before the request takes a
// copy.
var bodies bytebufferpool.Pool

// loadBody reads a streamed request body (the server sets
// StreamRequestBody) into req, so that every handler after it sees the
// whole body. Memory grows with what has arrived, never with what
// Content-Length announces: a declared length over max is refused before
// reading, and a chunked body at the first byte past max. The connection's
// read deadline (ReadTimeout, from the start of the request) bounds a
// client that stops sending.
func loadBody(req *fasthttp.Request, max int) error {
	st := req.BodyStream()
	if st == nil {
		return nil
	}
	if req.Header.ContentLength() > max {
		return fasthttp.ErrBodyTooLarge
	}
	buf := bodies.Get()
	defer bodies.Put(buf)
	b := buf.B[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grows by doubling, from what arrived
		}
		n, err := st.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > max {
			buf.B = b
			return fasthttp.ErrBodyTooLarge
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			buf.B = b
			return err
		}
	}
	buf.B = b
	req.SetBody(b) // copies, and closes the stream
	return nil
}

// bodyError answers a request whose body could not be read: 413 past the
// limit, 408 when the client stopped sending, else 400. The connection is
// closed after the answer, since the rest of the body is unread.
func (s *Server) bodyError(c *rest.Ctx, err error) {
	rc := c.RC
	rc.SetConnectionClose()
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		c.Error(errcode.PayloadTooLarge, "request body is larger than "+strconv.Itoa(s.cfg.MaxBody)+" bytes")
		if !bytes.EqualFold(rc.Request.Header.Peek(fasthttp.HeaderExpect), []byte("100-continue")) {
			drain(rc.Conn(), rc.Request.Header.ContentLength()) // the body is on its way
		}
	case isTimeout(err):
		c.Error(errcode.RequestTimeout, "the request body did not arrive in time")
	default:
		c.Error(errcode.BadRequest, "the request body is malformed")
	}
}

// expect answers Expect: 100-continue: a declared body over the limit gets
// its 413 at once, before the client sends it; any other goes on.
func (s *Server) expect(rc *fasthttp.RequestCtx) int {
	if rc.Request.Header.ContentLength() <= s.cfg.MaxBody {
		return fasthttp.StatusContinue
	}
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	s.begin(c)
	c.Error(errcode.PayloadTooLarge, "request body is larger than "+strconv.Itoa(s.cfg.MaxBody)+" bytes")
	s.observe(c, s.now().Sub(c.Start()))
	s.accessLog(c)
	return fasthttp.StatusRequestEntityTooLarge
}
