package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"time"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
)

// inProcess serves fiplan inside this process: the same handlers.New the
// binary calls, with limits off and no access log.
func inProcess(dir string) (addr string, stop func(), err error) {
	db, err := store.Open(filepath.Join(dir, "inprocess.db"), store.Options{})
	if err != nil {
		return "", nil, fmt.Errorf("cannot open the in-process db: %w", err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: bytes.Repeat([]byte("p"), 32), CacheSize: 1 << 16})
	if err != nil {
		db.Close()
		return "", nil, fmt.Errorf("cannot make a verifier: %w", err)
	}
	s, err := handlers.New(handlers.Config{Version: "load", DB: db, Verifier: v})
	if err != nil {
		v.Close()
		db.Close()
		return "", nil, fmt.Errorf("cannot make the server: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		v.Close()
		db.Close()
		return "", nil, fmt.Errorf("cannot listen for the in-process server: %w", err)
	}
	srv := s.HTTP()
	go srv.Serve(ln) //nolint:errcheck // ends at Shutdown
	return ln.Addr().String(), func() {
		srv.Shutdown() //nolint:errcheck // the run is over
		s.Close()
		v.Close()
		db.Close()
	}, nil
}

// profileCalculator drives the varied calculator route of an in-process
// fiplan with wrk for o.duration (at least 5s) while the CPU profiler runs,
// writes the profile to o.cpuprofile and returns pprof's top table.
func profileCalculator(ctx context.Context, o options, dir string, templates []variedTemplate) (string, error) {
	addr, stop, err := inProcess(dir)
	if err != nil {
		return "", err
	}
	defer stop()
	var r route
	for _, x := range routes() {
		if x.varied {
			r = x
		}
	}
	script, err := writeScript(dir, "profile", []route{r}, credentials{}, templates)
	if err != nil {
		return "", fmt.Errorf("cannot write the profile script: %w", err)
	}
	f, err := os.Create(o.cpuprofile)
	if err != nil {
		return "", fmt.Errorf("cannot create %s: %w", o.cpuprofile, err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return "", fmt.Errorf("cannot start the CPU profile: %w", err)
	}
	res, err := runWrk(ctx, load{threads: o.threads, conns: o.conns, duration: max(o.duration, 5*time.Second)}, script, "http://"+addr+"/")
	pprof.StopCPUProfile()
	if err != nil {
		return "", err
	}
	if res.non2xx > 0 {
		return "", fmt.Errorf("the profiled calculator answered %d non-2xx of %d", res.non2xx, res.requests)
	}
	top, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount", "30", o.cpuprofile).Output()
	if err != nil {
		return "", fmt.Errorf("cannot read the profile with go tool pprof: %w", err)
	}
	return fmt.Sprintf("calculator-varied in-process: %.0f req/s, p50 %v, p99 %v; CPU profile in %s\n%s", res.rps, res.p50, res.p99, o.cpuprofile, top), nil
}
