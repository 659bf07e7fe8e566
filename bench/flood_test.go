package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The process-level floods: the built binary on a loopback port, attacked
// the way a client on the internet can. Each test prints its figures.

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// binary builds cmd/fiplan once for the package's tests.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fiplan-flood-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "fiplan")
		out, err := exec.Command("go", "build", "-o", builtBin, "fiplan/cmd/fiplan").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("cannot build fiplan: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

type process struct {
	cmd  *exec.Cmd
	addr string
	mu   sync.Mutex
	logs strings.Builder
}

// startProcess runs the binary, under prlimit when nofile > 0, and waits
// until it listens.
func startProcess(t *testing.T, nofile int, env ...string) *process {
	t.Helper()
	bin := binary(t)
	var cmd *exec.Cmd
	if nofile > 0 {
		n := strconv.Itoa(nofile)
		cmd = exec.Command("prlimit", "--nofile="+n+":"+n, bin)
	} else {
		cmd = exec.Command(bin)
	}
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "FI_ADDR=127.0.0.1:0",
		"FI_DB=" + filepath.Join(t.TempDir(), "flood.db"), "FI_ACCESS_LOG=off", "FI_WEB_WARM=off"}, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) // it may have exited
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.logs.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case p.addr = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not listen:\n%s", p.log())
	}
	return p
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

func (p *process) alive() bool {
	return p.cmd.Process.Signal(syscall.Signal(0)) == nil && p.cmd.ProcessState == nil
}

// rss is the process's resident memory in bytes.
func (p *process) rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// status asks GET /api/v1/status on a new connection.
func (p *process) status(timeout time.Duration) (int, error) {
	c := &http.Client{Timeout: timeout, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := c.Get("http://" + p.addr + "/api/v1/status")
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// TestFloodOfSlowBodies: clients that announce a megabyte body and send one
// byte cost the memory of what they sent, not of what they announced
// (before, 1,000 of them added about 1 GB of RSS).
func TestFloodOfSlowBodies(t *testing.T) {
	clients := 1000
	if testing.Short() {
		clients = 300
	}
	p := startProcess(t, 0, "FI_MAX_CONNS_PER_IP=off")
	if st, err := p.status(5 * time.Second); err != nil || st != 200 {
		t.Fatalf("status: %d %v", st, err)
	}
	before := p.rss(t)
	conns := make([]net.Conn, 0, clients)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range clients {
		c, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 1<<20)
	}
	bound := int64(clients) * 64 << 10 // 64 KiB a connection: buffers and a goroutine, never the megabyte
	var grown int64
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end) && grown <= bound; time.Sleep(250 * time.Millisecond) {
		grown = max(grown, p.rss(t)-before)
	}
	t.Logf("%d slow bodies: RSS %d MiB -> %d MiB (+%d MiB; bound %d MiB)", clients, before>>20, (before+grown)>>20, grown>>20, bound>>20)
	if grown > bound {
		t.Fatalf("%d slow bodies grew RSS by %d MiB, over %d MiB", clients, grown>>20, bound>>20)
	}
	if st, err := p.status(5 * time.Second); err != nil || st != 200 {
		t.Fatalf("status during the flood: %d %v", st, err)
	}
}

// TestFloodOfDescriptors: more idle connections than the process may open
// files. With the connection cap set above the limit, accept runs out of
// descriptors: the server backs off and retries, and serves again once
// the flood is gone (before, it exited with "too many open files"). With
// the cap chosen from the limit, accept never runs out at all.
func TestFloodOfDescriptors(t *testing.T) {
	const nofile, flood = 256, 400
	for _, tc := range []struct {
		name    string
		env     []string
		retries bool // whether accept must have run out
	}{
		{"cap above the limit", []string{"FI_MAX_CONNS=1000", "FI_MAX_CONNS_PER_IP=off"}, true},
		{"cap from the limit", []string{"FI_MAX_CONNS_PER_IP=off"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startProcess(t, nofile, tc.env...)
			conns := make([]net.Conn, 0, flood)
			for range flood {
				c, err := net.DialTimeout("tcp", p.addr, 2*time.Second)
				if err != nil {
					break // the backlog is full: the flood is as big as it gets
				}
				conns = append(conns, c)
			}
			time.Sleep(time.Second) // let the server accept what it can
			if !p.alive() {
				t.Fatalf("the process ended under %d idle connections:\n%s", len(conns), p.log())
			}
			for _, c := range conns {
				c.Close()
			}
			var st int
			var err error
			for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
				if st, err = p.status(2 * time.Second); err == nil && st == 200 {
					break
				}
			}
			if err != nil || st != 200 {
				t.Fatalf("no answer after the flood: %d %v\n%s", st, err, p.log())
			}
			retried := strings.Contains(p.log(), "cannot accept a connection; retrying")
			t.Logf("%d idle connections against %d descriptors: alive, serving after; accept ran out: %v", len(conns), nofile, retried)
			if retried != tc.retries {
				t.Fatalf("accept ran out of descriptors: %v, want %v\n%s", retried, tc.retries, p.log())
			}
		})
	}
}
