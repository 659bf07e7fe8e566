package handlers

import (
	"bytes"
	"net/netip"
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Hosts is what a request's Host header may name, against DNS rebinding: a
// page on another site whose name the attacker points at this server's
// address reaches it with that name in Host.
type Hosts struct {
	// Names are the host names served (lower case, no port), such as the
	// host of the public URL.
	Names []string
	// Loopback admits "localhost" and its subdomains too: a server whose
	// public URL is on this machine.
	Loopback bool
	// Secure says the public URL is https: a request authenticated by
	// cookie that changes something must come from an https Origin, so
	// that a page injected into plain http on the same host (by whoever
	// sits on the network) cannot write with the session the browser
	// sends it, which a same-site cookie does not stop across schemes.
	Secure bool
}

// NewHosts admits the host of publicURL (and localhost when that host is
// on this machine) and the extra names.
func NewHosts(publicURLHost string, extra ...string) Hosts {
	h := strings.ToLower(stripPort(publicURLHost))
	hs := Hosts{Names: []string{h}}
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); (err == nil && a.IsLoopback()) || isLocalhost(h) {
		hs.Loopback = true
	}
	for _, e := range extra {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			hs.Names = append(hs.Names, stripPort(e))
		}
	}
	return hs
}

// admits reports whether host (a Host header) may be served: none at all
// (HTTP/1.0, a balancer's probe), an IP literal (a client that dialled the
// address itself, which no rebinding page can be), or an admitted name. It
// allocates nothing.
func (hs *Hosts) admits(host []byte) bool {
	if len(hs.Names) == 0 && !hs.Loopback || len(host) == 0 {
		return true
	}
	h := stripPortBytes(host)
	if ipLiteral(h) {
		return true
	}
	for _, n := range hs.Names {
		if strings.EqualFold(bytesconv.String(h), n) {
			return true
		}
	}
	if !hs.Loopback {
		return false
	}
	const local = "localhost"
	return len(h) >= len(local) && strings.EqualFold(bytesconv.String(h[len(h)-len(local):]), local) &&
		(len(h) == len(local) || h[len(h)-len(local)-1] == '.')
}

// ipLiteral reports whether h is an IPv4 address or a bracketed IPv6 one.
func ipLiteral(h []byte) bool {
	if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
		_, err := netip.ParseAddr(bytesconv.String(h[1 : len(h)-1]))
		return err == nil
	}
	for _, c := range h {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	_, err := netip.ParseAddr(bytesconv.String(h))
	return err == nil
}

func isLocalhost(h string) bool { return h == "localhost" || strings.HasSuffix(h, ".localhost") }

// stripPort drops a ":port" from a host, also from "[::1]:8080".
func stripPort(h string) string { return string(stripPortBytes([]byte(h))) }

func stripPortBytes(h []byte) []byte {
	if len(h) > 0 && h[0] == '[' {
		if i := bytes.IndexByte(h, ']'); i >= 0 {
			return h[:i+1]
		}
		return h
	}
	if i := bytes.IndexByte(h, ':'); i >= 0 {
		return h[:i]
	}
	return h
}

// serveNet is the handler for requests from the network: the Host check
// (not for the probes), then the whole chain. Tool calls that MCP runs in-process enter at Serve.
func (s *Server) serveNet(rc *fasthttp.RequestCtx) {
	// A probe answers nothing a page could steal, and a balancer may name
	// a node by its own name: the probes answer whatever Host says.
	if p := rc.Path(); string(p) == livezPath || string(p) == readyzPath || s.cfg.Hosts.admits(rc.Request.Header.Host()) {
		s.Serve(rc)
		return
	}
	c := rest.AcquireCtx(rc, s.log, s.now())
	defer rest.ReleaseCtx(c)
	s.begin(c)
	c.Error(errcode.BadRequest, "the Host header names a host this server does not answer for")
	s.observe(c, s.now().Sub(c.Start()))
	s.accessLog(c)
}
