package features_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/internal/testserver"
)

// benchFlags defines n flags through the API, as an operator would.
func benchFlags(b *testing.B, n int) (*handlers.Server, string) {
	s, tok, _ := testserver.BenchServer(b, 1<<16, testserver.LimitOff)
	admin, err := auth.Sign(testserver.Secret, auth.Claims{Sub: "ops", Role: "admin", TTL: time.Hour}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	var rc fasthttp.RequestCtx
	for i := range n {
		testserver.Request(&rc, "PUT", fmt.Sprintf("/api/v1/features/flag-%d", i), "Bearer "+admin,
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
	testserver.RunRequest(b, s, "GET", "/api/v1/features/flag-7", "Bearer "+tok, "", 200)
}

func BenchmarkFlagAll(b *testing.B) {
	s, tok := benchFlags(b, 20)
	testserver.RunRequest(b, s, "GET", "/api/v1/features", "Bearer "+tok, "", 200)
}
