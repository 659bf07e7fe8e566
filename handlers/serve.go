package handlers

import (
	"errors"
	"net"
	"strconv"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/limit"
	"fiplan/handlers/mcp"
	"fiplan/handlers/rest"
)

// Serve is the fasthttp request handler.
func (s *Server) Serve(rc *fasthttp.RequestCtx) {
	bodyErr := loadBody(&rc.Request, s.cfg.MaxBody)
	// A request framed in a way that could smuggle another, or whose path
	// walks up or hides a slash, gets the API's 400 wherever it goes.
	sane := bodyErr == nil && framing(&rc.Request.Header) == "" && pathTrick(rc.Request.URI().PathOriginal()) == ""
	if sane && s.mcp != nil && mcp.Serves(rc.Path()) {
		s.serveMCP(rc)
		return
	}
	// The web app serves every path outside /api/ but the probes.
	if sane && s.cfg.Web != nil && !apiPath(rc.Path()) {
		s.serveWeb(rc)
		return
	}
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	defer s.finish(c)
	s.begin(c)
	c.SetClient(limit.AddrKey(s.clientIP(c), s.cfg.RateIPv6Prefix))
	if msg := framing(&rc.Request.Header); msg != "" {
		rc.SetConnectionClose() // what follows on the connection cannot be trusted
		c.Error(errcode.BadRequest, msg)
		return
	}
	if bodyErr != nil {
		s.bodyError(c, bodyErr)
		return
	}
	if msg := pathTrick(rc.Request.URI().PathOriginal()); msg != "" {
		c.Error(errcode.BadRequest, msg)
		return
	}
	if len(rc.Request.Header.RequestURI()) > maxURI {
		c.Error(errcode.URITooLong, msgURITooLong)
		return
	}
	if len(rc.Request.Header.RawHeaders()) > maxHeaders {
		c.Error(errcode.HeaderTooLarge, msgHeadersSize)
		return
	}
	n := s.router.Lookup(rc.Path(), c.Params())
	if n == nil {
		c.Error(errcode.EndpointNotFound, "no such endpoint")
		return
	}
	if rc.IsOptions() {
		s.options(c, n)
		return
	}
	r := n.Route(rc.Method())
	if r == nil {
		rc.Response.Header.Set(fasthttp.HeaderAllow, n.Allow())
		c.Error(errcode.MethodNotAllowed, "method not allowed; see the Allow header")
		return
	}
	c.SetRoute(r)
	if !s.authenticate(c) || !s.limit(c) {
		return
	}
	if len(rc.Request.Body()) > s.cfg.MaxBody {
		c.Error(errcode.PayloadTooLarge, "request body is larger than "+strconv.Itoa(s.cfg.MaxBody)+" bytes")
		return
	}
	if !c.CheckPath() || !mediaType(c, r.Doc.CSVBody, r.Doc.FormBody) || !c.CheckQuery() {
		return
	}
	s.handle(c, r)
}

// The request head's limits. fasthttp reads the request line and headers
// into one buffer of readBuffer bytes and cannot say which part overflowed
// it; within it, Serve holds the URI to maxURI (414) and the header block to
// maxHeaders (431).
const (
	maxURI     = 8 << 10
	maxHeaders = 8 << 10
	readBuffer = maxURI + maxHeaders
)

var (
	msgURITooLong  = "the request URI is longer than " + strconv.Itoa(maxURI) + " bytes"
	msgHeadersSize = "the request headers are larger than " + strconv.Itoa(maxHeaders) + " bytes"
	msgHeadTooBig  = "the request line and headers together are larger than " + strconv.Itoa(readBuffer) + " bytes (at most " + strconv.Itoa(maxURI) + " for the URI and " + strconv.Itoa(maxHeaders) + " for the headers)"
)

// serveError answers requests that fasthttp could not read.
func (s *Server) serveError(rc *fasthttp.RequestCtx, err error) {
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	s.begin(c)
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		s.bodyError(c, err)
	case errors.As(err, &small):
		c.Error(errcode.HeaderTooLarge, msgHeadTooBig)
	case isTimeout(err):
		// Typically a browser's preconnected socket that stayed idle past
		// ReadTimeout. 408 with Connection: close makes the browser send
		// its next request on a new connection; a 400 here would be read
		// as the answer to whatever it sends on this socket next.
		c.RC.SetConnectionClose()
		c.Error(errcode.RequestTimeout, "no complete request arrived in time")
	default:
		c.Error(errcode.BadRequest, "malformed HTTP request")
	}
	s.observe(c, s.now().Sub(c.Start()))
	s.accessLog(c)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

var (
	headerNoSniff = []byte("X-Content-Type-Options")
	valueNoSniff  = []byte("nosniff")
)

// begin sets what every response carries: the request id, nosniff so
// that no browser reads a JSON body as anything else, and the CORS grant
// when the request comes from an allowed origin.
func (s *Server) begin(c *rest.Ctx) {
	s.requestID(c)
	h := &c.RC.Response.Header
	h.SetCanonical(headerNoSniff, valueNoSniff)
	if len(s.cfg.CORSOrigins) == 0 {
		return
	}
	h.SetCanonical(headerVary, valueOrigin) // the answer depends on Origin
	if s.corsOrigin(c) {
		h.SetCanonical(headerACAO, c.RC.Request.Header.Peek("Origin"))
		h.SetCanonical(headerACEH, valueExposed)
	}
}
