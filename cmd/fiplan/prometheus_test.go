package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// prometheusBinary is Debian's Prometheus server; CI installs it. Outside
// CI a machine without it skips the test.
func prometheusBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("prometheus is not installed: .ci/run installs Debian's package")
		}
		t.Skip("prometheus is not installed (apt-get install prometheus)")
	}
	return p
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// A real Prometheus scrapes a node on PostgreSQL and Redis: it accepts the
// exposition (every family with # HELP and # TYPE) and answers queries
// for the request counters and both pools' series.
func TestPrometheusScrapes(t *testing.T) {
	prom := prometheusBinary(t)
	pg := pgSchema(t)
	rurl := os.Getenv("FI_TEST_REDIS")
	if rurl == "" {
		t.Skip("set FI_TEST_REDIS to run it")
	}
	s := start(t, "FI_DB="+pg, "FI_REDIS_URL="+rurl, "FI_JWT_SECRET="+clusterSecret, "FI_METRICS_ADDR=127.0.0.1:0")
	defer s.stop(t, syscall.SIGTERM)
	maddr := s.logged(t, "serving metrics")["addr"].(string)
	if st, _ := s.get(t, "/api/v1/geo/cities?limit=1", ""); st != 200 {
		t.Fatalf("cities: %d", st)
	}

	dir := t.TempDir()
	conf := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: fiplan\n    static_configs:\n      - targets: [%q]\n", maddr)), 0o600); err != nil {
		t.Fatal(err)
	}
	web := freeAddr(t)
	cmd := exec.Command(prom, "--config.file="+conf, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+web, "--log.level=warn")
	out, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = out.Close() }) // it may have exited

	query := func(q string) (float64, bool) {
		res, err := http.Get("http://" + web + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			return 0, false
		}
		defer res.Body.Close()
		var body struct {
			Data struct {
				Result []struct {
					Value [2]any `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		if json.NewDecoder(res.Body).Decode(&body) != nil || len(body.Data.Result) == 0 {
			return 0, false
		}
		v, err := strconv.ParseFloat(fmt.Sprint(body.Data.Result[0].Value[1]), 64)
		return v, err == nil
	}
	want := map[string]func(float64) bool{
		`up{job="fiplan"}`: func(v float64) bool { return v == 1 },
		`fiplan_http_requests_total{route="/api/v1/geo/cities",status="200"}`: func(v float64) bool { return v >= 1 },
		`fiplan_db_pool_max_connections`:                                      func(v float64) bool { return v >= 1 },
		`fiplan_redis_pool_connections{state="open"}`:                         func(v float64) bool { return v >= 1 },
		`fiplan_rate_limit_fallbacks_total{reason="timeout"}`:                 func(v float64) bool { return v == 0 },
	}
	deadline := time.Now().Add(30 * time.Second)
	for q, ok := range want {
		for {
			if v, found := query(q); found && ok(v) {
				break
			} else if time.Now().After(deadline) {
				log, _ := os.ReadFile(filepath.Join(dir, "prometheus.log"))
				t.Fatalf("%s: %v (found %v) after 30 s\n%s", q, v, found, log)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	// The scrape itself was clean: Prometheus reports no sample it refused.
	if v, ok := query(`scrape_samples_post_metric_relabeling{job="fiplan"}`); !ok || v < 50 {
		t.Fatalf("samples scraped: %v %v", v, ok)
	}
}
