package bench

import (
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/limit"
)

const calcBody = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000}`

// BenchmarkCalculatorNodes drives the public calculator from 32 clients,
// spread round-robin over one or two servers; with Redis, the servers
// share its rate limit as a fleet does (every request is one Redis round
// trip). Both servers run in this process, on the same CPUs: the figure
// shows what a second node costs or gains on one host, not the scale-out
// of two hosts.
func BenchmarkCalculatorNodes(b *testing.B) {
	for _, c := range []struct {
		name  string
		nodes int
		redis bool
	}{{"nodes=1/local", 1, false}, {"nodes=1/redis", 1, true}, {"nodes=2/redis", 2, true}} {
		b.Run(c.name, func(b *testing.B) {
			var r *limit.Redis
			if c.redis {
				u := os.Getenv("FI_TEST_REDIS")
				if u == "" {
					b.Skip("set FI_TEST_REDIS=redis://127.0.0.1:6379/15 to run it")
				}
				opt, err := redis.ParseURL(u)
				if err != nil {
					b.Fatal(err)
				}
				rdb := redis.NewClient(opt)
				b.Cleanup(func() { rdb.Close() })
				r = limit.NewRedis(rdb, time.Second, nil)
			}
			var clients []*fasthttp.HostClient
			for range c.nodes {
				addr, _ := serveWith(b, r)
				clients = append(clients, &fasthttp.HostClient{Addr: addr, MaxConns: 64})
			}
			var next atomic.Uint64
			b.ReportAllocs()
			b.SetParallelism(16) // 32 clients on 2 CPUs
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				req := fasthttp.AcquireRequest()
				res := fasthttp.AcquireResponse()
				defer fasthttp.ReleaseRequest(req)
				defer fasthttp.ReleaseResponse(res)
				req.Header.SetMethod("POST")
				req.Header.SetContentType("application/json")
				req.SetBodyString(calcBody)
				for pb.Next() {
					hc := clients[next.Add(1)%uint64(len(clients))]
					req.SetRequestURI("http://" + hc.Addr + "/api/v1/calculator")
					if err := hc.Do(req, res); err != nil {
						b.Error(err)
						return
					}
					if res.StatusCode() != 200 {
						b.Errorf("status %d: %s", res.StatusCode(), res.Body())
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			if r != nil && r.Fallbacks() != 0 {
				b.Fatalf("%d requests fell back to local limits", r.Fallbacks())
			}
		})
	}
}
