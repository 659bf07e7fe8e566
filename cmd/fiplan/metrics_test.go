package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// logged waits for the log line whose msg is msg and returns its record.
func (s *server) logged(t *testing.T, msg string) map[string]any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-s.logs:
			if !ok {
				t.Fatalf("the server ended before logging %q", msg)
			}
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == msg {
				return rec
			}
		case <-deadline:
			t.Fatalf("no %q in the log", msg)
		}
	}
}

func TestMetricsOnTheirOwnListener(t *testing.T) {
	t.Parallel()
	s := start(t, "FI_DB="+filepath.Join(t.TempDir(), "m.db"), "FI_METRICS_ADDR=127.0.0.1:0")
	defer s.stop(t, syscall.SIGTERM)
	maddr := s.logged(t, "serving metrics")["addr"].(string)
	if status, _ := s.get(t, "/api/v1/status", ""); status != 200 {
		t.Fatalf("status %d", status)
	}
	res, err := http.Get("http://" + maddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	text := string(body)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`fiplan_http_requests_total{method="GET",route="/api/v1/status",status="200"} 1`,
		"fiplan_store_duration_seconds_count{op=\"Ping\"} 1",
		"go_goroutines ", "process_resident_memory_bytes ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the scrape", want)
		}
	}
	// Never on the public listener.
	res, err = http.Get("http://" + s.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == 200 || strings.Contains(string(body), "fiplan_http_requests_total") {
		t.Fatalf("the public listener serves the metrics: %d", res.StatusCode)
	}
}

// The public listener is always on a free port here: a test never needs a
// fixed one, so the README's two commands run side by side.
func TestMetricsAddressErrors(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, env := range [][]string{
		{"FI_ADDR=127.0.0.1:0", "FI_METRICS_ADDR=256.0.0.1:x"},
		{"FI_ADDR=127.0.0.1:0", "FI_METRICS_ADDR=" + busy.Addr().String()},
	} {
		cmd := command(t, append(env, "FI_DB="+filepath.Join(t.TempDir(), "m.db")))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		exited(t, cmd.Run())
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "-metrics-addr (FI_METRICS_ADDR)") {
			t.Errorf("%v: exit %d: %s", env, code, stderr.String())
		}
	}
}
