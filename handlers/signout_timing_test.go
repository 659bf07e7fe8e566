package handlers

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
)

// BenchmarkAuthedAssetList is GET /assets (ten stored assets) with a
// session token through the whole chain, on each store: on PostgreSQL the
// sign-out check reads the node's mirror, so the request is the list's
// one round trip.
// The parallel form is 32 clients at once, the figure that compares the
// stores' throughput: a PostgreSQL round trip's wait overlaps others'.
func BenchmarkAuthedAssetList(b *testing.B) {
	for _, kind := range []string{"bbolt", "postgres", "bbolt-32", "postgres-32"} {
		b.Run(kind, func(b *testing.B) {
			var db store.Store
			if kind[0] == 'b' {
				d, err := store.Open(filepath.Join(b.TempDir(), "b.DB"), store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				db = d
				b.Cleanup(func() { d.Close() })
			} else {
				db = pg(b, "")
			}
			s, tok, _ := benchServer(b, 1<<16, limitOff, withDB(db))
			for i := range 10 {
				var rc fasthttp.RequestCtx
				request(&rc, "POST", "/api/v1/assets", "Bearer "+tok, fmt.Sprintf(`{"name":"Holding %d","value":%d,"currency":"USD"}`, i, 1000+i))
				s.Serve(&rc)
				if rc.Response.StatusCode() != 201 {
					b.Fatalf("seed: %s", rc.Response.Body())
				}
			}
			for s.marks.Lag() > store.MirrorStale {
				time.Sleep(10 * time.Millisecond)
			}
			if len(kind) < 9 || kind[len(kind)-3] != '-' {
				runRequest(b, s, "GET", "/api/v1/assets", "Bearer "+tok, "", 200)
				return
			}
			b.ReportAllocs()
			b.SetParallelism(16) // 32 clients on 2 CPUs
			b.ResetTimer()       // the store's opening and seeding are not the list's
			b.RunParallel(func(pb *testing.PB) {
				var rc fasthttp.RequestCtx
				request(&rc, "GET", "/api/v1/assets", "Bearer "+tok, "")
				for pb.Next() {
					rc.Response.Reset()
					s.Serve(&rc)
					if rc.Response.StatusCode() != 200 {
						b.Errorf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
						return
					}
				}
			})
		})
	}
}
