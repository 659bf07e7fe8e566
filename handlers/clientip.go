package handlers

import (
	"net/netip"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/bytesconv"
	"fiplan/handlers/rest"
)

// clientIP is the peer address, or, when the peer is a trusted proxy, the
// right-most X-Forwarded-For address that is not itself a trusted proxy.
// Several X-Forwarded-For lines read as one list joined in order, so a
// client cannot hide the proxy's line behind one of its own.
func (s *Server) clientIP(c *rest.Ctx) [16]byte {
	var addr netip.Addr
	if ip := c.RC.RemoteIP(); ip != nil {
		addr, _ = netip.AddrFromSlice(ip)
		addr = addr.Unmap()
	}
	if len(s.cfg.TrustedProxies) == 0 || !s.trusted(addr) {
		return addr.As16()
	}
	lines := c.RC.Request.Header.PeekAll(fasthttp.HeaderXForwardedFor)
	for l := len(lines) - 1; l >= 0; l-- {
		xff := lines[l]
		for len(xff) > 0 {
			i := len(xff) - 1
			for i >= 0 && xff[i] != ',' {
				i--
			}
			part := trimSpace(xff[i+1:])
			if i < 0 {
				xff = nil
			} else {
				xff = xff[:i]
			}
			a, err := netip.ParseAddr(bytesconv.String(part))
			if err != nil {
				return addr.As16() // a malformed hop: trust nothing beyond it
			}
			addr = a.Unmap()
			if !s.trusted(addr) {
				return addr.As16()
			}
		}
	}
	return addr.As16()
}

func addrString(a [16]byte) string { return netip.AddrFrom16(a).Unmap().String() }

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
