package handlers

import (
	"fmt"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
)

// benchFlags defines n flags through the API, as an operator would.
func benchFlags(b *testing.B, n int) (*Server, string) {
	s, tok, _ := benchServer(b, 1<<16, limitOff)
	admin, err := auth.Sign(testSecret, auth.Claims{Sub: "ops", Role: "admin", TTL: time.Hour}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	var rc fasthttp.RequestCtx
	for i := range n {
		request(&rc, "PUT", fmt.Sprintf("/api/v1/features/flag-%d", i), "Bearer "+admin,
			`{"enabled":true,"rolloutPercent":50,"variants":[{"name":"control","weight":1},{"name":"treatment","weight":1}]}`)
		s.Serve(&rc)
		if rc.Response.StatusCode() != 201 {
			b.Fatalf("%d %s", rc.Response.StatusCode(), rc.Response.Body())
		}
	}
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	return s, tok
}

func BenchmarkFlagOne(b *testing.B) {
	s, tok := benchFlags(b, 20)
	runRequest(b, s, "GET", "/api/v1/features/flag-7", "Bearer "+tok, "", 200)
}

func BenchmarkFlagAll(b *testing.B) {
	s, tok := benchFlags(b, 20)
	runRequest(b, s, "GET", "/api/v1/features", "Bearer "+tok, "", 200)
}
