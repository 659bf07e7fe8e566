package handlers

import (
	"bytes"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/VictoriaMetrics/metrics"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// The server's metrics, in the Prometheus text format on their own
// listener (GET /metrics; cmd/fiplan serves it only when FI_METRICS_ADDR is
// set, never on the public address). They use
// github.com/VictoriaMetrics/metrics: its counters are one atomic add and
// its histograms a short lock, neither allocates, and it writes the Go
// runtime and process metrics itself. Each Server has its own metrics.Set,
// so nothing is registered globally and two servers in one process (tests)
// count apart.
//
// Every per-route series is created at start from the route table; a
// request finds its route's counters by the route's position (Route.ID),
// not by a map lookup, and counting it allocates nothing.
//
//	fiplan_http_requests_total{method,route,status}   by route template and status
//	fiplan_http_request_duration_seconds{method,route} latency histogram per route
//	fiplan_rate_limited_total{limiter}                 429s by limiter: public, free, pro
//	fiplan_overload_refused_total                      503s of the expensive-request gate
//	fiplan_overload_in_use / fiplan_overload_capacity  its slots in use and in all
//	fiplan_token_cache_hits_total / _misses_total      verified-token cache
//	fiplan_store_duration_seconds{op}                  store calls (one transaction each)
//	fiplan_store_errors_total{op}                      store calls that failed (not found,
//	                                                   conflict and limit are answers, not errors)
//	fiplan_store_breaker_open                          1 while the store's circuit breaker is open
//	fiplan_store_breaker_refused_total                 store calls it refused at once (breaker.go)
//	fiplan_montecarlo_path_years_total                 simulated paths x years
//	fiplan_recommendation_cache_hits_total / _misses_total
//	fiplan_calculator_cache_hits_total / _misses_total  whole calculator answers
//	go_*, process_*                                    the runtime and the process
type serverMetrics struct {
	set    *metrics.Set
	routes []routeMetrics // by Route.ID; [0] is every request no table route answered

	limited  [3]*metrics.Counter // public, free, pro
	refused  *metrics.Counter
	tokHits  *metrics.Counter
	tokMiss  *metrics.Counter
	mcPaths  *metrics.Counter
	recoHits *metrics.Counter
	recoMiss *metrics.Counter
	calcHits *metrics.Counter
	calcMiss *metrics.Counter

	accepted     *metrics.Counter // connections accepted
	connsRefused *metrics.Counter // connections over their address's limit
	acceptErrors *metrics.Counter // transient accept errors retried
	conns        atomic.Int64     // connections open
	pools        *poolMetrics
}

// routeMetrics are one route's series.
type routeMetrics struct {
	byStatus [len(countedStatuses) + 1]*metrics.Counter // the last: any other status
	latency  *metrics.PrometheusHistogram
}

// countedStatuses are the statuses the server sends; a series exists for
// each of them on every route.
var countedStatuses = [...]int{200, 201, 204, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 429, 431, 500, 503}

func statusSlot(status int) int {
	for i, s := range countedStatuses {
		if s == status {
			return i
		}
	}
	return len(countedStatuses)
}

// latencyBuckets span a cached read (50 µs) to a large Monte Carlo run.
var latencyBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

const (
	limiterPublic = iota
	limiterFree
	limiterPro
)

// newServerMetrics creates in set every series of routes (whose IDs it
// sets) and of the expensive-request gate.
func newServerMetrics(set *metrics.Set, routes []*rest.Route, gate *rest.Gate) *serverMetrics {
	m := &serverMetrics{set: set}
	m.routes = make([]routeMetrics, len(routes)+1)
	m.routes[0] = newRouteMetrics(m.set, "*", "unmatched")
	for i, r := range routes {
		r.ID = i + 1
		m.routes[r.ID] = newRouteMetrics(m.set, r.Method, r.Path)
	}
	for i, name := range [...]string{"public", "free", "pro"} {
		m.limited[i] = m.set.NewCounter(`fiplan_rate_limited_total{limiter="` + name + `"}`)
	}
	m.refused = m.set.NewCounter("fiplan_overload_refused_total")
	m.set.NewGauge("fiplan_overload_in_use", func() float64 { return float64(gate.InUse()) })
	m.set.NewGauge("fiplan_overload_capacity", func() float64 { return float64(gate.Cap()) })
	m.tokHits = m.set.NewCounter("fiplan_token_cache_hits_total")
	m.tokMiss = m.set.NewCounter("fiplan_token_cache_misses_total")
	m.mcPaths = m.set.NewCounter("fiplan_montecarlo_path_years_total")
	m.recoHits = m.set.NewCounter("fiplan_recommendation_cache_hits_total")
	m.recoMiss = m.set.NewCounter("fiplan_recommendation_cache_misses_total")
	m.calcHits = m.set.NewCounter("fiplan_calculator_cache_hits_total")
	m.calcMiss = m.set.NewCounter("fiplan_calculator_cache_misses_total")
	m.accepted = m.set.NewCounter("fiplan_connections_accepted_total")
	m.connsRefused = m.set.NewCounter("fiplan_connections_refused_total")
	m.acceptErrors = m.set.NewCounter("fiplan_accept_errors_total")
	m.set.NewGauge("fiplan_connections_open", func() float64 { return float64(m.conns.Load()) })
	return m
}

func newRouteMetrics(set *metrics.Set, method, path string) routeMetrics {
	labels := `method="` + method + `",route="` + path + `"`
	var r routeMetrics
	for i, st := range countedStatuses {
		r.byStatus[i] = set.NewCounter(`fiplan_http_requests_total{` + labels + `,status="` + strconv.Itoa(st) + `"}`)
	}
	r.byStatus[len(countedStatuses)] = set.NewCounter(`fiplan_http_requests_total{` + labels + `,status="other"}`)
	r.latency = set.NewPrometheusHistogramExt(`fiplan_http_request_duration_seconds{`+labels+`}`, latencyBuckets)
	return r
}

// observe counts one answered request.
func (s *Server) observe(c *rest.Ctx, elapsed time.Duration) {
	m := s.metrics
	id := 0
	if r := c.Route(); r != nil && r.ID < len(m.routes) {
		id = r.ID
	}
	rm := &m.routes[id]
	rm.byStatus[statusSlot(c.RC.Response.StatusCode())].Inc()
	rm.latency.Update(elapsed.Seconds())
	if code := c.Code(); code == errcode.RateLimited || code == errcode.CostOverAllowance {
		switch {
		case !c.Authed:
			m.limited[limiterPublic].Inc()
		case c.Principal.Tier == auth.TierPro:
			m.limited[limiterPro].Inc()
		default:
			m.limited[limiterFree].Inc()
		}
	}
}

// Metrics serves GET /metrics in the Prometheus text format: this
// server's series, then the Go runtime's and the process's. Serve it on a
// private listener only.
func (s *Server) Metrics(rc *fasthttp.RequestCtx) {
	if !bytes.Equal(rc.Path(), metricsPath) {
		rc.Error("not found: the metrics are at /metrics\n", fasthttp.StatusNotFound)
		return
	}
	if !rc.IsGet() && !rc.IsHead() {
		rc.Response.Header.Set(fasthttp.HeaderAllow, "GET, HEAD")
		rc.Error("method not allowed\n", fasthttp.StatusMethodNotAllowed)
		return
	}
	m := s.metrics
	hits, misses := s.verifier.CacheStats()
	m.tokHits.Set(hits)
	m.tokMiss.Set(misses)
	m.refused.Set(s.heavy.Refused())
	m.mcPaths.Set(s.calc.PathYears())
	m.recoHits.Set(s.places.CacheHits())
	m.recoMiss.Set(s.places.CacheMisses())
	m.calcHits.Set(s.calc.CacheHits())
	m.calcMiss.Set(s.calc.CacheMisses())
	m.pools.refresh()
	rc.SetContentType("text/plain; version=0.0.4; charset=utf-8")
	rc.Response.SetBodyRaw(writeMetrics(nil, m.set))
}

var metricsPath = []byte("/metrics")
