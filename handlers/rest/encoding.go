package rest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	brotli "github.com/molecule-man/go-brrr"
	"github.com/valyala/fasthttp"
)

// Response compression. A JSON body of at least CompressMin bytes is
// compressed when the request's Accept-Encoding takes zstd, br or gzip
// (q-values honoured: the highest q wins, ties go to zstd, then br, then
// gzip; q=0 refuses a coding, and "*" stands for any coding not named).
// Every response that could have been compressed says Vary: Accept-Encoding.
//
// The threshold and levels come from measuring real responses (bytes out,
// and CPU time per response on one core of a loaded 2-core machine, so the
// ratios matter more than the times; BenchmarkCompression in handlers
// serves the same bodies through the whole chain):
//
//	body (identity bytes)          brotli 1  brotli 3  brotli 4  gzip 1   gzip 5   zstd fastest  zstd default
//	calculator 60 y, 3 scenarios   10.8 KB   10.1 KB   10.1 KB   12.2 KB  11.2 KB  9.9 KB        10.1 KB
//	  (59.5 KB)                    0.25 ms   0.60 ms   0.95 ms   0.25 ms  0.60 ms  0.30 ms       0.50 ms
//	cities, 100 of them            16.7 KB   15.0 KB   14.5 KB   19.0 KB  15.8 KB  14.7 KB       14.9 KB
//	  (89.0 KB)                    0.35 ms   0.75 ms   1.5 ms    0.55 ms  1.0 ms   0.55 ms       0.80 ms
//	tax optimize, US               10.7 KB   9.9 KB    9.5 KB    11.0 KB  9.9 KB   10.3 KB       10.0 KB
//	  (38.5 KB)                    0.20 ms   0.45 ms   0.75 ms   0.25 ms  0.50 ms  0.20 ms       0.55 ms
//
// zstd's fastest level saves as much as anything here for the least CPU,
// so it wins ties. Brotli 3 is 6-10% smaller than brotli 1 and level 4 adds
// little for half as much CPU again; gzip 1 stays within 10-20% of gzip 5
// at half its cost (gzip is the fallback of old clients, which browsers
// are not: they all take br, most take zstd). Brotli's window is 256 KB
// (lgwin 18) rather than its 4 MB default, whose ring buffer cost 420 KB
// of allocation per response; JSON bodies above 256 KB are rare and lose
// little. Under CompressMin the saving is a few hundred bytes, inside the
// packet the response takes anyway, for the cost of an encoder pass (the
// 351-byte status body shrinks by about 100). Bodies fixed for the
// server's life (Static) are compressed once, at each coding's best level.
const CompressMin = 1024

// Levels for bodies compressed per response.
const (
	gzipLevel    = 1
	brotliLevel  = 3
	brotliWindow = 18
)

// coding is a content coding the server can send.
type coding uint8

const (
	identity coding = iota
	codingZstd
	codingBr
	codingGzip
	numCodings
)

var codingNames = [numCodings][]byte{nil, []byte("zstd"), []byte("br"), []byte("gzip")}

// AcceptEncoding picks the coding for a response from the request's
// Accept-Encoding header: the supported coding with the highest q-value
// (ties in the order zstd, br, gzip), identity when none is acceptable.
func acceptEncoding(h []byte) coding {
	var q [numCodings]int // q-values in thousandths; -1 unnamed
	for i := range q {
		q[i] = -1
	}
	star := -1
	for len(h) > 0 {
		var item []byte
		if i := bytes.IndexByte(h, ','); i >= 0 {
			item, h = h[:i], h[i+1:]
		} else {
			item, h = h, nil
		}
		name, params, _ := bytes.Cut(item, []byte{';'})
		name = bytes.TrimSpace(name)
		v := qValue(params)
		switch {
		case len(name) == 1 && name[0] == '*':
			star = v
		case bytes.EqualFold(name, codingNames[codingZstd]):
			q[codingZstd] = v
		case bytes.EqualFold(name, codingNames[codingBr]):
			q[codingBr] = v
		case bytes.EqualFold(name, codingNames[codingGzip]), bytes.EqualFold(name, []byte("x-gzip")):
			q[codingGzip] = v
		}
	}
	best, bestQ := identity, 0
	for c := codingZstd; c < numCodings; c++ {
		v := q[c]
		if v < 0 {
			v = star
		}
		if v > bestQ {
			best, bestQ = c, v
		}
	}
	return best
}

// qValue reads "q=0.5" among a coding's parameters, in thousandths; 1000
// when absent, 0 when malformed (a malformed weight accepts nothing).
func qValue(params []byte) int {
	for len(params) > 0 {
		var p []byte
		p, params, _ = bytes.Cut(params, []byte{';'})
		p = bytes.TrimSpace(p)
		if len(p) < 2 || p[0]|0x20 != 'q' || p[1] != '=' {
			continue
		}
		return parseQ(p[2:])
	}
	return 1000
}

// parseQ parses a weight: "0", "0.xyz", "1" or "1.000" (at most three
// decimals), in thousandths; 0 for anything else.
func parseQ(b []byte) int {
	if len(b) == 0 || len(b) > 5 || (b[0] != '0' && b[0] != '1') {
		return 0
	}
	v := int(b[0]-'0') * 1000
	if len(b) == 1 {
		return v
	}
	if b[1] != '.' {
		return 0
	}
	scale := 100
	for _, d := range b[2:] {
		if d < '0' || d > '9' {
			return 0
		}
		v += int(d-'0') * scale
		scale /= 10
	}
	if v > 1000 {
		return 0
	}
	return v
}

// sink is an io.Writer appending to its buffer.
type sink struct{ b []byte }

func (s *sink) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

var (
	gzipPool   sync.Pool // *gzip.Writer at gzipLevel
	brotliPool sync.Pool // *brotli.Writer at brotliLevel and brotliWindow
	// zstdEnc is shared: EncodeAll is safe for concurrent use and keeps
	// its own pool of encoder states.
	zstdEnc = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithLowerEncoderMem(true))
		if err != nil {
			panic("zstd encoder: " + err.Error()) // only for invalid options
		}
		return e
	})
)

// compress appends body compressed with cd to s, with a pooled encoder.
func compress(s *sink, cd coding, body []byte) {
	switch cd {
	case codingZstd:
		s.b = zstdEnc().EncodeAll(body, s.b)
	case codingBr:
		w, _ := brotliPool.Get().(*brotli.Writer)
		if w == nil {
			w, _ = brotli.NewWriterOptions(s, brotliLevel, brotli.WriterOptions{LGWin: brotliWindow})
		} else {
			w.Reset(s)
		}
		_, _ = w.Write(body) // into s, which never fails
		w.Close()
		w.Reset(nil)
		brotliPool.Put(w)
	case codingGzip:
		w, _ := gzipPool.Get().(*gzip.Writer)
		if w == nil {
			w, _ = gzip.NewWriterLevel(s, gzipLevel)
		} else {
			w.Reset(s)
		}
		_, _ = w.Write(body) // into s, which never fails
		w.Close()
		w.Reset(nil)
		gzipPool.Put(w)
	default:
		s.b = append(s.b, body...)
	}
}

// Static is a response body fixed for the server's life, with its strong
// entity tag and its compressed forms. The tag is the first 128 bits of the
// body's SHA-256; each coding's form has the tag with the coding's name
// appended, since a strong tag names one sequence of bytes. A coding's form
// is made once, at the best level, by the first request that asks for it
// (or by Prepare before it): a server holds hundreds of these bodies (every
// city's detail), and making all of them at start took seconds.
type Static struct {
	body [numCodings][]byte // identity and each coding's form (nil: not smaller)
	etag [numCodings][]byte // quoted
	once [numCodings]sync.Once
}

// NewStatic prepares body (kept, not copied: it must not change).
func NewStatic(body []byte) *Static {
	s := &Static{}
	sum := sha256.Sum256(body)
	tag := base64.RawURLEncoding.AppendEncode([]byte{'"'}, sum[:16])
	s.body[identity] = body
	s.etag[identity] = append(tag, '"')
	for cd := codingZstd; cd < numCodings; cd++ {
		s.etag[cd] = append(append(append([]byte(nil), tag...), '-'), append(codingNames[cd], '"')...)
	}
	return s
}

// form is the body in coding cd, nil when that form would not be smaller.
func (s *Static) form(cd coding) []byte {
	if cd == identity {
		return s.body[identity]
	}
	s.once[cd].Do(func() {
		body := s.body[identity]
		if len(body) < CompressMin {
			return
		}
		var z []byte
		switch cd {
		case codingZstd:
			e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
			z = e.EncodeAll(body, nil)
			e.Close()
		case codingBr:
			z, _ = brotli.Compress(body, brotli.BestCompression)
		case codingGzip:
			var b sink
			w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			_, _ = w.Write(body) // into b, which never fails
			w.Close()
			z = b.b
		}
		if len(z) < len(body) {
			s.body[cd] = z
		}
	})
	return s.body[cd]
}

// Prepare makes the form in coding ("zstd", "br" or "gzip") now rather
// than at its first request: for the few bodies a first visitor asks for
// at once (a page and its files), whose forms at the best levels took that
// visitor 100-500 ms. Safe beside requests: a request that needs a form
// being made waits for it, as it would have made it. Another name does
// nothing.
func (s *Static) Prepare(coding string) {
	for cd := codingZstd; cd < numCodings; cd++ {
		if string(codingNames[cd]) == coding {
			s.form(cd)
		}
	}
}

// Body is the identity form.
func (s *Static) Body() []byte { return s.body[identity] }

// ETag is the identity form's quoted entity tag.
func (s *Static) ETag() []byte { return s.etag[identity] }

// SendStatic sends s as JSON with status 200 in the coding the request
// prefers among those s has, with its ETag, or 304 Not Modified with no
// body when the request's If-None-Match names that tag (or is "*").
func (c *Ctx) SendStatic(s *Static) {
	c.status = s.Write(c.RC, "")
}

// Write answers rc with s as SendStatic does, as contentType (JSON when
// empty), and returns the status: for handlers outside the API's Ctx, such
// as the web app's pages and files.
func (s *Static) Write(rc *fasthttp.RequestCtx, contentType string) int {
	h := &rc.Response.Header
	cd := identity
	if len(s.body[identity]) >= CompressMin {
		h.Set(fasthttp.HeaderVary, fasthttp.HeaderAcceptEncoding)
		cd = acceptEncoding(rc.Request.Header.Peek(fasthttp.HeaderAcceptEncoding))
		if s.form(cd) == nil {
			cd = identity
		}
	}
	h.SetBytesV(fasthttp.HeaderETag, s.etag[cd])
	if inm := rc.Request.Header.Peek(fasthttp.HeaderIfNoneMatch); inm != nil && matchETag(inm, s.etag[cd]) {
		rc.Response.ResetBody()
		rc.SetStatusCode(fasthttp.StatusNotModified)
		return fasthttp.StatusNotModified
	}
	if cd != identity {
		h.SetContentEncodingBytes(codingNames[cd])
	}
	rc.SetStatusCode(fasthttp.StatusOK)
	setContentType(h, contentType)
	rc.Response.SetBodyRaw(s.body[cd])
	return fasthttp.StatusOK
}

// matchETag reports whether an If-None-Match value names tag: "*", or a
// list of entity tags compared weakly (a W/ prefix is ignored).
func matchETag(inm, tag []byte) bool {
	for len(inm) > 0 {
		var t []byte
		if i := bytes.IndexByte(inm, ','); i >= 0 {
			t, inm = inm[:i], inm[i+1:]
		} else {
			t, inm = inm, nil
		}
		t = bytes.TrimSpace(t)
		if len(t) == 1 && t[0] == '*' {
			return true
		}
		t = bytes.TrimPrefix(t, []byte("W/"))
		if bytes.Equal(t, tag) {
			return true
		}
	}
	return false
}
