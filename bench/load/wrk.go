package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// result is what one load run measured.
type result struct {
	requests int
	rps      float64
	p50, p99 time.Duration
	non2xx   int
	socket   string // wrk's socket error line, empty when there were none
	detail   string // the Go generator's breakdown of where the time went
}

// credentials fill the Authorization header of the routes that need one.
type credentials struct{ jwt, key string }

func (c credentials) header(r route) string {
	switch r.auth {
	case "jwt":
		return "Bearer " + c.jwt
	case "key":
		return "Bearer " + c.key
	}
	return ""
}

// writeScript writes a wrk Lua script sending rs picked by weight (one
// route: always that one). Fixed requests are formatted once per thread;
// a varied route formats a new body per request from templates.
func writeScript(dir, name string, rs []route, cred credentials, templates []variedTemplate) (string, error) {
	var b strings.Builder
	b.WriteString("-- Written by bench/load for one wrk run; see bench/load/wrk.go.\n")
	b.WriteString("local entries = {\n")
	anyVaried := false
	for _, r := range rs {
		fmt.Fprintf(&b, "  {w = %d, method = %s, path = %s, varied = %t, body = %s, ", max(r.weight, 1), luaQuote(r.method), luaQuote(r.path), r.varied, luaQuote(r.body))
		if t := r.tmpl; t != nil {
			fmt.Fprintf(&b, "tmpl = {%s, %d, %s}, ", luaQuote(t.pre), t.savings, luaQuote(t.post))
		}
		b.WriteString("headers = {")
		if r.method == "POST" {
			b.WriteString(`["Content-Type"] = "application/json", `)
		}
		if h := cred.header(r); h != "" {
			fmt.Fprintf(&b, `["Authorization"] = %s, `, luaQuote(h))
		}
		b.WriteString("}},\n")
		anyVaried = anyVaried || r.varied
	}
	b.WriteString("}\nlocal templates = {\n")
	if anyVaried {
		for _, t := range templates {
			fmt.Fprintf(&b, "  {%s, %d, %s},\n", luaQuote(t.pre), t.savings, luaQuote(t.post))
		}
	}
	b.WriteString(`}
local threads = 0
local total = 0
local n = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local function copy(h)
  local c = {}
  for k, v in pairs(h) do c[k] = v end
  return c
end

function init(args)
  for _, e in ipairs(entries) do
    total = total + e.w
    e.upto = total
    if not e.varied and not e.tmpl then
      e.req = wrk.format(e.method, e.path, copy(e.headers), e.body)
    end
  end
  math.randomseed(tid or 1)
end

function request()
  local e = entries[1]
  if #entries > 1 then
    local x = math.random(total)
    for _, c in ipairs(entries) do
      if x <= c.upto then e = c break end
    end
  end
  if e.tmpl then
    n = n + 1
    local t = e.tmpl
    return wrk.format(e.method, e.path, copy(e.headers), t[1] .. string.format("%d.%02d", t[2] + n, (tid or 1) % 100) .. t[3])
  end
  if not e.varied then return e.req end
  n = n + 1
  local t = templates[n % #templates + 1]
  local body = t[1] .. string.format("%d.%02d", t[2] + n, (tid or 1) % 100) .. t[3]
  return wrk.format(e.method, e.path, copy(e.headers), body)
end
`)
	path := filepath.Join(dir, name+".lua")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// luaQuote writes s as a Lua string literal.
func luaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03d", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// load is how hard wrk drives a target.
type load struct {
	threads, conns int
	duration       time.Duration
}

// runWrk drives url with script and parses wrk's report.
func runWrk(ctx context.Context, l load, script, url string) (result, error) {
	secs := max(1, int(l.duration.Round(time.Second)/time.Second))
	name, args := onCPU(loadCPU, "wrk", "-t", strconv.Itoa(l.threads), "-c", strconv.Itoa(l.conns),
		"-d", strconv.Itoa(secs)+"s", "--timeout", "10s", "--latency", "-s", script, url)
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("cannot run wrk on %s: %w: %s", url, err, strings.TrimSpace(errb.String()))
	}
	res, err := parseWrk(out.String())
	if err != nil {
		return res, fmt.Errorf("cannot read wrk's report on %s: %w\n%s", url, err, out.String())
	}
	return res, nil
}

// parseWrk reads the report wrk prints with --latency.
func parseWrk(out string) (result, error) {
	var res result
	var haveRPS, haveRequests bool
	inDist := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		f := strings.Fields(line)
		switch {
		case line == "Latency Distribution":
			inDist = true
		case inDist && len(f) == 2 && strings.HasSuffix(f[0], "%"):
			d, err := time.ParseDuration(f[1])
			if err != nil {
				return res, fmt.Errorf("cannot parse latency %q: %w", f[1], err)
			}
			switch f[0] {
			case "50%":
				res.p50 = d
			case "99%":
				res.p99 = d
			}
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			inDist = false
			n, err := strconv.Atoi(f[0])
			if err != nil {
				return res, fmt.Errorf("cannot parse request count %q: %w", f[0], err)
			}
			res.requests, haveRequests = n, true
		case strings.HasPrefix(line, "Non-2xx or 3xx responses:"):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Non-2xx or 3xx responses:")))
			if err != nil {
				return res, fmt.Errorf("cannot parse %q: %w", line, err)
			}
			res.non2xx = n
		case strings.HasPrefix(line, "Socket errors:"):
			res.socket = strings.TrimPrefix(line, "Socket errors: ")
		case strings.HasPrefix(line, "Requests/sec:"):
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, "Requests/sec:")), 64)
			if err != nil {
				return res, fmt.Errorf("cannot parse %q: %w", line, err)
			}
			res.rps, haveRPS = v, true
		}
	}
	switch {
	case !haveRPS || !haveRequests:
		return res, errors.New("no request count or Requests/sec line")
	case res.p50 == 0 || res.p99 == 0:
		return res, errors.New("no latency distribution (was --latency given?)")
	}
	return res, nil
}
