package hooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Every connection to an endpoint is checked where it is made: the
// dialer's Control function sees the address the name resolved to, just
// before connect, and refuses an address in a blocked range. A name that
// resolves to a public address when registered and to a private one later
// (DNS rebinding) is caught, since no earlier answer is trusted. Redirects
// are not followed, the answer read is capped and the whole exchange is
// timed out.

// ErrBlocked: the endpoint's address is one webhooks may not reach.
var ErrBlocked = errors.New("the address is private, loopback, link-local or otherwise not public")

// blocked are the ranges no webhook connects to: this network, private,
// carrier-grade NAT, loopback, link-local (with the cloud metadata
// address 169.254.169.254), IETF protocol assignments, documentation and
// benchmarking nets, multicast and reserved; for IPv6, ::/96 (the
// unspecified and loopback addresses and the IPv4-compatible form), the
// IPv4-mapped, IPv4-translated and NAT64 forms, unique-local, link-local,
// documentation and multicast, and the tunnels that embed an IPv4
// address (Teredo, 6to4).
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
		"224.0.0.0/4", "240.0.0.0/4",
		"::/96", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2002::/16",
		"fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Allowed reports whether a webhook may connect to ip; loopback says
// whether loopback addresses are allowed (local mode).
func Allowed(ip netip.Addr, loopback bool) bool {
	ip = ip.Unmap().WithZone("") // a zone would make every prefix miss
	if loopback && ip.IsLoopback() {
		return true
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return false
		}
	}
	return ip.IsValid()
}

// control is the dialer's check of the resolved address.
func control(loopback bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("cannot check address %q: %w", address, err)
		}
		if !Allowed(ap.Addr(), loopback) {
			return fmt.Errorf("cannot connect to %s: %w", ap.Addr(), ErrBlocked)
		}
		return nil
	}
}

// Timeout bounds one delivery, connection and answer; MaxAnswer bounds
// the answer read.
const (
	Timeout   = 10 * time.Second
	MaxAnswer = 64 << 10
)

// NewClient is the HTTP client deliveries use: no proxy, no redirects,
// every connection checked by Allowed.
func NewClient(loopback bool) *http.Client {
	d := &net.Dialer{Timeout: Timeout, Control: control(loopback)}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   Timeout,
		ResponseHeaderTimeout: Timeout,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       time.Minute,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// CheckURL is why raw may not be a webhook URL, or "": https, or http to
// a loopback host when loopback is allowed (local mode); no credentials
// or fragment; a host that is a name or a public address.
func CheckURL(raw string, loopback bool) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || !u.IsAbs() {
		return "must be an absolute https URL"
	}
	if u.User != nil || u.Fragment != "" {
		return "must not carry credentials or a fragment"
	}
	host := u.Hostname()
	ip, err := netip.ParseAddr(host)
	isIP := err == nil
	local := strings.EqualFold(host, "localhost") || (isIP && ip.Unmap().IsLoopback())
	switch {
	case u.Scheme == "http" && !(loopback && local):
		return "must use https (http only to a loopback host in local mode)"
	case u.Scheme != "https" && u.Scheme != "http":
		return "must use https"
	case isIP && !Allowed(ip, loopback):
		return "names an address webhooks may not reach (private, loopback, link-local or reserved)"
	case local && !loopback:
		return "names a loopback host, allowed only in local mode"
	}
	return ""
}

// post sends one signed delivery; it returns the answer's status.
func post(ctx context.Context, client *http.Client, target string, h Headers, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(string(body)))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "fiplan-webhooks/1")
	req.Header.Set("webhook-id", h.ID)
	req.Header.Set("webhook-timestamp", h.Timestamp)
	req.Header.Set("webhook-signature", h.Signature)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var sink [4096]byte
	for n := 0; n < MaxAnswer; {
		m, err := resp.Body.Read(sink[:])
		n += m
		if err != nil {
			break
		}
	}
	return resp.StatusCode, nil
}
