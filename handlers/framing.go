package handlers

import (
	"bytes"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// framing refuses the request shapes RFC 9112 leaves ambiguous or that
// request smuggling relies on: an HTTP version other than 1.0 and 1.1,
// Transfer-Encoding other than one "chunked", and Transfer-Encoding
// together with Content-Length. fasthttp refuses the rest (a repeated or
// unknown transfer coding, Transfer-Encoding in HTTP/1.0, two
// Content-Lengths) before the handler. It reads the raw header block, since
// fasthttp drops Content-Length when the body is chunked.
func framing(h *fasthttp.RequestHeader) string {
	if p := h.Protocol(); string(p) != "HTTP/1.1" && string(p) != "HTTP/1.0" {
		return "unsupported HTTP version: send HTTP/1.1 or HTTP/1.0"
	}
	raw := h.RawHeaders()
	te, cl := false, false
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		name = trimSpace(name)
		switch {
		case bytes.EqualFold(name, nameTransferEncoding):
			if te || !bytes.EqualFold(trimSpace(bytes.TrimSuffix(value, []byte{'\r'})), valueChunked) {
				return "Transfer-Encoding other than one \"chunked\" is not accepted"
			}
			te = true
		case bytes.EqualFold(name, nameContentLength):
			cl = true
		}
	}
	if te && cl {
		return "Transfer-Encoding and Content-Length together are ambiguous: send one"
	}
	return ""
}

// pathTrick refuses a request path, as the client sent it, that means
// something else once decoded and normalised: a dot segment ("/./",
// "/../"), an encoded slash, backslash or dot, or a backslash. The router
// sees the decoded, normalised path, so "/api/v1/geo/cities/..%2fuser"
// would otherwise reach /api/v1/user; no route needs any of these.
func pathTrick(p []byte) string {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			return msgPathTrick
		case '%':
			if i+2 < len(p) && (p[i+1] == '2' && (p[i+2] == 'f' || p[i+2] == 'F' || p[i+2] == 'e' || p[i+2] == 'E') ||
				p[i+1] == '5' && (p[i+2] == 'c' || p[i+2] == 'C')) {
				return msgPathTrick
			}
		case '.':
			if (i == 0 || p[i-1] == '/') && (i+1 == len(p) || p[i+1] == '/' ||
				p[i+1] == '.' && (i+2 == len(p) || p[i+2] == '/')) {
				return msgPathTrick
			}
		}
	}
	return ""
}

const msgPathTrick = "the path must not contain dot segments, backslashes or encoded slashes, backslashes or dots"

// mediaType accepts a POST, PUT or PATCH body only as JSON: a Content-Type
// other than application/json (parameters such as charset allowed; a PATCH
// may also say application/merge-patch+json) or any Content-Encoding but
// identity is 415. A request without Content-Type is read as JSON; without
// a body too, the route judges the empty body. A route that takes CSV
// (csv) accepts text/csv as well.
func mediaType(c *rest.Ctx, csv, form bool) bool {
	h := &c.RC.Request.Header
	m := h.Method()
	if string(m) != "POST" && string(m) != "PUT" && string(m) != "PATCH" {
		return true
	}
	for _, ce := range h.PeekAll(fasthttp.HeaderContentEncoding) {
		if !bytes.EqualFold(trimSpace(ce), valueIdentity) {
			c.Error(errcode.UnsupportedMedia, "Content-Encoding is not supported: send the body unencoded")
			return false
		}
	}
	ct := h.ContentType()
	if i := bytes.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = trimSpace(ct)
	if len(ct) == 0 || bytes.EqualFold(ct, typeJSON) || (string(m) == "PATCH" && bytes.EqualFold(ct, typeMergePatch)) ||
		csv && bytes.EqualFold(ct, typeCSV) || form && (bytes.EqualFold(ct, typeForm) || bytes.EqualFold(ct, typeMultipart)) {
		return true
	}
	c.Error(errcode.UnsupportedMedia, "Content-Type must be application/json")
	return false
}

var (
	typeCSV       = []byte("text/csv")
	typeForm      = []byte("application/x-www-form-urlencoded")
	typeMultipart = []byte("multipart/form-data")
)

var (
	nameTransferEncoding = []byte("transfer-encoding")
	nameContentLength    = []byte("content-length")
	valueChunked         = []byte("chunked")
	valueIdentity        = []byte("identity")
	typeJSON             = []byte("application/json")
	typeMergePatch       = []byte("application/merge-patch+json")
)

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
