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

// The store's side of a run. Each fiplan serves its metrics on a loopback
// port of its own; around each run on a fiplan the harness reads the
// PostgreSQL pool's counters and the sign-out mirror's lag, so that a
// slow round on PostgreSQL says whether its requests waited for a
// connection or read the store for their sign-out check.

// poolCounters are the running totals of fiplan's PostgreSQL pool.
type poolCounters struct {
	acquires, waited float64
	wait             float64 // seconds
	maxConns         float64
	lag              float64 // the sign-out mirror's, seconds
}

// scrapePool reads fiplan's metrics at addr; ok is false for a store
// without a pool (bbolt).
func scrapePool(addr string) (poolCounters, bool, error) {
	code, body, err := fasthttp.GetTimeout(nil, "http://"+addr+"/metrics", 5*time.Second)
	if err != nil || code != 200 {
		return poolCounters{}, false, fmt.Errorf("cannot read fiplan's metrics on %s: %v (status %d)", addr, err, code)
	}
	var c poolCounters
	found := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "fiplan_db_pool_acquires_total":
			c.acquires, found = v, true
		case "fiplan_db_pool_waited_acquires_total":
			c.waited = v
		case "fiplan_db_pool_wait_seconds_total":
			c.wait = v
		case "fiplan_db_pool_max_connections":
			c.maxConns = v
		case "fiplan_signout_mirror_lag_seconds":
			c.lag = v
		}
	}
	return c, found, nil
}

// poolLine says what a run of requests cost the pool, from the counters
// before and after it: acquires per request (a read is one), the share
// that waited for a connection and their mean wait, and the mirror's lag
// after the run.
func poolLine(before, after poolCounters, requests int) string {
	n := after.acquires - before.acquires
	if n <= 0 || requests <= 0 {
		return ""
	}
	waited := after.waited - before.waited
	mean := 0.0
	if waited > 0 {
		mean = (after.wait - before.wait) / waited
	}
	return fmt.Sprintf("pool of %.0f: %.2f acquires a request, %.0f%% waited (%.2f ms each); sign-out mirror lag %.2f s",
		after.maxConns, n/float64(requests), 100*waited/n, 1000*mean, after.lag)
}
