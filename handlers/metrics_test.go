package handlers

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// scrape serves GET /metrics from s and returns the text.
func scrape(t *testing.T, s *Server) string {
	t.Helper()
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("127.0.0.1"), nil)
	rc.Request.SetRequestURI("/metrics")
	s.Metrics(&rc)
	if rc.Response.StatusCode() != 200 || !bytes.HasPrefix(rc.Response.Header.ContentType(), []byte("text/plain")) {
		t.Fatalf("/metrics: %d %s", rc.Response.StatusCode(), rc.Response.Header.ContentType())
	}
	return string(rc.Response.Body())
}

// metricValue is the value of the series named exactly series, or "".
func metricValue(text, series string) string {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			return v
		}
	}
	return ""
}

func TestMetricsScrape(t *testing.T) {
	h := newHarness(t, withRates("2/1m", "600/1m", "6000/1m"))
	tok := bearer(h.Token("alice", "pro", ""))
	h.Do("GET", "/api/v1/geo/cities?limit=1", "")
	h.Do("GET", "/api/v1/geo/cities?limit=1", "")
	expectError(t, h.Do("GET", "/api/v1/geo/cities?limit=1", ""), 429, errcode.RateLimited)
	h.Do("GET", "/api/v1/nope", "", tok...)
	h.Do("POST", "/api/v1/assets", `{"name":"World","value":100}`, tok...)
	h.Do("GET", "/api/v1/assets", "", tok...)
	reco := `{"monthlyBudgetUSD":3000}`
	h.Do("POST", "/api/v1/geo/recommendations", reco, tok...)
	h.S.places.WaitCache()
	h.Do("POST", "/api/v1/geo/recommendations", reco, tok...)
	calc := `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"lifeExpectancy":90,"monteCarlo":{"simulations":100}}`
	h.IP = "192.0.2.2" // a fresh anonymous allowance
	if r := h.Do("POST", "/api/v1/calculator", calc); r.Status != 200 {
		t.Fatalf("calculator: %d %s", r.Status, r.Raw)
	}

	text := scrape(t, h.S)
	for series, want := range map[string]string{
		`fiplan_http_requests_total{method="GET",route="/api/v1/geo/cities",status="200"}`:        "2",
		`fiplan_http_requests_total{method="GET",route="/api/v1/geo/cities",status="429"}`:        "1",
		`fiplan_http_requests_total{method="*",route="unmatched",status="404"}`:                   "1",
		`fiplan_http_requests_total{method="POST",route="/api/v1/assets",status="201"}`:           "1",
		`fiplan_http_requests_total{method="GET",route="/api/v1/assets/{id}",status="200"}`:       "0",
		`fiplan_http_request_duration_seconds_count{method="GET",route="/api/v1/geo/cities"}`:     "3",
		`fiplan_http_request_duration_seconds_count{method="POST",route="/api/v1/calculator"}`:    "1",
		`fiplan_rate_limited_total{limiter="public"}`:                                             "1",
		`fiplan_rate_limited_total{limiter="pro"}`:                                                "0",
		`fiplan_montecarlo_path_years_total`:                                                      "5000",
		`fiplan_recommendation_cache_hits_total`:                                                  "1",
		`fiplan_recommendation_cache_misses_total`:                                                "1",
		`fiplan_calculator_cache_misses_total`:                                                    "1",
		`fiplan_calculator_cache_hits_total`:                                                      "0",
		`fiplan_store_errors_total{op="CreateAsset"}`:                                             "0",
		`fiplan_store_duration_seconds_count{op="CreateAsset"}`:                                   "1",
		`fiplan_overload_refused_total`:                                                           "0",
		`fiplan_overload_capacity`:                                                                "",
		`fiplan_http_requests_total{method="GET",route="/api/v1/status",status="other"}`:          "0",
		`fiplan_http_requests_total{method="DELETE",route="/api/v1/features/{key}",status="403"}`: "0",
	} {
		got := metricValue(text, series)
		if want == "" {
			if got == "" {
				t.Errorf("%s is missing", series)
			}
			continue
		}
		if got != want {
			t.Errorf("%s = %q, want %q", series, got, want)
		}
	}
	// The token cache: the first of alice's requests verified the token,
	// the rest found it cached (ristretto stores asynchronously, so only
	// the sum is certain).
	if metricValue(text, "fiplan_token_cache_hits_total") == "" || metricValue(text, "fiplan_token_cache_misses_total") == "" {
		t.Error("no token cache series")
	}
	for _, name := range []string{"go_goroutines ", "go_memstats_alloc_bytes ", "process_resident_memory_bytes ", "process_cpu_seconds_total ",
		`fiplan_http_request_duration_seconds_bucket{method="POST",route="/api/v1/calculator",le="+Inf"} 1`} {
		if !strings.Contains(text, name) {
			t.Errorf("no %s in the scrape", strings.TrimSpace(name))
		}
	}
	// Only /metrics, only GET or HEAD.
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("127.0.0.1"), nil)
	rc.Request.SetRequestURI("/api/v1/status")
	h.S.Metrics(&rc)
	if rc.Response.StatusCode() != 404 {
		t.Errorf("/api/v1/status on the metrics listener: %d", rc.Response.StatusCode())
	}
	rc.Request.SetRequestURI("/metrics")
	rc.Request.Header.SetMethod("POST")
	rc.Response.Reset()
	h.S.Metrics(&rc)
	if rc.Response.StatusCode() != 405 {
		t.Errorf("POST /metrics: %d", rc.Response.StatusCode())
	}
}

// Counting a request allocates nothing: the route's series are found by
// its position in the table, not by name.
func TestMetricsCountWithoutAllocating(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race; CI pins this in its run without -race")
	}
	h := newHarness(t, withRates("off", "off", "off"))
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.9"), nil)
	rc.Request.SetRequestURI("/api/v1/geo/cities")
	h.S.Serve(&rc) // warm the pools
	var p rest.Params
	r := h.S.router.Lookup([]byte("/api/v1/geo/cities"), &p).Route([]byte("GET"))
	ok := h.S.metrics.routes[r.ID].byStatus[statusSlot(200)]
	before := ok.Get()
	n := testing.AllocsPerRun(500, func() {
		rc.Response.Reset()
		h.S.Serve(&rc)
	})
	if rc.Response.StatusCode() != 200 {
		t.Fatalf("cities: %d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	if n != 0 {
		t.Fatalf("a counted public request allocates %v times", n)
	}
	if got := ok.Get() - before; got != 501 { // AllocsPerRun runs once more to warm up
		t.Fatalf("counted %d requests, want 501", got)
	}
}

// The expensive-request gate: past its bound, Monte Carlo and optimize
// are refused at once with 503 and Retry-After; cheap requests pass.
func TestOverloadRefusesPastTheBound(t *testing.T) {
	// Without rate limits: a simulation costs rate-limit units by its size.
	h := newHarness(t, withRates("off", "off", "off"), func(c *Config) { c.MaxExpensive = 2 })
	pro := bearer(h.Token("bob", "pro", ""))
	mc := `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"monteCarlo":{"simulations":200}}`
	plain := `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000}`
	opt := `{"country":"US","income":{"pension":30000}}`
	g := h.S.heavy
	if g.Cap() != 2 {
		t.Fatalf("cap %d", g.Cap())
	}
	// Saturate: take every slot, as two long simulations would.
	g.Enter(nil)
	g.Enter(nil)
	for _, c := range []struct{ path, body string }{{"/api/v1/calculator", mc}, {"/api/v1/tax/optimize", opt}} {
		r := h.Do("POST", c.path, c.body, pro...)
		expectError(t, r, 503, errcode.Unavailable)
		if r.Header["Retry-After"] != "1" || r.Body["retryAfter"] != float64(1) {
			t.Errorf("%s: Retry-After %q, retryAfter %v", c.path, r.Header["Retry-After"], r.Body["retryAfter"])
		}
	}
	if r := h.Do("POST", "/api/v1/calculator", plain); r.Status != 200 {
		t.Errorf("a calculation without Monte Carlo is refused: %d", r.Status)
	}
	// Bad input is judged before the gate: a 400 costs no slot.
	expectError(t, h.Do("POST", "/api/v1/calculator", `{"currentAge":4,"annualIncome":1,"annualExpenses":1,"monteCarlo":{}}`), 400, errcode.Validation)
	if g.Refused() != 2 {
		t.Errorf("refused %d, want 2", g.Refused())
	}
	if v := metricValue(scrape(t, h.S), "fiplan_overload_refused_total"); v != "2" {
		t.Errorf("fiplan_overload_refused_total %q", v)
	}
	g.Leave(nil)
	g.Leave(nil)
	if r := h.Do("POST", "/api/v1/calculator", mc); r.Status != 200 {
		t.Fatalf("after the slots came back: %d %s", r.Status, r.Raw)
	}

	// A burst: every answer is 200 or 503, never a queue that times out,
	// and every slot comes back.
	const n = 12
	var wg sync.WaitGroup
	statuses := make([]int, n)
	big := `{"currentAge":30,"annualIncome":80000,"annualExpenses":40000,"monteCarlo":{"simulations":10000}}`
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.Do("POST", "/api/v1/calculator", big)
			statuses[i] = r.Status
			if r.Status == 503 && r.Header["Retry-After"] == "" {
				t.Error("a 503 without Retry-After")
			}
		}()
	}
	wg.Wait()
	ok := 0
	for _, st := range statuses {
		switch st {
		case 200:
			ok++
		case 503:
		default:
			t.Errorf("burst status %d", st)
		}
	}
	if ok == 0 {
		t.Error("the burst admitted nothing")
	}
	if g.InUse() != 0 {
		t.Errorf("%d slots still held after the burst", g.InUse())
	}
}

// Every family the scrape carries has its # HELP with a text and its
// # TYPE, and every fiplan family has a text of its own.
func TestEveryMetricFamilyHasHelp(t *testing.T) {
	h := newHarness(t)
	h.Do("GET", "/api/v1/status", "")
	text := scrape(t, h.S)
	helped, typed := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		switch {
		case strings.HasPrefix(line, "# HELP "):
			fam, txt, _ := strings.Cut(strings.TrimPrefix(line, "# HELP "), " ")
			if strings.TrimSpace(txt) == "" {
				t.Errorf("%s: empty HELP", fam)
			}
			if strings.HasPrefix(fam, "fiplan_") && help[fam] == "" {
				t.Errorf("%s has no HELP text of its own: add it to help", fam)
			}
			helped[fam] = true
		case strings.HasPrefix(line, "# TYPE "):
			fam, typ, _ := strings.Cut(strings.TrimPrefix(line, "# TYPE "), " ")
			if !helped[fam] || typ == "" {
				t.Errorf("%s: TYPE %q without HELP before it", fam, typ)
			}
			typed[fam] = true
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			name := line[:strings.IndexAny(line, "{ ")]
			fam := name
			for _, suf := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suf); ok && typed[base] {
					fam = base
				}
			}
			if !typed[fam] {
				t.Errorf("%s: a sample without # TYPE", name)
			}
		}
	}
	if len(typed) < 20 {
		t.Fatalf("only %d families", len(typed))
	}
}

// On PostgreSQL and Redis the scrape carries both pools' figures and the
// limiter's fall-backs by reason; a Redis that refuses connections shows
// as errors, then as rests while it is left alone.
func TestPoolAndFallbackMetrics(t *testing.T) {
	db := pgStore(t)
	live := limit.NewRedis(testRedis(t), 0, nil)
	h := newHarness(t, withDB(db), withRedis(live), withRates("100/1m", "600/1m", "6000/1m"))
	h.IP = randomIP()
	tok := bearer(h.Token("pooled", "free", ""))
	if r := h.Do("GET", "/api/v1/assets", "", tok...); r.Status != 200 {
		t.Fatalf("assets: %d %s", r.Status, r.Raw)
	}
	text := scrape(t, h.S)
	for _, series := range []string{"fiplan_db_pool_max_connections", `fiplan_db_pool_connections{state="idle"}`,
		"fiplan_db_pool_acquires_total", `fiplan_redis_pool_connections{state="open"}`, "fiplan_redis_pool_hits_total"} {
		v, ok := sample(text, series)
		if !ok {
			t.Errorf("%s missing", series)
			continue
		}
		if (series == "fiplan_db_pool_max_connections" || series == "fiplan_db_pool_acquires_total" ||
			series == `fiplan_redis_pool_connections{state="open"}`) && v < 1 {
			t.Errorf("%s = %v", series, v)
		}
	}

	// go-redis dials again until the deadline, so a Redis that refuses
	// connections is a timeout; one that answers with an error (here to
	// the choice of a database it does not have) is an error.
	for _, c := range []struct {
		name string
		opt  *redis.Options
		want map[string]float64
	}{
		{"refused", &redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}, map[string]float64{"error": 0, "resting": 1, "timeout": 1}},
		{"refusing", &redis.Options{Addr: "127.0.0.1:6379", DB: 1000, MaxRetries: -1}, map[string]float64{"error": 1, "resting": 1, "timeout": 0}},
	} {
		g := newHarness(t, withRedis(limit.NewRedis(redis.NewClient(c.opt), 0, nil)), withRates("100/1m", "600/1m", "6000/1m"))
		g.Do("GET", "/api/v1/geo/cities?limit=1", "") // Redis fails: decided here
		g.Do("GET", "/api/v1/geo/cities?limit=1", "") // within the second: left alone
		text = scrape(t, g.S)
		for reason, want := range c.want {
			if v, ok := sample(text, `fiplan_rate_limit_fallbacks_total{reason="`+reason+`"}`); !ok || v != want {
				t.Errorf("%s: fall-backs for %s: %v %v, want %v", c.name, reason, v, ok, want)
			}
		}
		if _, ok := sample(text, "fiplan_db_pool_max_connections"); ok {
			t.Error("bbolt has no pool, yet its series is there")
		}
	}
}

// sample is the value of one series in a scrape.
func sample(text, series string) (float64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			return f, err == nil
		}
	}
	return 0, false
}
