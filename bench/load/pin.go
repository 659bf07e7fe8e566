package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Pinning. On a machine of two CPUs the server and the load generator
// compete for the same cores, and the generator's own pauses show in the
// server's p99. With -pin (the default where there are two CPUs or more
// and taskset is installed) the servers run on CPU 0 (fiplan, and this
// process, which serves the ceiling and the reference) and the load on
// CPU 1 (wrk, and the Go generator, which runs as a child process of this
// binary), so each side has a core of its own. The peak is then the peak
// of one server core; the open-loop rows hold 80% and 50% of it.

const (
	serverCPU = "0"
	loadCPU   = "1"
	pinnedEnv = "FIPLAN_LOAD_PINNED"
)

// canPin reports whether pinning is possible here.
func canPin() bool {
	_, err := exec.LookPath("taskset")
	return err == nil && runtime.NumCPU() >= 2
}

// pinSelf re-executes this process on the server CPU, once.
func pinSelf() error {
	if os.Getenv(pinnedEnv) != "" {
		return nil
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := append([]string{"taskset", "-c", serverCPU, self}, os.Args[1:]...)
	return syscall.Exec(taskset, args, append(os.Environ(), pinnedEnv+"="+strconv.Itoa(runtime.NumCPU())))
}

// pinned reports whether this run pins its sides.
func pinned() bool { return os.Getenv(pinnedEnv) != "" }

// machineCPUs is the machine's CPU count, also once this process is
// pinned to one of them.
func machineCPUs() int {
	if n, err := strconv.Atoi(os.Getenv(pinnedEnv)); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// onCPU is the command name and arguments that run name on cpu when
// pinned, or as it is.
func onCPU(cpu, name string, args ...string) (string, []string) {
	if !pinned() {
		return name, args
	}
	return "taskset", append([]string{"-c", cpu, name}, args...)
}

// genSpec is what the generator child needs: the rest it derives as the
// parent does (the routes, the templates from the seed).
type genSpec struct {
	Addr     string
	JWT, Key string
	Seed     uint64
	Rate     float64
	Duration time.Duration
	Conns    int
}

type genResult struct {
	Requests int
	RPS      float64
	P50, P99 time.Duration
	Non2xx   int
	Detail   string
}

// runGenerator runs the Go generator: in a child process on the load CPU
// when pinned, else in this process.
func runGenerator(ctx context.Context, addr string, cred credentials, templates []variedTemplate, seed uint64, rate float64, d time.Duration, conns int) (result, error) {
	if !pinned() {
		return generate(ctx, addr, mixRoutes(), cred, templates, rate, d, conns)
	}
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	spec, err := json.Marshal(genSpec{Addr: addr, JWT: cred.jwt, Key: cred.key, Seed: seed, Rate: rate, Duration: d, Conns: conns})
	if err != nil {
		return result{}, err
	}
	name, args := onCPU(loadCPU, self, "-generator-child")
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = bytes.NewReader(spec)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("the generator failed: %w: %s", err, errb.String())
	}
	var r genResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return result{}, fmt.Errorf("cannot read the generator's result %q: %w", out.String(), err)
	}
	return result{requests: r.Requests, rps: r.RPS, p50: r.P50, p99: r.P99, non2xx: r.Non2xx, detail: r.Detail}, nil
}

// generatorChild is the child's main: the spec on stdin, the result on
// stdout.
func generatorChild() int {
	var s genSpec
	if err := json.NewDecoder(os.Stdin).Decode(&s); err != nil {
		fmt.Fprintln(os.Stderr, "generator:", err)
		return 2
	}
	res, err := generate(context.Background(), s.Addr, mixRoutes(), credentials{jwt: s.JWT, key: s.Key}, variedTemplates(s.Seed, 4096), s.Rate, s.Duration, s.Conns)
	if err != nil {
		fmt.Fprintln(os.Stderr, "generator:", err)
		return 1
	}
	b, _ := json.Marshal(genResult{Requests: res.requests, RPS: res.rps, P50: res.p50, P99: res.p99, Non2xx: res.non2xx, Detail: res.detail})
	fmt.Println(string(b))
	return 0
}

// sched is what the kernel counts of a process's threads
// (/proc/PID/task/*/schedstat): how long they waited, runnable, for a CPU
// another process held, and how many times they were put on a CPU (each
// a switch to them: a thread that sleeps and wakes for every request
// costs one a request).
type sched struct {
	waited time.Duration
	runs   int64
}

func (a sched) sub(b sched) sched { return sched{a.waited - b.waited, a.runs - b.runs} }

// schedOf reads sched for process pid; zero where the kernel does not
// keep it or pid does not exist. It says how quiet the machine was for
// that process.
func schedOf(pid int) sched {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return sched{}
	}
	var sum sched
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			continue
		}
		ns, err1 := strconv.ParseInt(f[1], 10, 64)
		runs, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 == nil && err2 == nil {
			sum.waited += time.Duration(ns)
			sum.runs += runs
		}
	}
	return sum
}
