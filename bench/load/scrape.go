package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"
)

// The server's side of a run. Each fiplan serves its metrics on a
// loopback port of its own; around each run on a fiplan the harness reads
// them, so that a slow run says where the server's time went: the
// PostgreSQL pool (did requests wait for a connection, or read the store
// for their sign-out check?) and the process (how busy was its core, how
// many collections ran and what did they cost?).

// snapshot is fiplan's metrics at one moment, by series name.
type snapshot struct {
	at     time.Time
	series map[string]float64
}

// scrape reads fiplan's metrics at addr.
func scrape(addr string) (snapshot, error) {
	at := time.Now()
	code, body, err := fasthttp.GetTimeout(nil, "http://"+addr+"/metrics", 5*time.Second)
	if err != nil || code != 200 {
		return snapshot{}, fmt.Errorf("cannot read fiplan's metrics on %s: %v (status %d)", addr, err, code)
	}
	s := snapshot{at: at, series: map[string]float64{}}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			s.series[name] = v
		}
	}
	return s, nil
}

// poolLine says what a run of requests cost the PostgreSQL pool, from the
// metrics before and after it: acquires per request (a read is one), the
// share that waited for a connection and their mean wait, and the
// sign-out mirror's lag after the run. Empty for a store without a pool.
func poolLine(before, after snapshot, requests int) string {
	d := func(name string) float64 { return after.series[name] - before.series[name] }
	n := d("fiplan_db_pool_acquires_total")
	if _, ok := after.series["fiplan_db_pool_acquires_total"]; !ok || n <= 0 || requests <= 0 {
		return ""
	}
	waited := d("fiplan_db_pool_waited_acquires_total")
	mean := 0.0
	if waited > 0 {
		mean = d("fiplan_db_pool_wait_seconds_total") / waited
	}
	return fmt.Sprintf("pool of %.0f: %.2f acquires a request, %.0f%% waited (%.2f ms each); sign-out mirror lag %.2f s",
		after.series["fiplan_db_pool_max_connections"], n/float64(requests), 100*waited/n, 1000*mean,
		after.series["fiplan_signout_mirror_lag_seconds"])
}

// processLine says how busy fiplan's process was over a run of requests:
// its CPU time as a share of the run's time and per request, what the
// kernel counted of its threads (the time they waited for a CPU another
// process held, the switches to them a request), and the garbage
// collections in it with their CPU time (all of the collector's, and the
// part charged to requests as mark assists).
func processLine(name string, before, after snapshot, ran sched, requests int) string {
	d := func(name string) float64 { return after.series[name] - before.series[name] }
	wall := after.at.Sub(before.at).Seconds()
	if wall <= 0 || requests <= 0 {
		return ""
	}
	cpu := d("process_cpu_seconds_total")
	return fmt.Sprintf("%s: CPU %.0f%% of the run (%.1f µs a request, %.2f switches a request), %s waiting for its CPU; %.0f GCs using %.1f ms of CPU (assists %.1f ms)", name,
		100*cpu/wall, 1e6*cpu/float64(requests), float64(ran.runs)/float64(requests), ms(ran.waited), d("go_gc_duration_seconds_count"),
		1000*d("go_gc_cpu_seconds_total"), 1000*d("go_gc_mark_assist_cpu_seconds_total"))
}
