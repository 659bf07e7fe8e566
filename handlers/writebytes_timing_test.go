package handlers

import (
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// The floor for the geo list: a route that only writes the first page's
// bytes through the same chain.
func BenchmarkGeoWriteBytes(b *testing.B) {
	s, _, _ := benchServer(b, 1<<16, limit.Rate{N: 1e9, Per: time.Hour})
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	var rc fasthttp.RequestCtx
	request(&rc, "GET", v1+"/geo/cities", "", "")
	s.Serve(&rc)
	body := append([]byte(nil), rc.Response.Body()...)
	if err := s.router.Add(rest.Get("/api/v1/test/bytes", rest.Public, func(c *rest.Ctx) {
		c.RC.SetStatusCode(fasthttp.StatusOK)
		c.RC.Response.Header.SetContentType("application/json")
		c.RC.Response.SetBody(body) // the copy every response pays
	}, nil)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	runRequest(b, s, "GET", "/api/v1/test/bytes", "", "", 200)
}
