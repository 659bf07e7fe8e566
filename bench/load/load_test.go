package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

const wrkReport = `Running 2s test @ http://127.0.0.1:41234/
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.62ms    7.01ms  96.47ms   91.39%
    Req/Sec     2.90k   413.03     3.72k    70.00%
  Latency Distribution
     50%    3.91ms
     75%    6.20ms
     90%   11.02ms
     99%   26.87ms
  11563 requests in 2.00s, 118.12MB read
  Socket errors: connect 0, read 3, write 0, timeout 0
  Non-2xx or 3xx responses: 12
Requests/sec:   5779.06
Transfer/sec:     59.03MB
`

func TestParseWrk(t *testing.T) {
	got, err := parseWrk(wrkReport)
	if err != nil {
		t.Fatal(err)
	}
	want := result{requests: 11563, rps: 5779.06, p50: 3910 * time.Microsecond, p99: 26870 * time.Microsecond,
		non2xx: 12, socket: "connect 0, read 3, write 0, timeout 0"}
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	short, err := parseWrk(strings.Replace(wrkReport, "3.91ms", "950.00us", 1))
	if err != nil || short.p50 != 950*time.Microsecond {
		t.Fatalf("microseconds: %v, %v", short.p50, err)
	}
}

func TestParseWrkRejectsIncompleteReports(t *testing.T) {
	for name, out := range map[string]string{
		"empty":        "",
		"no latency":   strings.Replace(wrkReport, "Latency Distribution", "", 1),
		"no rps":       strings.Replace(wrkReport, "Requests/sec:", "Req:", 1),
		"bad duration": strings.Replace(wrkReport, "26.87ms", "26.87parsecs", 1),
		"bad count":    strings.Replace(wrkReport, "11563 requests", "many requests", 1),
		"bad non-2xx":  strings.Replace(wrkReport, "responses: 12", "responses: twelve", 1),
	} {
		if _, err := parseWrk(out); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSelectRoutes(t *testing.T) {
	rs, mixed, err := selectRoutes("cities, mixed,calculator")
	if err != nil || !mixed || len(rs) != 2 || rs[0].name != "cities" || rs[1].name != "calculator" {
		t.Fatalf("got %v %v %v", rs, mixed, err)
	}
	if rs, mixed, err := selectRoutes("none"); err != nil || mixed || len(rs) != 0 {
		t.Fatalf("none: %v %v %v", rs, mixed, err)
	}
	if _, _, err := selectRoutes("cities,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("unknown route: %v", err)
	}
}

func TestLuaQuote(t *testing.T) {
	if got, want := luaQuote("a\"b\\c\n\x01é"), `"a\"b\\c\010\001\195\169"`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestVariedBodiesDiffer(t *testing.T) {
	ts := variedTemplates(1, 64)
	if !reflect.DeepEqual(ts, variedTemplates(1, 64)) {
		t.Fatal("the same seed drew different requests")
	}
	seen := map[string]bool{}
	for n := range uint64(500) {
		for thread := range 3 {
			b := ts[n%64].body(n, thread)
			if seen[b] {
				t.Fatalf("body repeated: %s", b)
			}
			seen[b] = true
			var v map[string]any
			if err := json.Unmarshal([]byte(b), &v); err != nil {
				t.Fatalf("invalid JSON %s: %v", b, err)
			}
		}
	}
}

// post sends body to addr's calculator and returns the status and body.
func post(t *testing.T, addr, body string) (int, []byte) {
	t.Helper()
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	setRequest(req, "http://"+addr, "POST", "/api/v1/calculator", "", body)
	if err := fasthttp.DoTimeout(req, res, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode(), bytes.Clone(res.Body())
}

// The reference server runs the same engine: for every varied body, it
// answers what fiplan answers, field for field.
func TestReferenceAnswersAsFiplan(t *testing.T) {
	addr, stop, err := inProcess(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ref, refAddr, err := startReference()
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	ts := variedTemplates(7, 200)
	bodies := []string{identicalCalc}
	for i, tpl := range ts {
		bodies = append(bodies, tpl.body(uint64(i), 1))
	}
	historical := 0
	for _, body := range bodies {
		code, got := post(t, addr, body)
		if code != 200 {
			t.Fatalf("fiplan answered %d to %s: %s", code, body, got)
		}
		rcode, want := post(t, refAddr, body)
		if rcode != 200 {
			t.Fatalf("the reference answered %d to %s: %s", rcode, body, want)
		}
		var a, b struct{ Data map[string]any }
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if rows, _ := a.Data["projections"].([]any); len(rows) < 20 {
			t.Fatalf("fiplan answered %d projection rows to %s", len(rows), body)
		}
		if !reflect.DeepEqual(a.Data, b.Data) {
			t.Fatalf("for %s\nfiplan    %s\nreference %s", body, got, want)
		}
		if a.Data["historical"] != nil {
			historical++
		}
	}
	if historical == 0 {
		t.Fatal("no varied body asked for a backtest")
	}
	if code, _ := post(t, refAddr, `{"currentAge":12,"annualIncome":1,"annualExpenses":1}`); code != 400 {
		t.Fatalf("the reference answered %d to an age of 12", code)
	}
	if code, _ := post(t, refAddr, `{"currentAge":40,"annualIncome":1,"annualExpenses":1,"color":"red"}`); code != 400 {
		t.Fatalf("the reference answered %d to an unknown field", code)
	}
}

func TestCeilingReplaysCapturedBytes(t *testing.T) {
	addr, stop, err := inProcess(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c := &fasthttp.Client{}
	fixed, err := capture(c, "http://"+addr, "POST", "/api/v1/calculator", "", identicalCalc)
	if err != nil {
		t.Fatal(err)
	}
	varied, err := capture(c, "http://"+addr, "POST", "/api/v1/calculator", "", variedTemplates(1, 1)[0].body(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture(c, "http://"+addr, "GET", "/api/v1/user/profile", "", ""); err == nil {
		t.Fatal("capture accepted a 401")
	}
	ceil, err := startCeiling([]cannedRoute{
		{method: "POST", path: "/api/v1/calculator", body: []byte(identicalCalc), res: fixed},
		{method: "POST", path: "/api/v1/calculator", res: varied},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ceil.close()
	for _, tc := range []struct {
		body string
		want *canned
	}{{identicalCalc, fixed}, {`{"anything":1}`, varied}} {
		replayed, err := capture(c, "http://"+ceil.addr(), "POST", "/api/v1/calculator", "", tc.body)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(replayed.body, tc.want.body) || !reflect.DeepEqual(replayed.headers, tc.want.headers) || replayed.status != tc.want.status {
			t.Fatalf("replayed %d %q\n%s\nwant %d %q\n%s", replayed.status, replayed.headers, replayed.body, tc.want.status, tc.want.headers, tc.want.body)
		}
	}
	if _, err := capture(c, "http://"+ceil.addr(), "GET", "/api/v1/geo/cities", "", ""); err == nil {
		t.Fatal("the ceiling answered a route it has not captured")
	}
}

func TestGenerateHoldsTheRate(t *testing.T) {
	ceil, err := startCeiling([]cannedRoute{{method: "GET", path: "/ok", res: &canned{status: 200, body: []byte("{}")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ceil.close()
	rs := []route{{name: "ok", method: "GET", path: "/ok"}}
	res, err := generate(context.Background(), ceil.addr(), rs, credentials{}, nil, 200, time.Second, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Every request due in the second is sent, however late: 201 slots.
	if res.requests < 200 || res.requests > 204 || res.non2xx != 0 || res.p99 < res.p50 || res.p50 <= 0 {
		t.Fatalf("got %+v, want 201 requests at 200/s", res)
	}
	bad := []route{{name: "missing", method: "GET", path: "/missing"}}
	if res, err := generate(context.Background(), ceil.addr(), bad, credentials{}, nil, 0, 200*time.Millisecond, 2); err != nil || res.non2xx == 0 || res.non2xx != res.requests {
		t.Fatalf("404s not counted: %+v, %v", res, err)
	}
}

func TestP99Verdict(t *testing.T) {
	at := result{requests: 1000, rps: 800, p50: time.Millisecond, p99: 4 * time.Millisecond}
	floor := result{requests: 1000, rps: 800, p50: 300 * time.Microsecond, p99: 1500 * time.Microsecond}
	q := quiet{loadAvg: "0.10 0.20 0.30", waited: 12 * time.Millisecond}
	if v := p99Verdict(at, floor, 1000, 0, q); v.missed || strings.Contains(v.line, "goal") ||
		!strings.Contains(v.line, "4.00 ms") || !strings.Contains(v.line, "0.10 0.20 0.30") ||
		!strings.Contains(v.line, "the ceiling at that rate 1.50 ms (p50 0.30 ms)") || !strings.Contains(v.line, "fiplan waited 12.00 ms for its CPU") {
		t.Errorf("no goal: %+v", v)
	}
	if v := p99Verdict(at, result{}, 1000, 5*time.Millisecond, quiet{}); v.missed || !strings.HasSuffix(v.line, "goal < 5.00 ms: met") || strings.Contains(v.line, "ceiling") {
		t.Errorf("under the goal: %+v", v)
	}
	at.p99 = 5 * time.Millisecond
	if v := p99Verdict(at, floor, 1000, 5*time.Millisecond, q); !v.missed || !strings.HasSuffix(v.line, "MISSED") {
		t.Errorf("at the goal: %+v", v)
	}
	if v := p99Verdict(result{}, floor, 1000, 5*time.Millisecond, q); !v.missed {
		t.Errorf("no requests: %+v", v)
	}
}

// -db and -also-db take PostgreSQL URLs only, refused before anything is
// built or started.
func TestDBFlagsTakeURLs(t *testing.T) {
	for _, o := range []options{{db: "fiplan.db"}, {alsoDB: "/tmp/x.db"}} {
		o.rounds, o.threads, o.conns, o.duration, o.routes = 1, 1, 1, time.Second, "assets"
		var out bytes.Buffer
		err := run(context.Background(), o, &out)
		if err == nil || !strings.Contains(err.Error(), "takes a postgres:// URL") || out.Len() != 0 {
			t.Errorf("%+v: %v (printed %q)", o, err, out.String())
		}
	}
}

// The breakdown names the route that owns the tail: here every one of the
// slowest 1% is the second route's, and its connection wait is the part
// that made it slow.
func TestBreakdownFindsTheSlowRoute(t *testing.T) {
	rs := []route{{name: "fast"}, {name: "slow"}}
	var all []sample
	for i := range 1000 {
		s := sample{own: 10 * time.Microsecond, answer: 200 * time.Microsecond}
		if i%50 == 0 {
			s.route, s.connWait = 1, 20*time.Millisecond
		}
		all = append(all, s)
	}
	line := breakdown(rs, all, 500*time.Millisecond, 3*time.Millisecond, time.Second, 2)
	for _, want := range []string{
		"p99 of its parts: connection wait 20.00 ms, generator 0.01 ms, answer 0.20 ms",
		"generator CPU 50% (500.0 µs a request), 2 GCs, 3.00 ms waiting for its CPU",
		"fast p99 0.21 ms (answer 0.20 ms, 0% of the slowest 1%)",
		"slow p99 20.21 ms (answer 0.20 ms, 100% of the slowest 1%)",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("no %q in\n%s", want, line)
		}
	}
}

// The server lines are differences of fiplan's counters over a run.
func TestServerLines(t *testing.T) {
	at := time.Now()
	before := snapshot{at: at, series: map[string]float64{"process_cpu_seconds_total": 1, "go_gc_duration_seconds_count": 4,
		"go_gc_cpu_seconds_total": 0.5, "go_gc_mark_assist_cpu_seconds_total": 0.1,
		"fiplan_db_pool_acquires_total": 100, "fiplan_db_pool_waited_acquires_total": 10, "fiplan_db_pool_wait_seconds_total": 1}}
	after := snapshot{at: at.Add(2 * time.Second), series: map[string]float64{"process_cpu_seconds_total": 2.6, "go_gc_duration_seconds_count": 7,
		"go_gc_cpu_seconds_total": 0.53, "go_gc_mark_assist_cpu_seconds_total": 0.102,
		"fiplan_db_pool_acquires_total": 20100, "fiplan_db_pool_waited_acquires_total": 18010, "fiplan_db_pool_wait_seconds_total": 19,
		"fiplan_db_pool_max_connections": 8, "fiplan_signout_mirror_lag_seconds": 0.2}}
	if got, want := processLine("fiplan", before, after, sched{waited: 40 * time.Millisecond, runs: 4000}, 16000),
		"fiplan: CPU 80% of the run (100.0 µs a request, 0.25 switches a request), 40.00 ms waiting for its CPU; 3 GCs using 30.0 ms of CPU (assists 2.0 ms)"; got != want {
		t.Errorf("process line\n got %s\nwant %s", got, want)
	}
	if got, want := poolLine(before, after, 20000), "pool of 8: 1.00 acquires a request, 90% waited (1.00 ms each); sign-out mirror lag 0.20 s"; got != want {
		t.Errorf("pool line\n got %s\nwant %s", got, want)
	}
	bbolt := snapshot{at: at, series: map[string]float64{"process_cpu_seconds_total": 1}}
	if got := poolLine(bbolt, bbolt, 100); got != "" {
		t.Errorf("a store without a pool: %q", got)
	}
}

// The kernel's counts are summed over a process's threads: at least
// what its main thread alone waited and ran, read before; zero for a
// process that does not exist.
func TestSchedOf(t *testing.T) {
	if schedOf(-1) != (sched{}) {
		t.Error("a process that does not exist waited")
	}
	b, err := os.ReadFile("/proc/self/schedstat")
	if err != nil {
		return // the kernel keeps no schedstat here
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		t.Fatalf("schedstat %q", b)
	}
	waited, err := time.ParseDuration(f[1] + "ns")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := schedOf(os.Getpid()); got.waited < waited || got.runs < runs {
		t.Errorf("the process %+v, less than its main thread's %v and %d runs", got, waited, runs)
	}
}
