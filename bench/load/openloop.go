package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
//
// The latency from when a request was due is the sum of three parts,
// reported apart (result.detail) so that a tail can be told from the
// generator's own: the wait for a free connection (the server held every
// one), the generator's own delay (a Go timer on an idle processor wakes
// on the millisecond, and the request is built), and the time from the
// write to the whole answer. The generator's delay stays in the latency:
// taking it out would also take out the part of a server stall it
// overlaps; its p99 says how much of a tail it can be.
//
// Requests are made once per connection and route; a varied body is
// written into a buffer of the connection's; the samples of an open-loop
// run are allocated before it starts: the generator allocates next to
// nothing while it measures, so its own collector does not run into the
// figures.
func generate(ctx context.Context, addr string, rs []route, cred credentials, templates []variedTemplate, rate float64, d time.Duration, conns int) (result, error) {
	c := &fasthttp.HostClient{Addr: addr, MaxConns: conns, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	total := 0
	for _, r := range rs {
		total += max(r.weight, 1)
	}
	var interval time.Duration
	var planned []sample // open loop: one slot per due request, by number
	if rate > 0 {
		interval = time.Duration(float64(time.Second) / rate)
		planned = make([]sample, int(d/interval)+1)
	}
	start := time.Now().Add(50 * time.Millisecond)
	end := start.Add(d)
	closed := make([][]sample, conns) // closed loop: each connection's
	bad := make([]int, conns)
	errs := make([]error, conns)
	var seq atomic.Int64 // the next request's number
	var wg sync.WaitGroup
	cpu0, sched0 := cpuTime(), schedOf(os.Getpid())
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			reqs := make([]*fasthttp.Request, len(rs))
			for i, r := range rs {
				reqs[i] = fasthttp.AcquireRequest()
				defer fasthttp.ReleaseRequest(reqs[i])
				setRequest(reqs[i], "http://"+addr, r.method, r.path, cred.header(r), r.body)
				if r.method == "POST" {
					reqs[i].Header.SetContentType("application/json")
				}
			}
			res := fasthttp.AcquireResponse()
			defer fasthttp.ReleaseResponse(res)
			var buf []byte
			var n uint64
			for {
				i := seq.Add(1) - 1
				free := time.Now()
				due := start.Add(time.Duration(i) * interval)
				if interval == 0 {
					due = free
				}
				if due.After(end) || ctx.Err() != nil {
					return
				}
				if wait := due.Sub(free); wait > 0 {
					time.Sleep(wait)
				}
				ri := pickIndex(rs, rng.IntN(total))
				r, req := rs[ri], reqs[ri]
				switch {
				case r.tmpl != nil:
					n++
					buf = r.tmpl.appendBody(buf[:0], n, w)
					req.SetBodyRaw(buf)
				case r.varied:
					n++
					buf = templates[n%uint64(len(templates))].appendBody(buf[:0], n, w)
					req.SetBodyRaw(buf)
				}
				sent := time.Now()
				if err := c.Do(req, res); err != nil {
					errs[w] = fmt.Errorf("cannot %s %s: %w", r.method, r.path, err)
					return
				}
				done := time.Now()
				s := sample{connWait: max(0, free.Sub(due)), route: uint8(ri)}
				s.own = sent.Sub(due) - s.connWait
				s.answer = done.Sub(sent)
				if planned != nil && i < int64(len(planned)) {
					planned[i] = s
				} else {
					closed[w] = append(closed[w], s)
				}
				if code := res.StatusCode(); code < 200 || code > 299 {
					bad[w]++
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu, waited := cpuTime()-cpu0, schedOf(os.Getpid()).sub(sched0).waited
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	var out result
	all := slices.DeleteFunc(planned, func(s sample) bool { return s.answer == 0 })
	for w := range conns {
		if errs[w] != nil {
			return out, errs[w]
		}
		all = append(all, closed[w]...)
		out.non2xx += bad[w]
	}
	if len(all) == 0 {
		return out, fmt.Errorf("no request to %s completed", addr)
	}
	out.requests = len(all)
	out.rps = float64(len(all)) / elapsed.Seconds()
	out.p50 = quantile(all, sample.latency, 50)
	out.p99 = quantile(all, sample.latency, 99)
	out.detail = breakdown(rs, all, cpu, waited, elapsed, ms1.NumGC-ms0.NumGC)
	return out, nil
}

// sample is one answered request's time, in its three parts.
type sample struct {
	connWait time.Duration // from due until a connection was free
	own      time.Duration // the generator's: until the write began
	answer   time.Duration // from the write to the whole answer
	route    uint8         // index into the routes
}

func (s sample) latency() time.Duration { return s.connWait + s.own + s.answer }

// quantile is the q-th percentile of f over ss.
func quantile(ss []sample, f func(sample) time.Duration, q int) time.Duration {
	v := make([]time.Duration, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[min(len(v)-1, len(v)*q/100)]
}

// breakdown says where a run's time went: the p99 of each part of the
// latency, the generator's CPU and collections, and each route's p99 and
// share of the slowest 1%.
func breakdown(rs []route, all []sample, cpu, waited, elapsed time.Duration, gcs uint32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "p99 of its parts: connection wait %s, generator %s, answer %s; generator CPU %.0f%% (%.1f µs a request), %d GCs, %s waiting for its CPU;",
		ms(quantile(all, func(s sample) time.Duration { return s.connWait }, 99)),
		ms(quantile(all, func(s sample) time.Duration { return s.own }, 99)),
		ms(quantile(all, func(s sample) time.Duration { return s.answer }, 99)),
		100*cpu.Seconds()/elapsed.Seconds(), float64(cpu.Microseconds())/float64(len(all)), gcs, ms(waited))
	slowest := slices.Clone(all)
	slices.SortFunc(slowest, func(a, b sample) int { return int(b.latency() - a.latency()) })
	slowest = slowest[:max(1, len(slowest)/100)]
	for i, r := range rs {
		of := func(s sample) bool { return int(s.route) != i }
		mine := slices.DeleteFunc(slices.Clone(all), of)
		if len(mine) == 0 {
			continue
		}
		inTail := len(slowest) - len(slices.DeleteFunc(slices.Clone(slowest), func(s sample) bool { return int(s.route) == i }))
		fmt.Fprintf(&b, " %s p99 %s (answer %s, %.0f%% of the slowest 1%%);", r.name, ms(quantile(mine, sample.latency, 99)),
			ms(quantile(mine, func(s sample) time.Duration { return s.answer }, 99)), 100*float64(inTail)/float64(len(slowest)))
	}
	return strings.TrimSuffix(b.String(), ";")
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pickIndex returns the index of the route whose weight band holds x,
// 0 <= x < sum of weights.
func pickIndex(rs []route, x int) int {
	for i, r := range rs {
		if x < max(r.weight, 1) {
			return i
		}
		x -= max(r.weight, 1)
	}
	return len(rs) - 1
}
