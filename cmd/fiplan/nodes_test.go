package main

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"fiplan/handlers/auth"
)

// Several fiplan processes on one PostgreSQL database and one Redis.

const clusterSecret = "cluster-test-secret-0123456789abcdef"

// clusterEnv is the environment every node of a test shares: a fresh
// schema, FI_TEST_REDIS, one signing secret, the loopback as a trusted
// proxy (so a test picks its client address with X-Forwarded-For). It
// skips the test without FI_TEST_POSTGRES or FI_TEST_REDIS.
func clusterEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	if os.Getenv("FI_TEST_POSTGRES") == "" || os.Getenv("FI_TEST_REDIS") == "" {
		t.Skip("multi-node tests skipped: set FI_TEST_POSTGRES and FI_TEST_REDIS to run them")
	}
	return append([]string{"FI_DB=" + pgSchema(t), "FI_REDIS_URL=" + os.Getenv("FI_TEST_REDIS"),
		"FI_JWT_SECRET=" + clusterSecret, "FI_TRUSTED_PROXIES=127.0.0.1/32"}, extra...)
}

// startNode starts one node with env and waits until it listens.
func startNode(t *testing.T, env []string) *server {
	t.Helper()
	return start(t, env...)
}

// clientIP is an address no other test run uses, so counts left in Redis
// by earlier runs do not leak in.
func clientIP() string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("203.0.%d.%d", b[0], b[1]|1)
}

func sign(t *testing.T, sub, tier, role string) string {
	t.Helper()
	tok, err := auth.Sign([]byte(clusterSecret), auth.Claims{Sub: sub, Tier: tier, Role: role, TTL: time.Hour}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

type reply struct {
	status int
	body   map[string]any
	header http.Header
}

func (r reply) data() map[string]any { d, _ := r.body["data"].(map[string]any); return d }
func (r reply) code() string         { c, _ := r.body["code"].(string); return c }

var nodeClient = &http.Client{Timeout: 30 * time.Second}

// send makes one request; headers alternate name, value. A transport
// error is returned, not fatal: a killed node refuses.
func send(addr, method, path, body string, headers ...string) (reply, error) {
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := nodeClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: res.StatusCode, header: res.Header}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			return r, fmt.Errorf("%s %s: not JSON: %s", method, path, raw)
		}
	}
	return r, nil
}

func must(t *testing.T, addr, method, path, body string, headers ...string) reply {
	t.Helper()
	r, err := send(addr, method, path, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// TestTwoNodesOneState: what one node writes, the other reads at once; a
// key revoked on one fails on the other within a second; one public limit for both; a
// flag written on one is evaluated on the other within a second.
func TestTwoNodesOneState(t *testing.T) {
	env := clusterEnv(t, "FI_RATE_PUBLIC=5/1m")
	a, b := startNode(t, env), startNode(t, env)
	user := fmt.Sprintf("alice-%d", time.Now().UnixNano())
	session := bearer(sign(t, user, "pro", ""))

	r := must(t, a.addr, "POST", "/api/v1/assets", `{"name":"World index","value":1200,"currency":"EUR"}`, session...)
	if r.status != 201 {
		t.Fatalf("create on a: %d %v", r.status, r.body)
	}
	id := r.data()["id"].(string)
	if r := must(t, b.addr, "GET", "/api/v1/assets/"+id, "", session...); r.status != 200 || r.data()["name"] != "World index" {
		t.Fatalf("read on b: %d %v", r.status, r.body)
	}

	r = must(t, a.addr, "POST", "/api/v1/user/api-keys", `{"name":"script"}`, session...)
	if r.status != 201 {
		t.Fatalf("key on a: %d %v", r.status, r.body)
	}
	key, keyID := bearer(r.data()["key"].(string)), r.data()["id"].(string)
	if r := must(t, b.addr, "GET", "/api/v1/assets", "", key...); r.status != 200 {
		t.Fatalf("key on b: %d %v", r.status, r.body)
	}
	if r := must(t, a.addr, "DELETE", "/api/v1/user/api-keys/"+keyID, "", session...); r.status != 204 {
		t.Fatalf("revoke on a: %d %v", r.status, r.body)
	}
	// b served the key from its cache of keys found; the revocation's mark
	// reaches it by the sign-out mirror's next poll: within a second.
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		r := must(t, b.addr, "GET", "/api/v1/assets", "", key...)
		if r.status == 401 && r.code() == "UNAUTHORIZED" {
			break
		}
		if r.status != 200 || time.Since(start) > 2*time.Second {
			t.Fatalf("revoked key on b after %s: %d %v", time.Since(start).Round(time.Millisecond), r.status, r.body)
		}
	}

	ip := []string{"X-Forwarded-For", clientIP()}
	for i, n := range []*server{a, b, a, b, a} {
		if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 200 || r.header.Get("RateLimit-Remaining") != fmt.Sprint(4-i) {
			t.Fatalf("public request %d: %d remaining %q", i+1, r.status, r.header.Get("RateLimit-Remaining"))
		}
	}
	for _, n := range []*server{b, a} {
		if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 429 || r.code() != "RATE_LIMITED" {
			t.Fatalf("6th public request: %d %v", r.status, r.body)
		}
	}

	admin := bearer(sign(t, "ops", "pro", "admin"))
	flag := fmt.Sprintf("beta-%d", time.Now().UnixNano())
	if r := must(t, b.addr, "GET", "/api/v1/features/"+flag, "", session...); r.data()["exists"] != false {
		t.Fatalf("flag before the write: %v", r.body)
	}
	if r := must(t, a.addr, "PUT", "/api/v1/features/"+flag, `{"enabled":true}`, admin...); r.status != 201 {
		t.Fatalf("flag on a: %d %v", r.status, r.body)
	}
	written := time.Now()
	for {
		r := must(t, b.addr, "GET", "/api/v1/features/"+flag, "", session...)
		if r.data()["exists"] == true && r.data()["enabled"] == true {
			t.Logf("flag seen on b after %s", time.Since(written))
			break
		}
		if time.Since(written) > time.Second {
			t.Fatalf("b does not see the flag a second after the write: %v", r.body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// listIDs reads every asset id of a user through addr.
func listIDs(t *testing.T, addr string, session []string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for off := 0; ; off += 100 {
		r := must(t, addr, "GET", fmt.Sprintf("/api/v1/assets?limit=100&offset=%d", off), "", session...)
		if r.status != 200 {
			t.Fatalf("list: %d %v", r.status, r.body)
		}
		page := r.body["data"].([]any)
		for _, a := range page {
			ids[a.(map[string]any)["id"].(string)] = true
		}
		if len(page) < 100 {
			return ids
		}
	}
}

// TestKillNodeLosesNoAcknowledgedCreate: eight writers create assets
// through both nodes; one node is killed with SIGKILL midway. Every create
// that was answered 201 is stored.
func TestKillNodeLosesNoAcknowledgedCreate(t *testing.T) {
	env := clusterEnv(t)
	a, b := startNode(t, env), startNode(t, env)
	const writers = 8
	run := time.Now().UnixNano()
	acked := make([][]string, writers)
	sessions := make([][]string, writers)
	var afterKill atomic.Int64
	var killed atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		sessions[w] = bearer(sign(t, fmt.Sprintf("writer-%d-%d", run, w), "pro", ""))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				node := []*server{a, b}[(w+i)%2]
				r, err := send(node.addr, "POST", "/api/v1/assets", fmt.Sprintf(`{"name":"w%d-%d","value":1,"currency":"USD"}`, w, i), sessions[w]...)
				if err != nil || r.status != 201 {
					if err == nil && !killed.Load() {
						t.Errorf("writer %d: %d %v", w, r.status, r.body)
						return
					}
					continue // the killed node: not acknowledged
				}
				acked[w] = append(acked[w], r.data()["id"].(string))
				if killed.Load() {
					afterKill.Add(1)
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Store(true)
	time.Sleep(700 * time.Millisecond)
	close(stop)
	wg.Wait()
	total := 0
	for w := range writers {
		stored := listIDs(t, b.addr, sessions[w])
		for _, id := range acked[w] {
			if !stored[id] {
				t.Errorf("writer %d: acknowledged asset %s is not stored", w, id)
			}
		}
		total += len(acked[w])
	}
	if afterKill.Load() == 0 {
		t.Fatal("no create was acknowledged after the kill: the surviving node stopped too")
	}
	t.Logf("%d creates acknowledged, %d after the kill, all stored", total, afterKill.Load())
}

// freePort returns a TCP port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestRedisStoppedMidway: the nodes' own Redis stops; requests keep being
// answered under each node's own limit, and status says Redis is
// unreachable.
func TestRedisStoppedMidway(t *testing.T) {
	env := clusterEnv(t, "FI_RATE_PUBLIC=4/1m")
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed")
	}
	port := freePort(t)
	redis := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := redis.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = redis.Process.Kill(); _ = redis.Wait() }) // it may have been killed
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i > 100 {
			t.Fatal("redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	env = append(env, "FI_REDIS_URL=redis://"+addr+"/0")
	a, b := startNode(t, env), startNode(t, env)
	ip := []string{"X-Forwarded-For", clientIP()}
	for i, n := range []*server{a, b} {
		if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 200 || r.header.Get("RateLimit-Remaining") != fmt.Sprint(3-i) {
			t.Fatalf("shared request %d: %d remaining %q", i+1, r.status, r.header.Get("RateLimit-Remaining"))
		}
	}
	if err := redis.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	exited(t, redis.Wait())
	// Each node now counts alone: four more each, then 429.
	for _, n := range []*server{a, b} {
		for i := range 4 {
			start := time.Now()
			r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...)
			if r.status != 200 || r.header.Get("RateLimit-Limit") != "4" {
				t.Fatalf("request %d with Redis stopped: %d %v", i+1, r.status, r.body)
			}
			if el := time.Since(start); el > time.Second {
				t.Fatalf("request with Redis stopped took %s", el)
			}
		}
		if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 429 {
			t.Fatalf("local limit does not hold with Redis stopped: %d", r.status)
		}
	}
	r := must(t, a.addr, "GET", "/api/v1/status", "", "X-Forwarded-For", clientIP())
	rd, _ := r.data()["redis"].(map[string]any)
	if r.status != 200 || rd["state"] != "unreachable" || rd["fallbacks"].(float64) < 5 {
		t.Fatalf("status with Redis stopped: %d %v", r.status, r.body)
	}
}

// proxy forwards TCP to PostgreSQL until told to refuse (close every
// connection, new ones at once) or to black-hole (keep connections open,
// forward nothing): a database that is down, and one that does not answer.
type proxy struct {
	ln     net.Listener
	target string
	mode   atomic.Int32 // 0 forward, 1 refuse, 2 black hole
	mu     sync.Mutex
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.closeAll() })
	go p.serve()
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		switch p.mode.Load() {
		case 1:
			c.Close()
			continue
		case 2:
			p.track(c) // held open, never answered
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.track(c)
		p.track(up)
		go p.pipe(up, c)
		go p.pipe(c, up)
	}
}

func (p *proxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

// pipe copies src to dst while forwarding; in black-hole mode it drops.
func (p *proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			dst.Close()
			return
		}
		if p.mode.Load() == 2 {
			continue
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			src.Close()
			return
		}
	}
}

func (p *proxy) closeAll() {
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
}

// TestPostgresUnreachable: with the database down, status answers 503,
// which opens the store's circuit breaker, and from then on writes answer
// 503 SERVICE_UNAVAILABLE at once, with a database that does not answer
// too; the public calculator answers throughout; and the node recovers
// when the database is back.
func TestPostgresUnreachable(t *testing.T) {
	env := clusterEnv(t)
	db := envValue(env, "FI_DB")
	host := db[strings.Index(db, "://")+3:]
	host = host[strings.IndexByte(host, '@')+1:]
	host = host[:strings.IndexByte(host, '/')]
	p := newProxy(t, host)
	env = append(env, "FI_DB="+strings.Replace(db, host, p.ln.Addr().String(), 1)+"&connect_timeout=2")
	n := startNode(t, env)
	session := bearer(sign(t, fmt.Sprintf("bob-%d", time.Now().UnixNano()), "pro", ""))
	create := `{"name":"Savings","value":10,"currency":"EUR"}`
	if r := must(t, n.addr, "POST", "/api/v1/assets", create, session...); r.status != 201 {
		t.Fatalf("create with the database up: %d %v", r.status, r.body)
	}
	calc := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`
	ip := func() []string { return []string{"X-Forwarded-For", clientIP()} }
	expect := func(what string, within time.Duration, method, path, body string, status int, code string, headers ...string) {
		t.Helper()
		start := time.Now()
		r := must(t, n.addr, method, path, body, headers...)
		el := time.Since(start)
		if r.status != status || r.code() != code || el > within {
			t.Fatalf("%s: %d %q after %s; want %d %q within %s", what, r.status, r.code(), el, status, code, within)
		}
		t.Logf("%s: %d %s after %s", what, r.status, code, el.Round(time.Millisecond))
	}

	p.mode.Store(1)
	p.closeAll()
	expect("status, database down", 3*time.Second, "GET", "/api/v1/status", "", 503, "SERVICE_UNAVAILABLE", ip()...)
	expect("create, database down", time.Second, "POST", "/api/v1/assets", create, 503, "SERVICE_UNAVAILABLE", session...)
	expect("calculator, database down", time.Second, "POST", "/api/v1/calculator", calc, 200, "", ip()...)

	p.mode.Store(2)
	expect("status, database silent", 3*time.Second, "GET", "/api/v1/status", "", 503, "SERVICE_UNAVAILABLE", ip()...)
	expect("calculator, database silent", time.Second, "POST", "/api/v1/calculator", calc, 200, "", ip()...)
	expect("create, database silent", time.Second, "POST", "/api/v1/assets", create, 503, "SERVICE_UNAVAILABLE", session...)

	p.mode.Store(0)
	p.closeAll()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := must(t, n.addr, "GET", "/api/v1/status", "", ip()...)
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status after the database came back: %d %v", r.status, r.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The status check that passed closed the breaker, or its probe does
	// within a second.
	for {
		r := must(t, n.addr, "POST", "/api/v1/assets", create, session...)
		if r.status == 201 || r.status == 409 {
			break
		}
		if r.status != 503 || time.Now().After(deadline) {
			t.Fatalf("create after the database came back: %d %v", r.status, r.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func envValue(env []string, k string) string {
	v := ""
	for _, e := range env {
		if after, ok := strings.CutPrefix(e, k+"="); ok {
			v = after
		}
	}
	return v
}
