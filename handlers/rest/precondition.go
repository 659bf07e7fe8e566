package rest

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/valyala/fasthttp"
)

// Stored documents (the profile, an asset, ...) carry a strong entity tag,
// a hash of the data the route answers, so a client can make its write
// conditional: with If-Match naming the tag it read, the write happens only
// when no other write came first (RFC 9110, 13.1.1). The handler evaluates
// the condition inside the store's write transaction, against the stored
// version, so of two writers holding the same tag exactly one wins.

// Tag appends to dst the strong entity tag of a document whose data is
// data: 128 bits of its SHA-256, quoted.
func Tag(dst, data []byte) []byte {
	sum := sha256.Sum256(data)
	dst = append(dst, '"')
	dst = base64.RawURLEncoding.AppendEncode(dst, sum[:16])
	return append(dst, '"')
}

// SetETag sets the response's ETag to tag, a quoted entity tag. A
// compressed answer carries it with the content coding appended, as the
// prebuilt bodies do; If-Match accepts either form.
func (c *Ctx) SetETag(tag []byte) {
	c.RC.Response.Header.SetBytesV(fasthttp.HeaderETag, tag)
}

// Precondition is a request's If-Match header, copied out of the request
// so that it can be evaluated inside a store transaction.
type Precondition struct {
	set  bool
	list string // the header's values, comma-joined
}

// IfMatch reads the request's If-Match headers.
func IfMatch(c *Ctx) Precondition {
	var p Precondition
	for _, v := range c.RC.Request.Header.PeekAll(fasthttp.HeaderIfMatch) {
		if p.set {
			p.list += ","
		}
		p.set = true
		p.list += string(v)
	}
	return p
}

// Set reports whether the request sent If-Match.
func (p Precondition) Set() bool { return p.set }

// Holds reports whether the condition holds for the current document,
// whose tag is tag: no If-Match; "*" (there is a current document); or one
// of the listed tags, compared strongly (a weak tag never matches), equal
// to tag or to tag with a content coding appended.
func (p Precondition) Holds(tag []byte) bool {
	if !p.set {
		return true
	}
	list := p.list
	for len(list) > 0 {
		t, rest, _ := strings.Cut(list, ",")
		list = rest
		t = strings.TrimSpace(t)
		if t == "*" || sameTag(t, tag) {
			return true
		}
	}
	return false
}

// sameTag reports whether t names tag itself or one of its compressed
// forms, tag's opaque part followed by "-" and a coding name.
func sameTag(t string, tag []byte) bool {
	if t == string(tag) {
		return true
	}
	if len(tag) < 2 || len(t) <= len(tag) || t[:len(tag)-1] != string(tag[:len(tag)-1]) || t[len(t)-1] != '"' {
		return false
	}
	suffix := t[len(tag)-1 : len(t)-1]
	for _, name := range codingNames[1:] {
		if len(suffix) == len(name)+1 && suffix[0] == '-' && suffix[1:] == string(name) {
			return true
		}
	}
	return false
}
