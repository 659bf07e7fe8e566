package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/limit"
)

// TestSoak drives a real server on a loopback port with a bounded mixed
// load: every public and authenticated route, writes that create and
// delete, and bad inputs of every kind (broken JSON, failed validation,
// unknown routes and methods, bad credentials, oversized bodies). It
// requires no 5xx at all, RSS growth under 20% from the warmed-up server
// to the end, and the goroutines back to where they were once the clients
// hang up; it prints the figures and the metrics the load produced.
//
// CI sends 200000 requests; FI_SOAK_REQUESTS sets another count (the
// longer run is FI_SOAK_REQUESTS=1000000). Skipped under -short and -race.
func TestSoak(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a load test: not under -short or -race")
	}
	total := 200_000
	if v := os.Getenv("FI_SOAK_REQUESTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1000 {
			t.Fatalf("FI_SOAK_REQUESTS=%q: want a count of at least 1000", v)
		}
		total = n
	}
	const workers = 8
	if os.Getenv("FI_SOAK_HEAP") != "" {
		runtime.MemProfileRate = 4096
	}
	dbPath := filepath.Join(t.TempDir(), "soak.db")
	s, addr, maddr, tokens := soakServer(t, dbPath, workers)
	hc := &fasthttp.HostClient{Addr: addr, MaxConns: workers, MaxResponseBodySize: 16 << 20, ReadTimeout: 30 * time.Second}

	// Every latency, in one array allocated before the baseline: a
	// request sequence may overshoot the count by its last three.
	lat := &latencies{d: make([]time.Duration, total+4*workers)}
	for i := range lat.d {
		lat.d[i] = -1 // fault its pages in now, or the load would count them as growth
	}
	// Warm up (pools, caches, the page cache of the db), then take the
	// baselines.
	// fasthttp's buffer pools size themselves every 42000 uses: the
	// warm-up runs past the first sizing.
	runLoad(t, hc, tokens, workers, max(50_000, total/10), nil)
	for seed := range mcSeeds {
		if st, body := soakDo(hc, "POST", "/api/v1/calculator", "", mcBody(seed)); st != 200 {
			t.Fatalf("Monte Carlo seed %d: %d %.200s", seed, st, body)
		}
	}
	hc.CloseIdleConnections()
	settle(0)
	// Both measures follow FreeOSMemory: the runtime keeps freed heap
	// until its scavenger returns it, which would count a burst (the
	// 1 MiB bodies) as growth; what stays is live memory and the db map.
	// The GC before it empties the pools' victim caches.
	runtime.GC()
	debug.FreeOSMemory()
	goroutines, rssStart := runtime.NumGoroutine(), rss(t)
	t.Logf("start: %s; db %d KiB", rssParts(), dbSize(t, dbPath))
	if p := os.Getenv("FI_SOAK_HEAP"); p != "" {
		writeHeap(t, p+".start")
		defer writeHeap(t, p+".end")
	}
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t.Logf("start: heap in use %.1f MiB, released %.1f, stacks %.1f, sys %.1f", mib(int64(ms0.HeapInuse)), mib(int64(ms0.HeapReleased)), mib(int64(ms0.StackInuse)), mib(int64(ms0.Sys)))

	began := time.Now()
	counts := runLoad(t, hc, tokens, workers, total, lat)
	elapsed := time.Since(began)
	hc.CloseIdleConnections()
	runtime.GC()
	debug.FreeOSMemory()
	rssEnd := rss(t)
	t.Logf("end: %s; db %d KiB", rssParts(), dbSize(t, dbPath))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use %.1f MiB, released %.1f, stacks %.1f, sys %.1f", mib(int64(ms.HeapInuse)), mib(int64(ms.HeapReleased)), mib(int64(ms.StackInuse)), mib(int64(ms.Sys)))
	after := settle(goroutines)

	all := lat.d[:min(int(lat.n.Load()), len(lat.d))]
	slices.Sort(all)
	p := func(q float64) time.Duration { return all[int(q*float64(len(all)-1))] }
	var fivexx int64
	for st, n := range counts {
		if st >= 500 || (st != 0 && st < 200) {
			fivexx += n
		}
	}
	t.Logf("requests %d in %v (%.0f/s), 5xx %d, statuses %v", len(all), elapsed.Round(time.Millisecond), float64(len(all))/elapsed.Seconds(), fivexx, counts)
	t.Logf("latency p50 %v p99 %v max %v", p(0.5), p(0.99), all[len(all)-1])
	t.Logf("RSS start %.1f MiB, end %.1f MiB (%+.1f%%); goroutines %d before, %d after", mib(rssStart), mib(rssEnd), 100*(float64(rssEnd)/float64(rssStart)-1), goroutines, after)
	t.Logf("metrics:\n%s", soakMetrics(t, maddr))

	if fivexx != 0 {
		t.Errorf("%d responses were 5xx", fivexx)
	}
	if float64(rssEnd) > 1.2*float64(rssStart) {
		t.Errorf("RSS grew from %.1f to %.1f MiB", mib(rssStart), mib(rssEnd))
	}
	if after > goroutines {
		t.Errorf("%d goroutines after the load, %d before", after, goroutines)
	}
	if counts[413] == 0 {
		t.Error("no oversized body was answered 413")
	}
	if int64(len(all)) < int64(total) {
		t.Errorf("only %d of %d requests were answered", len(all), total)
	}
	_ = s
}

func dbSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size() >> 10
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// rss is the process's resident set size.
// writeHeap writes a heap profile to path.
func writeHeap(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		t.Error(err)
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
}

func rss(t *testing.T) int64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm: RSS cannot be measured here")
	}
	f := strings.Fields(string(raw))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// rssParts is the resident memory by kind (/proc/self/status): anonymous
// (the heap, stacks) and file-backed (the binary, the db's memory map).
func rssParts() string {
	raw, _ := os.ReadFile("/proc/self/status")
	var parts []string
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "RssAnon:") || strings.HasPrefix(line, "RssFile:") {
			parts = append(parts, strings.Join(strings.Fields(line), " "))
		}
	}
	return strings.Join(parts, ", ")
}

// settle waits (up to 15 s) for the goroutines to fall to want, and
// returns how many there are.
func settle(want int) int {
	deadline := time.Now().Add(15 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type soakTokens struct {
	pro, free, admin, key, expired string
}

// soakServer starts fiplan on loopback with rate limits off and the
// expensive-request gate as wide as the load (the gate's refusals are
// tested on their own), plus its metrics listener.
func soakServer(t *testing.T, dbPath string, workers int) (*handlers.Server, string, string, soakTokens) {
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: secret, CacheSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	s, err := handlers.New(handlers.Config{Version: "soak", DB: db, Verifier: v, RatePublic: limit.Rate{}, RateFree: limit.Rate{}, RatePro: limit.Rate{}, MaxExpensive: workers})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTP()
	srv.MaxIdleWorkerDuration = 200 * time.Millisecond // idle workers end soon after the load
	msrv := &fasthttp.Server{Handler: s.Metrics}
	go srv.Serve(ln)   //nolint:errcheck // ends at Shutdown
	go msrv.Serve(mln) //nolint:errcheck // ends at Shutdown
	t.Cleanup(func() {
		if err := srv.Shutdown(); err != nil {
			t.Error(err)
		}
		if err := msrv.Shutdown(); err != nil {
			t.Error(err)
		}
		s.Close()
		v.Close()
		db.Close()
	})
	sign := func(sub, tier, role string, at time.Time) string {
		tok, err := auth.Sign(secret, auth.Claims{Sub: sub, Tier: tier, Role: role, TTL: time.Hour}, at)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	now := time.Now()
	tk := soakTokens{pro: sign("soak-pro", "pro", "", now), free: sign("soak-free", "free", "", now), admin: sign("soak-admin", "pro", "admin", now),
		expired: sign("soak-old", "free", "", now.Add(-2*time.Hour))}
	hc := &fasthttp.HostClient{Addr: ln.Addr().String()}
	st, body := soakDo(hc, "POST", "/api/v1/user/api-keys", tk.free, `{"name":"soak"}`)
	if st != 201 {
		t.Fatalf("key: %d %s", st, body)
	}
	var k struct {
		Data struct{ Key string } `json:"data"`
	}
	if err := json.Unmarshal(body, &k); err != nil {
		t.Fatal(err)
	}
	tk.key = k.Data.Key
	hc.CloseIdleConnections()
	return s, ln.Addr().String(), mln.Addr().String(), tk
}

func soakDo(hc *fasthttp.HostClient, method, path, tok, body string) (int, []byte) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.Header.SetMethod(method)
	req.SetRequestURI("http://" + hc.Addr + path)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
	if err := hc.DoTimeout(req, res, 30*time.Second); err != nil {
		return 0, []byte(err.Error())
	}
	return res.StatusCode(), append([]byte(nil), res.Body()...)
}

// soakReq is one request of the mix; weight is its share.
type soakReq struct {
	weight       int
	method, path string
	tok          func(soakTokens) string
	body         string
}

func anon(soakTokens) string      { return "" }
func pro(t soakTokens) string     { return t.pro }
func free(t soakTokens) string    { return t.free }
func admin(t soakTokens) string   { return t.admin }
func apiKey(t soakTokens) string  { return t.key }
func expired(t soakTokens) string { return t.expired }
func forged(soakTokens) string    { return "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0." }

const soakCalcBody = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"scenarios":[{"name":"frugal","annualExpenses":35000}]}`

// soakMix is every route with good and bad inputs. Writes that would grow
// the db without end come in create/delete pairs (see runLoad).
var soakMix = []soakReq{
	{40, "GET", "/api/v1/status", anon, ""},
	{1, "GET", "/api/v1/openapi.json", anon, ""},
	{60, "POST", "/api/v1/calculator", anon, soakCalcBody},
	{40, "POST", "/api/v1/portfolio-health", anon, `{"holdings":[{"name":"World","value":200000,"assetClass":"equity","expenseRatio":0.002},{"name":"Cash","value":15000,"assetClass":"cash"}],"age":40}`},
	{40, "GET", "/api/v1/geo/cities?limit=5&sort=cost", anon, ""},
	{20, "GET", "/api/v1/fi-score", pro, ""},
	{30, "GET", "/api/v1/assets?limit=10", apiKey, ""},
	{15, "GET", "/api/v1/assets/summary", free, ""},
	{10, "POST", "/api/v1/assets/categorize", apiKey, `{"items":[{"name":"Vanguard FTSE All-World"},{"name":"iShares Core Global Aggregate Bond","isin":"IE00B3F81409"}]}`},
	{15, "GET", "/api/v1/user/profile", pro, ""},
	{2, "PATCH", "/api/v1/user/profile", pro, `{"currentAge":38,"annualIncome":70000,"annualExpenses":36000}`},
	{10, "GET", "/api/v1/user/settings", free, ""},
	{1, "PUT", "/api/v1/user/settings", free, `{"baseCurrency":"EUR"}`},
	{10, "GET", "/api/v1/user/notifications", free, ""},
	{1, "PATCH", "/api/v1/user/notifications", free, `{}`},
	{3, "GET", "/api/v1/user/export", pro, ""},
	{10, "GET", "/api/v1/user/api-keys", free, ""},
	{20, "GET", "/api/v1/geo/cities/lisbon-pt", apiKey, ""},
	{10, "GET", "/api/v1/geo/compare?ids=zurich-ch,lisbon-pt,chiang-mai-th&style=lean", pro, ""},
	{10, "POST", "/api/v1/geo/recommendations", pro, `{"portfolioUSD":900000,"withdrawalRate":0.035,"householdSize":2}`},
	{10, "GET", "/api/v1/tax/countries", free, ""},
	{20, "POST", "/api/v1/tax/calculate", apiKey, `{"country":"GB","region":"SCT","income":{"employment":50000,"dividends":3000}}`},
	{10, "GET", "/api/v1/tax/programs?country=IT", free, ""},
	{10, "GET", "/api/v1/tax/programs/it-pensioner-7", free, ""},
	{1, "POST", "/api/v1/tax/optimize", pro, `{"country":"US","income":{"pension":30000,"dividends":20000},"candidates":["PT","IT","GR"]}`},
	{10, "GET", "/api/v1/features", free, ""},
	{5, "GET", "/api/v1/features/calculator-monte-carlo", free, ""},
	{1, "GET", "/api/v1/features/soak/stats", admin, ""},

	// Bad inputs: each must be a 4xx, never a 5xx.
	{15, "POST", "/api/v1/calculator", anon, `{"currentAge":35,`},
	{15, "POST", "/api/v1/calculator", anon, `{"currentAge":"35","annualIncome":1,"annualExpenses":1}`},
	{10, "POST", "/api/v1/calculator", anon, `{"annualIncome":1}`},
	{10, "POST", "/api/v1/portfolio-health", anon, `[]`},
	{10, "GET", "/api/v1/nothing/here", anon, ""},
	{10, "DELETE", "/api/v1/status", anon, ""},
	{10, "GET", "/api/v1/geo/cities?limit=-4", anon, ""},
	{10, "GET", "/api/v1/geo/cities?debug=1", anon, ""},
	{10, "GET", "/api/v1/assets", anon, ""},
	{10, "GET", "/api/v1/assets", expired, ""},
	{10, "GET", "/api/v1/assets", forged, ""},
	{5, "GET", "/api/v1/assets/ast_none", free, ""},
	{5, "POST", "/api/v1/user/api-keys", apiKey, `{"name":"x"}`},
	{5, "POST", "/api/v1/tax/optimize", free, `{"country":"US","income":{"pension":1}}`},
	{5, "PUT", "/api/v1/features/soak", free, `{"enabled":true}`},
	{5, "POST", "/api/v1/tax/calculate", free, `{"country":"ZZ","income":{}}`},
	{5, "GET", "/api/v1/admin/backup", free, ""},
}

// mcSeeds is how many distinct Monte Carlo requests the load sends. The
// warm-up sends each once, so the calculator's answer cache (bounded at 32
// MiB) holds them all before the baseline; unique seeds would fill that
// cache during the run and read as growth.
const mcSeeds = 200

func mcBody(seed int) string {
	return `{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"historical":{},"monteCarlo":{"simulations":200,"seed":` + strconv.Itoa(seed) + `}}`
}

// soakOps is soakMix expanded by weight, plus the write sequences.
func soakOps() []int {
	var ops []int
	for i, r := range soakMix {
		for range r.weight {
			ops = append(ops, i)
		}
	}
	for range 12 { // create, patch, read and delete an asset
		ops = append(ops, -1)
	}
	for range 2 { // create and revoke an API key
		ops = append(ops, -2)
	}
	for range 2 { // a Monte Carlo run of one of mcSeeds seeds
		ops = append(ops, -5)
	}
	ops = append(ops, -3) // define and remove a flag
	ops = append(ops, -4) // an oversized body
	return ops
}

// runLoad sends n requests from workers goroutines and returns the count
// per status; with lat it records each request's latency.
func runLoad(t *testing.T, hc *fasthttp.HostClient, tk soakTokens, workers, n int, lat *latencies) map[int]int64 {
	ops := soakOps()
	var sent atomic.Int64
	var mu sync.Mutex
	counts := map[int]int64{}
	big := `{"x":"` + strings.Repeat("a", 1<<20) + `"}`
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := map[int]int64{}
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			// send sends one request. The server answers an oversized body
			// with 413 before reading it and closes the connection, so a
			// client still writing that body may see the reset instead
			// (mayReset); any other transport error is a failure.
			send := func(method, path, tok, body string, mayReset bool) []byte {
				req.Reset()
				req.Header.SetMethod(method)
				req.SetRequestURI("http://" + hc.Addr + path)
				if tok != "" {
					req.Header.Set("Authorization", "Bearer "+tok)
				}
				switch {
				case len(body) > 64<<10:
					req.Header.SetContentType("application/json")
					req.SetBodyRaw(bytesconv.Bytes(body)) // not copied into a pooled buffer
				case body != "":
					req.Header.SetContentType("application/json")
					req.SetBodyString(body)
				}
				began := time.Now()
				err := hc.DoTimeout(req, res, 30*time.Second)
				if lat != nil {
					lat.add(time.Since(began))
				}
				st := res.StatusCode()
				switch {
				case err != nil && mayReset:
					st = 0 // reset while sending the body the 413 refused
				case err != nil:
					st = 599 // the client's failure counts as a server failure
					t.Errorf("%s %s: %v", method, path, err)
				case st >= 500:
					t.Errorf("%s %s: %d %.200s", method, path, st, res.Body())
				}
				local[st]++
				return res.Body()
			}
			do := func(method, path, tok, body string) []byte { return send(method, path, tok, body, false) }
			for sent.Add(1) <= int64(n) {
				switch op := ops[rng.IntN(len(ops))]; op {
				case -1:
					body := do("POST", "/api/v1/assets", tk.pro, `{"name":"soak `+strconv.Itoa(w)+`","value":1000,"category":"equity"}`)
					id := jsonID(body)
					if id == "" {
						continue
					}
					sent.Add(3)
					do("PATCH", "/api/v1/assets/"+id, tk.pro, `{"value":1200}`)
					do("GET", "/api/v1/assets/"+id, tk.pro, "")
					do("DELETE", "/api/v1/assets/"+id, tk.pro, "")
				case -2:
					id := jsonID(do("POST", "/api/v1/user/api-keys", tk.free, `{"name":"soak"}`))
					if id != "" {
						sent.Add(1)
						do("DELETE", "/api/v1/user/api-keys/"+id, tk.free, "")
					}
				case -3:
					key := "soak-" + strconv.Itoa(w)
					sent.Add(1)
					do("PUT", "/api/v1/features/"+key, tk.admin, `{"enabled":true,"rolloutPercent":50}`)
					do("DELETE", "/api/v1/features/"+key, tk.admin, "")
				case -5:
					do("POST", "/api/v1/calculator", "", mcBody(rng.IntN(mcSeeds)))
				case -4:
					send("POST", "/api/v1/calculator", "", big, true)
				default:
					r := &soakMix[op]
					do(r.method, r.path, r.tok(tk), r.body)
				}
			}
			mu.Lock()
			for st, c := range local {
				counts[st] += c
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return counts
}

// latencies collects request latencies without allocating.
type latencies struct {
	d []time.Duration
	n atomic.Int64
}

func (l *latencies) add(d time.Duration) {
	if i := l.n.Add(1) - 1; i < int64(len(l.d)) {
		l.d[i] = d
	}
}

func jsonID(body []byte) string {
	var v struct {
		Data struct{ ID string } `json:"data"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	return v.Data.ID
}

// soakMetrics scrapes /metrics and keeps the lines worth printing: the
// non-zero request counters by route and status, and the other fiplan
// series that moved.
func soakMetrics(t *testing.T, maddr string) string {
	hc := &fasthttp.HostClient{Addr: maddr, MaxResponseBodySize: 16 << 20}
	st, body := soakDo(hc, "GET", "/metrics", "", "")
	if st != 200 {
		t.Fatalf("/metrics: %d", st)
	}
	var out bytes.Buffer
	for _, line := range strings.Split(string(body), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok || value == "0" || strings.Contains(name, "_bucket{") {
			continue
		}
		switch {
		case strings.HasPrefix(name, "fiplan_http_requests_total"),
			strings.HasPrefix(name, "fiplan_rate_limited"), strings.HasPrefix(name, "fiplan_overload"),
			strings.HasPrefix(name, "fiplan_token_cache"), strings.HasPrefix(name, "fiplan_montecarlo"),
			strings.HasPrefix(name, "fiplan_recommendation"), strings.HasPrefix(name, "fiplan_calculator"), strings.HasPrefix(name, "fiplan_store_errors"),
			strings.HasPrefix(name, "fiplan_store_duration_seconds_count"),
			name == "go_goroutines", name == "process_resident_memory_bytes":
			fmt.Fprintln(&out, line)
		}
	}
	return out.String()
}
