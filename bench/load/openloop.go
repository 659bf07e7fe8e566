package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// generate sends the weighted mix of rs to addr for d. With rate 0 it is
// closed-loop like wrk: each of conns connections sends its next request
// when the last one is answered, which finds the peak throughput. With a
// rate it is open-loop like wrk2: request i is due at start + i/rate
// whether or not earlier answers have come back, and its latency counts
// from when it was due, so a stalled server shows in the percentiles
// instead of slowing the generator down (coordinated omission). The next
// due request goes to whichever connection is free first, as a client
// pool would send it: a request waits only while every connection is
// busy, and that wait is part of its latency.
func generate(ctx context.Context, addr string, rs []route, cred credentials, templates []variedTemplate, rate float64, d time.Duration, conns int) (result, error) {
	c := &fasthttp.HostClient{Addr: addr, MaxConns: conns, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	total := 0
	for _, r := range rs {
		total += max(r.weight, 1)
	}
	var interval time.Duration
	if rate > 0 {
		interval = time.Duration(float64(time.Second) / rate)
	}
	start := time.Now().Add(50 * time.Millisecond)
	end := start.Add(d)
	lats := make([][]time.Duration, conns)
	bad := make([]int, conns)
	errs := make([]error, conns)
	var seq atomic.Int64 // the next request's number
	var wg sync.WaitGroup
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			var n uint64
			for {
				due := start.Add(time.Duration(seq.Add(1)-1) * interval)
				if interval == 0 {
					due = time.Now()
				}
				if due.After(end) || ctx.Err() != nil {
					return
				}
				if wait := time.Until(due); wait > 0 {
					time.Sleep(wait)
				}
				r := pick(rs, rng.IntN(total))
				body := r.body
				switch {
				case r.tmpl != nil:
					n++
					body = r.tmpl.body(n, w)
				case r.varied:
					n++
					body = templates[n%uint64(len(templates))].body(n, w)
				}
				req.Reset()
				setRequest(req, "http://"+addr, r.method, r.path, cred.header(r), body)
				if err := c.Do(req, res); err != nil {
					errs[w] = fmt.Errorf("cannot %s %s: %w", r.method, r.path, err)
					return
				}
				lats[w] = append(lats[w], time.Since(due))
				if code := res.StatusCode(); code < 200 || code > 299 {
					bad[w]++
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	var out result
	for w := range conns {
		if errs[w] != nil {
			return out, errs[w]
		}
		all = append(all, lats[w]...)
		out.non2xx += bad[w]
	}
	if len(all) == 0 {
		return out, fmt.Errorf("no request to %s completed", addr)
	}
	slices.Sort(all)
	out.requests = len(all)
	out.rps = float64(len(all)) / elapsed.Seconds()
	out.p50 = all[len(all)*50/100]
	out.p99 = all[min(len(all)-1, len(all)*99/100)]
	return out, nil
}

// pick returns the route whose weight band holds x, 0 <= x < sum of weights.
func pick(rs []route, x int) route {
	for _, r := range rs {
		if x < max(r.weight, 1) {
			return r
		}
		x -= max(r.weight, 1)
	}
	return rs[len(rs)-1]
}
