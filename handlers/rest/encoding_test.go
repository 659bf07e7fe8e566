package rest

import (
	"bytes"
	"io"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	brotli "github.com/molecule-man/go-brrr"
	"github.com/valyala/fasthttp"
)

func TestAcceptEncoding(t *testing.T) {
	for _, c := range []struct {
		h    string
		want coding
	}{
		{"", identity},
		{"identity", identity},
		{"deflate, compress", identity},
		{"gzip", codingGzip},
		{"x-gzip", codingGzip},
		{"GZIP, deflate", codingGzip},
		{"gzip, deflate, br, zstd", codingZstd}, // ties: zstd, then br
		{"gzip, br", codingBr},
		{"gzip;q=1.0, br;q=0.5", codingGzip},
		{"zstd;q=0.2, br;q=0.8, gzip;q=0.5", codingBr},
		{"br;q=0, gzip;q=0.001", codingGzip},
		{"br;q=0", identity},
		{"*", codingZstd},
		{"*;q=0.5, zstd;q=0, br;q=0.4", codingGzip}, // * stands for gzip at 0.5
		{"*;q=0", identity},
		{"br ; q=0.9 , gzip ; q=1", codingGzip},
		{"br;q=abc, gzip;q=0.1", codingGzip}, // a malformed weight accepts nothing
		{"br;q=1.5", identity},
		{"br;level=3;q=0.7, gzip;q=0.6", codingBr},
	} {
		if got := acceptEncoding([]byte(c.h)); got != c.want {
			t.Errorf("%q: %s, want %s", c.h, codingNames[got], codingNames[c.want])
		}
	}
}

func decode(t *testing.T, cd coding, b []byte) []byte {
	t.Helper()
	var r io.Reader
	var err error
	switch cd {
	case codingGzip:
		r, err = gzip.NewReader(bytes.NewReader(b))
	case codingBr:
		r = brotli.NewReader(bytes.NewReader(b))
	case codingZstd:
		var d *zstd.Decoder
		d, err = zstd.NewReader(bytes.NewReader(b))
		if err == nil {
			defer d.Close()
			r = d
		}
	default:
		return b
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", codingNames[cd], err)
	}
	return out
}

func jsonBody(n int) []byte {
	b := []byte(`{"success":true,"data":[`)
	for i := 0; len(b) < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"year":20`...)
		b = append(b, byte('0'+i%10), byte('0'+i/10%10))
		b = append(b, `,"balance":123456.78}`...)
	}
	return append(b, "]}"...)
}

// A body is compressed in the coding asked for, decodes to itself, says
// Vary, and a pooled encoder serves the next request the same.
func TestSendBodyCompresses(t *testing.T) {
	body := jsonBody(20_000)
	for _, enc := range []string{"gzip", "br", "zstd", "identity"} {
		for range 2 {
			var rc fasthttp.RequestCtx
			rc.Request.Header.Set("Accept-Encoding", enc)
			c := AcquireCtx(&rc, nil, rc.Time())
			c.SendBody(200, body)
			ReleaseCtx(c)
			res := &rc.Response
			got := string(res.Header.ContentEncoding())
			if enc == "identity" && got != "" || enc != "identity" && got != enc {
				t.Fatalf("%s: Content-Encoding %q", enc, got)
			}
			if v := string(res.Header.Peek("Vary")); v != "Accept-Encoding" {
				t.Fatalf("%s: Vary %q", enc, v)
			}
			if enc != "identity" && len(res.Body()) > len(body)/3 {
				t.Fatalf("%s: %d bytes from %d", enc, len(res.Body()), len(body))
			}
			if !bytes.Equal(decode(t, acceptEncoding([]byte(enc)), res.Body()), body) {
				t.Fatalf("%s: does not decode to the body", enc)
			}
		}
	}
	// Under the threshold nothing changes, not even Vary.
	var rc fasthttp.RequestCtx
	rc.Request.Header.Set("Accept-Encoding", "gzip")
	c := AcquireCtx(&rc, nil, rc.Time())
	c.Begin().String("small")
	c.Send(200)
	ReleaseCtx(c)
	if rc.Response.Header.ContentEncoding() != nil || rc.Response.Header.Peek("Vary") != nil || string(rc.Response.Body()) != `{"success":true,"data":"small"}` {
		t.Fatalf("small body: %q %q", rc.Response.Header.ContentEncoding(), rc.Response.Body())
	}
}

// Compressing with a warm pool allocates nothing per response (the encoders'
// own buffers are kept with them).
func TestCompressAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race; CI pins this in its run without -race")
	}
	body := jsonBody(50_000)
	for _, cd := range []coding{codingGzip, codingBr, codingZstd} {
		var s sink
		compress(&s, cd, body)
		n := testing.AllocsPerRun(20, func() {
			s.b = s.b[:0]
			compress(&s, cd, body)
		})
		// sync.Pool may drop an encoder at a GC; one in a run is tolerated.
		if n > 0.1 {
			t.Errorf("%s: %.2f allocations per body", codingNames[cd], n)
		}
	}
}

func TestStaticETag(t *testing.T) {
	body := jsonBody(5000)
	s := NewStatic(body)
	other := NewStatic(append(jsonBody(5000), ' '))
	if bytes.Equal(s.ETag(), other.ETag()) || s.ETag()[0] != '"' || s.ETag()[len(s.ETag())-1] != '"' {
		t.Fatalf("tags %s %s", s.ETag(), other.ETag())
	}
	serve := func(headers ...string) *fasthttp.Response {
		var rc fasthttp.RequestCtx
		for i := 0; i < len(headers); i += 2 {
			rc.Request.Header.Set(headers[i], headers[i+1])
		}
		c := AcquireCtx(&rc, nil, rc.Time())
		c.SendStatic(s)
		ReleaseCtx(c)
		res := &fasthttp.Response{}
		rc.Response.CopyTo(res)
		return res
	}
	r := serve()
	if r.StatusCode() != 200 || !bytes.Equal(r.Body(), body) || !bytes.Equal(r.Header.Peek("ETag"), s.ETag()) {
		t.Fatalf("200: %d %s", r.StatusCode(), r.Header.Peek("ETag"))
	}
	tag := string(s.ETag())
	for _, inm := range []string{tag, "W/" + tag, `"x", ` + tag, "*"} {
		if r := serve("If-None-Match", inm); r.StatusCode() != 304 || len(r.Body()) != 0 || string(r.Header.Peek("ETag")) != tag {
			t.Fatalf("If-None-Match %s: %d, %d bytes", inm, r.StatusCode(), len(r.Body()))
		}
	}
	for _, inm := range []string{`"x"`, string(other.ETag()), tag[:len(tag)-2] + `"`, ""} {
		if r := serve("If-None-Match", inm); r.StatusCode() != 200 || !bytes.Equal(r.Body(), body) {
			t.Fatalf("If-None-Match %s: %d", inm, r.StatusCode())
		}
	}
	// Each coding is its own representation with its own tag.
	seen := map[string]bool{tag: true}
	for _, enc := range []string{"gzip", "br", "zstd"} {
		r := serve("Accept-Encoding", enc)
		et := string(r.Header.Peek("ETag"))
		if string(r.Header.ContentEncoding()) != enc || seen[et] || string(r.Header.Peek("Vary")) != "Accept-Encoding" {
			t.Fatalf("%s: encoding %q, tag %s", enc, r.Header.ContentEncoding(), et)
		}
		seen[et] = true
		if !bytes.Equal(decode(t, acceptEncoding([]byte(enc)), r.Body()), body) {
			t.Fatalf("%s: does not decode to the body", enc)
		}
		if r := serve("Accept-Encoding", enc, "If-None-Match", et); r.StatusCode() != 304 {
			t.Fatalf("%s: its own tag gives %d", enc, r.StatusCode())
		}
		if r := serve("Accept-Encoding", enc, "If-None-Match", tag); r.StatusCode() != 200 {
			t.Fatalf("%s: the identity tag gives %d", enc, r.StatusCode())
		}
	}
}

// Prepare makes exactly the form it names, and that form is the one sent.
func TestStaticPrepare(t *testing.T) {
	body := jsonBody(5000)
	s := NewStatic(body)
	s.Prepare("zstd")
	s.Prepare("deflate") // not a coding the server sends: nothing
	if s.body[codingZstd] == nil || s.body[codingBr] != nil || s.body[codingGzip] != nil {
		t.Fatalf("after Prepare(zstd): zstd %d, br %d, gzip %d bytes", len(s.body[codingZstd]), len(s.body[codingBr]), len(s.body[codingGzip]))
	}
	prepared := s.body[codingZstd]
	var rc fasthttp.RequestCtx
	rc.Request.Header.Set("Accept-Encoding", "zstd")
	s.Write(&rc, "")
	if &rc.Response.Body()[0] != &prepared[0] || !bytes.Equal(decode(t, codingZstd, rc.Response.Body()), body) {
		t.Fatal("the zstd form sent is not the one prepared")
	}
	for _, c := range []string{"br", "gzip"} {
		s.Prepare(c)
	}
	if s.body[codingBr] == nil || s.body[codingGzip] == nil {
		t.Fatal("br or gzip not prepared")
	}
}
