package main

import (
	"fmt"
	"time"
)

// The latency goal: the mixed workload's p99 under a fixed rate of 80% of
// fiplan's median closed-loop peak, the servers pinned to one core and the
// load to another, over every round (-rounds, -duration). -p99-goal makes
// the run fail when the goal is missed; the verdict line is printed either
// way, with what it was measured under, to be quoted as it is.

// verdict is the goal's outcome for one run.
type verdict struct {
	line   string
	missed bool
}

// quiet is what says how quiet the machine was for a run: its load
// average before the run, and how long fiplan's threads waited, runnable,
// for a CPU another process held during the runs judged.
type quiet struct {
	loadAvg string
	waited  time.Duration
}

// p99Verdict judges at, fiplan's open-loop result at 80% of peak, against
// goal (0: report only). floor is the ceiling's result at the same rate:
// what the generator, the kernel and fasthttp take alone (zero: not
// measured).
func p99Verdict(at, floor result, peak float64, goal time.Duration, q quiet) verdict {
	side := "not pinned (servers and load share the CPUs)"
	if pinned() {
		side = "pinned: fiplan on CPU " + serverCPU + ", load on CPU " + loadCPU
	}
	line := fmt.Sprintf("mixed p99 at 80%% of the one-core peak: %s (p50 %s) at %.0f req/s of a %.0f req/s peak", ms(at.p99), ms(at.p50), at.rps, peak)
	if floor.requests > 0 {
		line += fmt.Sprintf("; the ceiling at that rate %s (p50 %s)", ms(floor.p99), ms(floor.p50))
	}
	line += fmt.Sprintf("; %s; load average before the run %s; fiplan waited %s for its CPU", side, q.loadAvg, ms(q.waited))
	if goal <= 0 {
		return verdict{line: line}
	}
	if at.requests == 0 || at.p99 >= goal {
		return verdict{line: line + "; goal < " + ms(goal) + ": MISSED", missed: true}
	}
	return verdict{line: line + "; goal < " + ms(goal) + ": met"}
}
