// Command load measures fiplan under HTTP load, next to what the same
// machine can do at best and what a plain Go service does.
//
//	go run ./bench/load                 # full run, writes bench/RESULTS.md
//	go run ./bench/load -short          # two seconds per route, writes nothing
//	go run ./bench/load -routes calculator,mixed -duration 20s
//
// It builds fiplan into a temporary directory, starts it on a free
// loopback port with a temporary database, rate limits off and the access
// log off (-log-level), mints a session token with `fiplan token` and
// creates an API key through the API. It captures fiplan's response to each
// route and starts two more servers on loopback:
//
//   - the ceiling: fasthttp answering every route with the exact bytes and
//     headers fiplan answered (every varied calculator body with the
//     captured answer of median size among 101 varied bodies), so it
//     measures the HTTP stack, the kernel and wrk alone;
//   - the reference: the calculator engine behind net/http, the request
//     decoded and the response encoded with encoding/json (household
//     bodies: the household engine, see reference_household.go).
//
// Each round drives every route with wrk (-threads, -conns, -duration)
// against each server in turn, starting with a different server each round
// so that drift in the machine's load falls on all of them; the table
// reports each figure's median over the rounds. The mixed workload is the
// routes' weighted mix: wrk gives its peak throughput; a Go generator finds
// its own peak closed-loop over the rounds, then (wrk2's method: fixed
// rate, latency counted from when each request was due) sends the mix at
// 80% and at 50% of the median peak and reports p50 and p99; the ceiling
// at fiplan's rates, the floor under fiplan's figures.
// Any non-2xx response is an error: the run ends with exit code 1.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

type options struct {
	duration   time.Duration
	rounds     int
	threads    int
	conns      int
	routes     string
	out        string
	seed       uint64
	logLevel   string
	short      bool
	cpuprofile string
	keep       bool
	pin        bool
	db         string
	alsoDB     string
	p99Goal    time.Duration
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "wrk duration of each run (whole seconds)")
	flag.IntVar(&o.rounds, "rounds", 3, "rounds over every route and server; figures are the medians")
	flag.IntVar(&o.threads, "threads", 2, "wrk threads")
	flag.IntVar(&o.conns, "conns", 32, "connections per run (wrk and the open-loop generator)")
	flag.StringVar(&o.routes, "routes", "all", "comma-separated route names, all, or none (with -cpuprofile): "+strings.Join(routeNames(), ","))
	flag.StringVar(&o.out, "out", "", "write the results as Markdown to this file (default bench/RESULTS.md for a full run of all routes, else none)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the varied calculator bodies")
	flag.StringVar(&o.logLevel, "log-level", "warn", "fiplan's FI_LOG_LEVEL (info writes the access log)")
	flag.BoolVar(&o.short, "short", false, "a quick check: -duration 2s -rounds 1 unless given")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "also profile the calculator in-process under varied load and write the CPU profile here")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directory (binary, db, scripts, fiplan's log)")
	flag.BoolVar(&o.pin, "pin", canPin(), "run the servers on CPU 0 and the load on CPU 1 (taskset; needs 2 CPUs)")
	flag.StringVar(&o.db, "db", "", "fiplan's store: empty for a temporary bbolt file, or a postgres:// URL (the run makes a schema of its own there and drops it)")
	flag.StringVar(&o.alsoDB, "also-db", "", "a postgres:// URL: run a second fiplan on it (a schema of its own) beside the first, in the same rounds, as fiplan-pg; the report adds PostgreSQL's share of the first's throughput")
	flag.DurationVar(&o.p99Goal, "p99-goal", 0, "with the mixed workload: fail unless fiplan's p99 at 80% of its median one-core peak is below this (0: report only)")
	child := flag.Bool("generator-child", false, "internal: run the Go generator on the spec read from stdin")
	flag.Parse()
	if *child {
		os.Exit(generatorChild())
	}
	if o.pin {
		if err := pinSelf(); err != nil {
			fmt.Fprintln(os.Stderr, "load: cannot pin to CPUs:", err)
			os.Exit(1)
		}
	}
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.short {
		if !set["duration"] {
			o.duration = 2 * time.Second
		}
		if !set["rounds"] {
			o.rounds = 1
		}
	} else if !set["out"] && o.routes == "all" {
		o.out = "bench/RESULTS.md"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func routeNames() []string {
	var names []string
	for _, r := range routes() {
		names = append(names, r.name)
	}
	return append(names, "mixed")
}

// selectRoutes resolves -routes; mixed reports whether the mix is wanted.
func selectRoutes(list string) (rs []route, mixed bool, err error) {
	all := routes()
	switch list {
	case "all":
		return all, true, nil
	case "none":
		return nil, false, nil
	}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "mixed" {
			mixed = true
			continue
		}
		i := slices.IndexFunc(all, func(r route) bool { return r.name == name })
		if i < 0 {
			return nil, false, fmt.Errorf("no route %q; the routes are %s", name, strings.Join(routeNames(), ", "))
		}
		rs = append(rs, all[i])
	}
	return rs, mixed, nil
}

// target is one server under load, and the credentials its requests
// carry (the ceiling and the reference take any).
type target struct {
	name    string
	addr    string
	cred    credentials
	metrics string // fiplan's metrics address; empty for the other servers
	pid     int    // the process serving it
}

// row is one line of the table: a route's median figures per server.
type row struct {
	name  string
	bytes int
	by    map[string]result
	note  string
	// rate: the servers ran at different fixed rates, so the ratio of
	// their throughputs says nothing; compare the latencies.
	fixedRate bool
}

func run(ctx context.Context, o options, stdout io.Writer) error {
	selected, mixed, err := selectRoutes(o.routes)
	if err != nil {
		return err
	}
	if o.rounds < 1 || o.threads < 1 || o.conns < o.threads || o.duration < time.Second {
		return errors.New("need -rounds >= 1, -threads >= 1, -conns >= -threads and -duration >= 1s")
	}
	for name, url := range map[string]string{"-db": o.db, "-also-db": o.alsoDB} {
		if url != "" && !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
			return fmt.Errorf("%s takes a postgres:// URL, not %q (without -db the run uses a temporary bbolt file)", name, url)
		}
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk is not installed: apt-get install -y wrk")
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "fiplan-load-")
	if err != nil {
		return fmt.Errorf("cannot make a temporary directory: %w", err)
	}
	if o.keep {
		fmt.Fprintln(stdout, "temporary files in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	fmt.Fprintln(stdout, "building fiplan")
	bin := filepath.Join(tmp, "fiplan")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/fiplan")
	build.Dir, build.Stdout, build.Stderr = root, stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("cannot build fiplan: %w", err)
	}
	db := filepath.Join(tmp, "bench.db")
	if o.db != "" {
		url, drop, err := pgSchema(ctx, o.db)
		if err != nil {
			return err
		}
		defer drop()
		db = url
	}
	fp, err := startFiplan(ctx, bin, tmp, db, "fiplan", o.logLevel)
	if err != nil {
		return err
	}
	defer fp.stop()
	cred, err := fp.credentials(ctx)
	if err != nil {
		return err
	}
	var second *target
	if o.alsoDB != "" {
		url, drop, err := pgSchema(ctx, o.alsoDB)
		if err != nil {
			return err
		}
		defer drop()
		pg, err := startFiplan(ctx, bin, tmp, url, "fiplan-pg", o.logLevel)
		if err != nil {
			return err
		}
		defer pg.stop()
		c, err := pg.credentials(ctx)
		if err != nil {
			return err
		}
		second = &target{name: "fiplan-pg", addr: pg.addr, cred: c, metrics: pg.metrics, pid: pg.cmd.Process.Pid}
	}

	templates := variedTemplates(o.seed, 4096)
	client := &fasthttp.Client{ReadTimeout: 30 * time.Second}
	base := "http://" + fp.addr
	var captured []cannedRoute
	sizes := map[string]int{}
	for _, r := range routes() {
		var res *canned
		if r.varied {
			res, err = medianVaried(client, base, r, templates[:101])
		} else {
			res, err = capture(client, base, r.method, r.path, cred.header(r), r.body)
		}
		if err != nil {
			return fmt.Errorf("cannot capture %s: %w", r.name, err)
		}
		sizes[r.name] = len(res.body)
		cr := cannedRoute{method: r.method, path: r.path, res: res}
		switch {
		case r.tmpl != nil:
			cr.prefix = []byte(r.tmpl.pre)
		case r.method == "POST" && !r.varied:
			cr.body = []byte(r.body)
		}
		captured = append(captured, cr)
	}
	// Exact bodies first, then bodies by their start: the varied route
	// matches any body on its path.
	slices.SortStableFunc(captured, func(a, b cannedRoute) int { return specificity(a) - specificity(b) })
	ceil, err := startCeiling(captured)
	if err != nil {
		return err
	}
	defer ceil.close()
	ref, refAddr, err := startReference()
	if err != nil {
		return err
	}
	defer ref.Close()
	for _, body := range []string{identicalCalc, templates[0].body(0, 0), householdCalc.body(0, 0)} {
		if _, err := capture(client, "http://"+refAddr, "POST", "/api/v1/calculator", "", body); err != nil {
			return fmt.Errorf("the reference server fails: %w", err)
		}
	}

	var goal verdict
	loadBefore := loadAverage()
	servers := []target{{"fiplan", fp.addr, cred, fp.metrics, fp.cmd.Process.Pid}, {"ceiling", ceil.addr(), cred, "", os.Getpid()}, {"reference", refAddr, cred, "", os.Getpid()}}
	// fiplan's targets: the first, and the second store's when there is one.
	fiplans := servers[:2]
	if second != nil {
		fiplans = []target{servers[0], *second, servers[1]}
	}
	l := load{threads: o.threads, conns: o.conns, duration: o.duration}
	start := time.Now()
	var rows []row
	var failures []string
	measure := func(name string, rs []route, targets []target) (row, error) {
		scripts := map[string]string{}
		for _, t := range targets {
			script, err := writeScript(tmp, name+"-"+t.name, rs, t.cred, templates)
			if err != nil {
				return row{}, fmt.Errorf("cannot write the script of %s: %w", name, err)
			}
			scripts[t.name] = script
		}
		runs := map[string][]result{}
		for round := range o.rounds {
			for k := range targets {
				t := targets[(k+round)%len(targets)]
				var before snapshot
				if t.metrics != "" {
					if before, err = scrape(t.metrics); err != nil {
						return row{}, err
					}
				}
				res, err := runWrk(ctx, l, scripts[t.name], "http://"+t.addr+"/")
				if err != nil {
					return row{}, err
				}
				fmt.Fprintf(stdout, "  %-18s %-9s round %d: %8.0f req/s  p50 %-9v p99 %v\n", name, t.name, round+1, res.rps, res.p50, res.p99)
				if t.metrics != "" {
					after, err := scrape(t.metrics)
					if err != nil {
						return row{}, err
					}
					if line := poolLine(before, after, res.requests); line != "" {
						fmt.Fprintf(stdout, "    %s\n", line)
					}
				}
				if res.non2xx > 0 || res.requests == 0 {
					failures = append(failures, fmt.Sprintf("%s on %s: %d non-2xx of %d responses", name, t.name, res.non2xx, res.requests))
				}
				if res.socket != "" {
					fmt.Fprintf(stdout, "  %-18s %-9s socket errors: %s\n", name, t.name, res.socket)
				}
				runs[t.name] = append(runs[t.name], res)
			}
		}
		rw := row{name: name, by: map[string]result{}}
		for n, rr := range runs {
			rw.by[n] = median(rr)
		}
		return rw, nil
	}
	for _, r := range selected {
		targets := fiplans
		if r.method == "POST" && r.path == "/api/v1/calculator" {
			targets = append(slices.Clone(fiplans), servers[2])
		}
		rw, err := measure(r.name, []route{r}, targets)
		if err != nil {
			return err
		}
		rw.bytes = sizes[r.name]
		rows = append(rows, rw)
	}
	if mixed {
		rw, err := measure("mixed", mixRoutes(), fiplans)
		if err != nil {
			return err
		}
		rw.note = "wrk: peak"
		rows = append(rows, rw)
		// The Go generator costs more CPU per request than wrk, and shares
		// the machine with the server: the rate to hold is 80% of the peak
		// it reaches itself, closed-loop, not of wrk's.
		peak := row{name: "mixed, Go client", by: map[string]result{}, note: "closed loop: peak"}
		// Open loop at 80% of the peak (the goal's load) and at 50% (a busy
		// but unsaturated server). Every round's peak comes first, then the
		// open-loop rounds at shares of their median: one lucky peak would
		// otherwise set a rate the machine cannot hold for the next run.
		shares := []float64{0.8, 0.5}
		var goalWaited time.Duration // fiplan's run-queue delay in its runs at 80%
		at := make([]row, len(shares))
		for k, f := range shares {
			pct := fmt.Sprintf("%.0f%%", 100*f)
			at[k] = row{name: "mixed, Go client at " + pct, by: map[string]result{}, note: "open loop at " + pct + " of the median peak; the ceiling at fiplan's rate", fixedRate: true}
		}
		for _, t := range fiplans {
			var all []result
			for range o.rounds {
				var before snapshot
				if t.metrics != "" {
					if before, err = scrape(t.metrics); err != nil {
						return err
					}
				}
				sched0 := schedOf(t.pid)
				res, err := runGenerator(ctx, t.addr, t.cred, templates, o.seed, 0, o.duration, o.conns)
				if err != nil {
					return fmt.Errorf("mixed on %s: %w", t.name, err)
				}
				fmt.Fprintf(stdout, "  %-18s %-9s %8.0f req/s  p50 %-9v p99 %v\n    %s\n", peak.name, t.name, res.rps, res.p50, res.p99, res.detail)
				if err := printServer(stdout, t, before, schedOf(t.pid).sub(sched0), res.requests); err != nil {
					return err
				}
				all = append(all, res)
			}
			peak.by[t.name] = median(all)
			// The ceiling runs at fiplan's rates, not its own: what the
			// generator, the kernel and fasthttp add at the load fiplan
			// is judged at, the floor of fiplan's figures.
			base := peak.by[t.name].rps
			if t.name == "ceiling" {
				base = peak.by["fiplan"].rps
			}
			for k, f := range shares {
				var rr []result
				for range o.rounds {
					var before snapshot
					if t.metrics != "" {
						if before, err = scrape(t.metrics); err != nil {
							return err
						}
					}
					sched0 := schedOf(t.pid)
					res, err := runGenerator(ctx, t.addr, t.cred, templates, o.seed, f*base, o.duration, o.conns)
					if err != nil {
						return fmt.Errorf("%s on %s: %w", at[k].name, t.name, err)
					}
					ran := schedOf(t.pid).sub(sched0)
					if t.name == "fiplan" && k == 0 {
						goalWaited += ran.waited
					}
					fmt.Fprintf(stdout, "  %-18s %-9s %8.0f req/s  p50 %-9v p99 %v\n    %s\n", at[k].name, t.name, res.rps, res.p50, res.p99, res.detail)
					if err := printServer(stdout, t, before, ran, res.requests); err != nil {
						return err
					}
					rr = append(rr, res)
				}
				at[k].by[t.name] = median(rr)
				all = append(all, rr...)
			}
			for _, r := range all {
				if r.non2xx > 0 {
					failures = append(failures, fmt.Sprintf("mixed (Go client) on %s: %d non-2xx of %d responses", t.name, r.non2xx, r.requests))
				}
			}
		}
		rows = append(rows, peak)
		rows = append(rows, at...)
		goal = p99Verdict(at[0].by["fiplan"], at[0].by["ceiling"], peak.by["fiplan"].rps, o.p99Goal, quiet{loadBefore, goalWaited})
		fmt.Fprintln(stdout, goal.line)
	}
	var top string
	if o.cpuprofile != "" {
		if top, err = profileCalculator(ctx, o, tmp, templates); err != nil {
			return err
		}
		fmt.Fprintln(stdout, top)
	}

	report := markdown(o, rows, time.Since(start), top)
	if len(rows) > 0 {
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, report)
	}
	if o.out != "" {
		path := o.out
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %w", path, err)
		}
		fmt.Fprintln(stdout, "wrote", path)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%d runs had errors:\n  %s\nfiplan's log: %s", len(failures), strings.Join(failures, "\n  "), fp.logPath)
	}
	if goal.missed {
		return errors.New(goal.line)
	}
	return nil
}

// printServer prints what a generator run cost the server t: from
// fiplan's metrics (before the run, and now) its CPU and collections, and
// for every server what the kernel counted of its threads over the run.
func printServer(w io.Writer, t target, before snapshot, ran sched, requests int) error {
	if t.metrics == "" {
		fmt.Fprintf(w, "    %s: %s waiting for its CPU, %.2f switches a request\n", t.name, ms(ran.waited), float64(ran.runs)/float64(max(1, requests)))
		return nil
	}
	after, err := scrape(t.metrics)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "    %s\n", processLine(t.name, before, after, ran, requests))
	return nil
}

// specificity orders captured routes for the ceiling: exact bodies (0),
// then bodies by their start (1), then any body (2).
func specificity(c cannedRoute) int {
	switch {
	case c.body != nil:
		return 0
	case c.prefix != nil:
		return 1
	}
	return 2
}

// medianVaried captures fiplan's answers to the first bodies of templates
// and returns the one of median size: the ceiling's stand-in for every
// varied answer.
func medianVaried(c *fasthttp.Client, base string, r route, templates []variedTemplate) (*canned, error) {
	var all []*canned
	for i, t := range templates {
		res, err := capture(c, base, r.method, r.path, "", t.body(uint64(i), 0))
		if err != nil {
			return nil, err
		}
		all = append(all, res)
	}
	slices.SortFunc(all, func(a, b *canned) int { return len(a.body) - len(b.body) })
	return all[len(all)/2], nil
}

// median takes each figure's median over rounds separately.
func median(rs []result) result {
	pick := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	var out result
	out.rps = pick(func(r result) float64 { return r.rps })
	out.p50 = time.Duration(pick(func(r result) float64 { return float64(r.p50) }))
	out.p99 = time.Duration(pick(func(r result) float64 { return float64(r.p99) }))
	for _, r := range rs {
		out.requests += r.requests
		out.non2xx += r.non2xx
	}
	return out
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("cannot find the module: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run from inside the fiplan module")
	}
	return filepath.Dir(mod), nil
}

// fiplanProcess is the fiplan binary serving on loopback.
type fiplanProcess struct {
	cmd     *exec.Cmd
	bin     string
	db      string
	addr    string
	metrics string // the address of its /metrics
	logPath string
	done    chan error
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("cannot find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func startFiplan(ctx context.Context, bin, dir, db, name, logLevel string) (*fiplanProcess, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	metrics, err := freePort()
	if err != nil {
		return nil, err
	}
	p := &fiplanProcess{bin: bin, db: db, addr: addr, metrics: metrics, logPath: filepath.Join(dir, name+".log"), done: make(chan error, 1)}
	logf, err := os.Create(p.logPath)
	if err != nil {
		return nil, fmt.Errorf("cannot create fiplan's log: %w", err)
	}
	name, args := onCPU(serverCPU, bin)
	p.cmd = exec.Command(name, args...)
	p.cmd.Env = append(os.Environ(), "FI_ADDR="+addr, "FI_METRICS_ADDR="+metrics, "FI_DB="+p.db, "FI_LOG_LEVEL="+logLevel,
		"FI_RATE_PUBLIC=off", "FI_RATE_FREE=off", "FI_RATE_PRO=off", "FI_JWT_SECRET=", "FI_JWT_JWKS=",
		// No compression of the web app at start: seconds of a core that
		// would land in the first round's latencies.
		"FI_WEB_WARM=off")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("cannot start fiplan: %w", err)
	}
	go func() { p.done <- p.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, _, err := fasthttp.GetTimeout(nil, "http://"+addr+"/api/v1/status", time.Second)
		if err == nil && code == 200 {
			return p, nil
		}
		select {
		case err := <-p.done:
			log, _ := os.ReadFile(p.logPath)
			return nil, fmt.Errorf("fiplan exited at start-up (%v): %s", err, log)
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("fiplan did not answer /api/v1/status on %s within 30s", addr)
		}
	}
}

func (p *fiplanProcess) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // it may have exited
	select {
	case err := <-p.done:
		if err != nil {
			fmt.Fprintf(os.Stderr, "fiplan did not stop cleanly: %v\n", err)
		}
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill() //nolint:errcheck // last resort
	}
}

// credentials mints a pro session token with `fiplan token` against the
// same database, creates an API key with it through the API, and the
// user's assets.
func (p *fiplanProcess) credentials(ctx context.Context) (credentials, error) {
	cmd := exec.CommandContext(ctx, p.bin, "token", "-sub", "bench", "-tier", "pro")
	cmd.Env = append(os.Environ(), "FI_DB="+p.db, "FI_JWT_SECRET=", "FI_JWT_JWKS=")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return credentials{}, fmt.Errorf("cannot mint a token with fiplan token: %w: %s", err, errb.String())
	}
	c := credentials{jwt: strings.TrimSpace(string(out))}
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	setRequest(req, "http://"+p.addr, "POST", "/api/v1/user/api-keys", "Bearer "+c.jwt, `{"name":"load harness"}`)
	if err := fasthttp.DoTimeout(req, res, 10*time.Second); err != nil {
		return c, fmt.Errorf("cannot create an API key: %w", err)
	}
	var created struct {
		Data struct {
			Key string `json:"key"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res.Body(), &created); err != nil || res.StatusCode() != 201 || !strings.HasPrefix(created.Data.Key, "svc_") {
		return c, fmt.Errorf("cannot create an API key: status %d: %.300s", res.StatusCode(), res.Body())
	}
	c.key = created.Data.Key
	// The assets route lists what it finds: the same ten assets on every
	// store.
	for i := range assetCount {
		req.Reset()
		setRequest(req, "http://"+p.addr, "POST", "/api/v1/assets", "Bearer "+c.jwt, fmt.Sprintf(`{"name":"Holding %d","value":%d,"currency":"USD"}`, i, 1000+i))
		if err := fasthttp.DoTimeout(req, res, 10*time.Second); err != nil || res.StatusCode() != 201 {
			return c, fmt.Errorf("cannot create an asset: %v: status %d: %.300s", err, res.StatusCode(), res.Body())
		}
	}
	return c, nil
}

// assetCount is how many assets the bench user holds: what the assets
// route lists.
const assetCount = 10

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func markdown(o options, rows []row, took time.Duration, profile string) string {
	var b strings.Builder
	b.WriteString("# fiplan under load\n\n")
	b.WriteString("Written by `bench/load`; see the README's section on load testing for what each column means.\n\n")
	fmt.Fprintf(&b, "- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- machine: %d CPUs (nproc), %s; load average before the run %s\n", machineCPUs(), cpuModel(), loadAverage())
	fmt.Fprintf(&b, "- Go: %s, %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "- command: `go run ./bench/load %s`\n", strings.Join(os.Args[1:], " "))
	fmt.Fprintf(&b, "- load: wrk, %d threads, %d connections, %v per run, %d rounds (medians shown), %v in all\n",
		o.threads, o.conns, o.duration, o.rounds, took.Round(time.Second))
	if pinned() {
		b.WriteString("- pinned: the servers (fiplan, ceiling, reference) on CPU " + serverCPU + ", the load (wrk, the Go generator) on CPU " + loadCPU + "\n\n")
	} else {
		b.WriteString("- not pinned: servers and load share the CPUs\n\n")
	}
	b.WriteString("| route | bytes | fiplan req/s | p50 | p99 | ceiling req/s | p50 | p99 | fiplan / ceiling | net/http + encoding/json req/s | p50 | p99 | fiplan / that |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rows {
		f, c := r.by["fiplan"], r.by["ceiling"]
		name := r.name
		if r.note != "" {
			name += " (" + r.note + ")"
		}
		size := "-"
		if r.bytes > 0 {
			size = fmt.Sprint(r.bytes)
		}
		ratio := fmt.Sprintf("%.2f", f.rps/c.rps)
		if r.fixedRate {
			ratio = "-"
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f | %s | %s | %.0f | %s | %s | %s |", name, size, f.rps, ms(f.p50), ms(f.p99), c.rps, ms(c.p50), ms(c.p99), ratio)
		if ref, ok := r.by["reference"]; ok {
			fmt.Fprintf(&b, " %.0f | %s | %s | %.2f |\n", ref.rps, ms(ref.p50), ms(ref.p99), f.rps/ref.rps)
		} else {
			b.WriteString(" | | | |\n")
		}
	}
	storeRows := slices.DeleteFunc(slices.Clone(rows), func(r row) bool { _, ok := r.by["fiplan-pg"]; return !ok })
	if len(storeRows) > 0 {
		b.WriteString("\n## fiplan on PostgreSQL beside fiplan on the first store, in the same rounds\n\n")
		b.WriteString("| route | first store req/s | p50 | p99 | PostgreSQL req/s | p50 | p99 | PostgreSQL / first |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, r := range storeRows {
			f, pg := r.by["fiplan"], r.by["fiplan-pg"]
			ratio := fmt.Sprintf("%.2f", pg.rps/f.rps)
			if r.fixedRate {
				ratio = "-"
			}
			fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %.0f | %s | %s | %s |\n", r.name, f.rps, ms(f.p50), ms(f.p99), pg.rps, ms(pg.p50), ms(pg.p99), ratio)
		}
	}
	if profile != "" {
		b.WriteString("\n## Where the varied calculator spends its CPU\n\n```text\n")
		b.WriteString(profile)
		b.WriteString("```\n")
	}
	return b.String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
