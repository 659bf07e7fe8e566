package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/bytesconv"
	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// AccessLog chooses which requests the access log records.
type AccessLog uint8

const (
	AccessAll    AccessLog = iota // every request
	AccessErrors                  // responses with status 400 or more
	AccessOff                     // none
)

// ParseAccessLog reads "all", "errors" or "off".
func ParseAccessLog(s string) (AccessLog, error) {
	switch s {
	case "all":
		return AccessAll, nil
	case "errors":
		return AccessErrors, nil
	case "off":
		return AccessOff, nil
	}
	return 0, fmt.Errorf("%q is not all, errors or off", s)
}

func (s *Server) accessLog(c *rest.Ctx) {
	rc := c.RC
	status := rc.Response.StatusCode()
	switch {
	case s.cfg.AccessLog == AccessOff, s.cfg.AccessLog == AccessErrors && status < 400:
		return
	case !s.log.Enabled(context.Background(), slog.LevelInfo):
		return
	}
	r := c.Route()
	if r != nil && r.Access == rest.Probe && status < 400 {
		return // a balancer's checks, several a second: only a failing one is news
	}
	suppressed := 0
	if status == fasthttp.StatusTooManyRequests {
		var ok bool
		if ok, suppressed = s.floods.admit(s.floodKey(c), s.now()); !ok {
			return
		}
	}
	attrs := [...]slog.Attr{
		slog.String("method", bytesconv.String(rc.Method())),
		slog.String("path", bytesconv.String(rc.Path())),
		slog.String("route", routeName(r)),
		slog.Int("status", status),
		slog.Int("bytes", len(rc.Response.Body())),
		slog.String("client", netip.AddrFrom16(c.Client()).Unmap().String()),
		slog.String("user", c.Principal.User),
		slog.Int64("us", s.now().Sub(c.Start()).Microseconds()),
		slog.String("id", bytesconv.String(c.RequestID())),
		slog.String("trace", bytesconv.String(c.Trace().ID[:])),
		slog.String("span", bytesconv.String(c.Trace().Span[:])),
		slog.Int("suppressed", suppressed),
	}
	n := len(attrs)
	if suppressed == 0 {
		n--
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs[:n]...)
}

// routeName is the route's template, "" when no route answered.
func routeName(r *rest.Route) string {
	if r == nil {
		return ""
	}
	return r.Path
}

// floodKey names the client a 429 went to: the user, or the address or
// IPv6 network it is counted by.
func (s *Server) floodKey(c *rest.Ctx) string {
	if c.Authed {
		return "user " + c.Principal.User
	}
	a := netip.AddrFrom16(c.Client()).Unmap()
	if bits := limit.IPv6Prefix(s.cfg.RateIPv6Prefix); a.Is6() && bits < limit.MaxIPv6Prefix {
		return netip.PrefixFrom(a, bits).String()
	}
	return a.String()
}

// floodWindow is how often the access log records a 429 for one client;
// the 429s between are counted, and the next line carries the count.
const (
	floodWindow  = 10 * time.Second
	floodClients = 1 << 16 // clients tracked at once; beyond, 429s go uncounted into one total
)

// floods samples the access log's lines for rate-limited requests, so that
// a client hammering the API does not flood the log too.
type floods struct {
	mu       sync.Mutex
	clients  map[string]*flood
	overflow int // 429s left out for clients beyond floodClients
}

type flood struct {
	last       time.Time // when a line was last written
	suppressed int       // 429s since then, not written
}

// admit reports whether a 429 for client at now gets its line, and how
// many of the client's 429s were left out before it.
func (f *floods) admit(client string, now time.Time) (bool, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.clients[client]
	if e == nil {
		if len(f.clients) >= floodClients {
			f.overflow++
			return false, 0
		}
		if f.clients == nil {
			f.clients = map[string]*flood{}
		}
		f.clients[client] = &flood{last: now}
		return true, 0
	}
	if now.Sub(e.last) < floodWindow {
		e.suppressed++
		return false, 0
	}
	n := e.suppressed
	e.last, e.suppressed = now, 0
	return true, n
}

// sweep forgets clients quiet for a window and logs the 429s left out
// for them (and for the clients beyond the table) since their last line.
func (f *floods) sweep(now time.Time, log *slog.Logger) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for client, e := range f.clients {
		if now.Sub(e.last) < floodWindow {
			continue
		}
		if e.suppressed > 0 {
			log.Info("rate-limited requests not logged", "client", client, "suppressed", e.suppressed)
		}
		delete(f.clients, client)
	}
	if f.overflow > 0 {
		log.Info("rate-limited requests not logged", "client", "others", "suppressed", f.overflow)
		f.overflow = 0
	}
}
