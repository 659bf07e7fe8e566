package handlers

import (
	"bytes"
	"sync"

	"github.com/VictoriaMetrics/metrics"
)

// help is the # HELP text of each fiplan family. The metrics library
// writes # HELP and # TYPE for every family (ExposeMetadata) with an empty
// text; writeMetrics puts these in. A family missing here fails
// TestEveryMetricFamilyHasHelp.
var help = map[string]string{
	"fiplan_http_requests_total":               "API requests answered, by method, route template and status; route=unmatched is every request no route answered.",
	"fiplan_http_request_duration_seconds":     "Time to answer an API request, by method and route template.",
	"fiplan_rate_limited_total":                "Requests refused with 429 RATE_LIMITED, by limiter (public, free, pro).",
	"fiplan_overload_refused_total":            "Expensive requests refused with 503 because every expensive slot was taken.",
	"fiplan_overload_in_use":                   "Expensive-request slots in use.",
	"fiplan_overload_capacity":                 "Expensive-request slots in all.",
	"fiplan_token_cache_hits_total":            "Session tokens answered from the verified-token cache.",
	"fiplan_token_cache_misses_total":          "Session tokens verified in full.",
	"fiplan_store_duration_seconds":            "Time of a store call (one transaction), by operation.",
	"fiplan_store_errors_total":                "Store calls that failed, by operation (not found, conflict and limit are answers, not errors).",
	"fiplan_store_breaker_open":                "1 while the store's circuit breaker refuses store calls (the database did not answer), else 0.",
	"fiplan_store_breaker_refused_total":       "Store calls the open circuit breaker refused at once (their routes answered 503 with Retry-After).",
	"fiplan_montecarlo_path_years_total":       "Monte Carlo paths times years simulated.",
	"fiplan_recommendation_cache_hits_total":   "City recommendations answered from their cache.",
	"fiplan_recommendation_cache_misses_total": "City recommendations computed.",
	"fiplan_calculator_cache_hits_total":       "Calculator answers served from the cache of whole answers.",
	"fiplan_calculator_cache_misses_total":     "Calculator answers computed.",
	"fiplan_signout_mirror_lag_seconds":        "Age of this node's copy of the sign-out marks: since its last poll of the store that succeeded (capped at an hour; past a second, session checks read the store).",
	"fiplan_connections_open":                  "Client connections open now.",
	"fiplan_connections_accepted_total":        "Client connections accepted.",
	"fiplan_connections_refused_total":         "Client connections refused because their address held its limit.",
	"fiplan_accept_errors_total":               "Transient accept errors (out of file descriptors, aborted connections) retried after a back-off.",
	"fiplan_db_pool_max_connections":           "PostgreSQL pool: the most connections it opens.",
	"fiplan_db_pool_connections":               "PostgreSQL pool: connections now, by state (idle, in_use).",
	"fiplan_db_pool_acquires_total":            "PostgreSQL pool: connections taken from the pool.",
	"fiplan_db_pool_waited_acquires_total":     "PostgreSQL pool: acquires that waited for a free connection (the pool is too small when this grows).",
	"fiplan_db_pool_canceled_acquires_total":   "PostgreSQL pool: acquires given up before a connection was free.",
	"fiplan_db_pool_wait_seconds_total":        "PostgreSQL pool: time spent waiting for a free connection.",
	"fiplan_redis_pool_connections":            "Redis pool: connections now, by state (idle, open).",
	"fiplan_redis_pool_hits_total":             "Redis pool: a free connection was found.",
	"fiplan_redis_pool_misses_total":           "Redis pool: no free connection, one was opened.",
	"fiplan_redis_pool_timeouts_total":         "Redis pool: waits for a connection that timed out.",
	"fiplan_rate_limit_fallbacks_total":        "Requests limited by this node's own counts because Redis could not decide, by reason (resting: left alone after a failure, timeout, error).",
}

// runtimeHelp is the text of the Go runtime's and the process's families,
// which the metrics library writes.
var runtimeHelp = []byte(" Go runtime or process metric, as github.com/VictoriaMetrics/metrics writes it.")

var exposeMetadata sync.Once

// writeMetrics appends the Prometheus text of set, then of the Go runtime
// and the process, to dst, each family with its # HELP and # TYPE.
func writeMetrics(dst []byte, set *metrics.Set) []byte {
	exposeMetadata.Do(func() { metrics.ExposeMetadata(true) })
	var raw bytes.Buffer
	set.WritePrometheus(&raw)
	metrics.WriteProcessMetrics(&raw)
	text := raw.Bytes()
	prefix := []byte("# HELP ")
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i+1], text[i+1:]
		} else {
			text = nil
		}
		if !bytes.HasPrefix(line, prefix) {
			dst = append(dst, line...)
			continue
		}
		family := bytes.TrimRight(line[len(prefix):], "\n")
		if i := bytes.IndexByte(family, ' '); i >= 0 { // the library gave a text
			dst = append(dst, line...)
			continue
		}
		dst = append(dst, prefix...)
		dst = append(dst, family...)
		if h, ok := help[string(family)]; ok {
			dst = append(dst, ' ')
			dst = append(dst, h...)
		} else {
			dst = append(dst, runtimeHelp...)
		}
		dst = append(dst, '\n')
	}
	return dst
}
