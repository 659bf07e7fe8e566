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

// p99Verdict judges at, fiplan's open-loop result at 80% of peak, against
// goal (0: report only); loadAvg is the machine's load average before the
// run, which says how quiet it was.
func p99Verdict(at result, peak float64, goal time.Duration, loadAvg string) verdict {
	side := "not pinned (servers and load share the CPUs)"
	if pinned() {
		side = "pinned: fiplan on CPU " + serverCPU + ", load on CPU " + loadCPU
	}
	line := fmt.Sprintf("mixed p99 at 80%% of the one-core peak: %s (p50 %s) at %.0f req/s of a %.0f req/s peak; %s; load average before the run %s",
		ms(at.p99), ms(at.p50), at.rps, peak, side, loadAvg)
	if goal <= 0 {
		return verdict{line: line}
	}
	if at.requests == 0 || at.p99 >= goal {
		return verdict{line: line + "; goal < " + ms(goal) + ": MISSED", missed: true}
	}
	return verdict{line: line + "; goal < " + ms(goal) + ": met"}
}
