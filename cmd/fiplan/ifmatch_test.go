package main

import (
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Writers holding one ETag race through the real server, on each store
// (on PostgreSQL through two nodes): exactly one write wins, the others
// answer 412, and the winner's tag is the one a read then answers.
func TestIfMatchRaceOnEachStore(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			env := append([]string{"FI_JWT_SECRET=" + clusterSecret}, unlimited...)
			var addrs []string
			if backend == "bbolt" {
				s := start(t, append(env, "FI_DB="+filepath.Join(t.TempDir(), "fiplan.db"))...)
				defer s.stop(t, syscall.SIGTERM)
				addrs = []string{s.addr}
			} else {
				env = append(env, "FI_DB="+pgSchema(t))
				a, b := start(t, env...), start(t, env...)
				defer a.stop(t, syscall.SIGTERM)
				defer b.stop(t, syscall.SIGTERM)
				addrs = []string{a.addr, b.addr}
			}
			tok := bearer(sign(t, fmt.Sprintf("racer-%d", time.Now().UnixNano()), "pro", ""))
			r := must(t, addrs[0], "POST", "/api/v1/assets", `{"name":"World index","value":1000}`, tok...)
			if r.status != 201 {
				t.Fatalf("create: %d %v", r.status, r.body)
			}
			asset := "/api/v1/assets/" + r.data()["id"].(string)
			for _, path := range []string{"/api/v1/user/profile", asset} {
				tag := must(t, addrs[0], "GET", path, "", tok...).header.Get("ETag")
				if tag == "" {
					t.Fatalf("%s: no ETag", path)
				}
				const n = 8
				replies := make([]reply, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						body := fmt.Sprintf(`{"value":%d}`, 2000+i)
						if path != asset {
							body = fmt.Sprintf(`{"displayName":"writer %d"}`, i)
						}
						replies[i] = must(t, addrs[i%len(addrs)], "PATCH", path, body, append([]string{"If-Match", tag}, tok...)...)
					}()
				}
				wg.Wait()
				var winner string
				for _, r := range replies {
					switch {
					case r.status == 200 && winner == "":
						winner = r.header.Get("ETag")
					case r.status == 412 && r.code() == "PRECONDITION_FAILED":
					default:
						t.Fatalf("%s: %d %v (a second winner, or an error)", path, r.status, r.body)
					}
				}
				if winner == "" || winner == tag {
					t.Fatalf("%s: no write won (%q)", path, winner)
				}
				for _, addr := range addrs {
					if got := must(t, addr, "GET", path, "", tok...).header.Get("ETag"); got != winner {
						t.Fatalf("%s: read answers %s, the winner wrote %s", path, got, winner)
					}
				}
			}
		})
	}
}
