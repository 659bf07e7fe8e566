package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"

	"fiplan/handlers/rest"
)

// requestID echoes a sane incoming X-Request-ID or makes one, and joins
// the W3C trace of an incoming traceparent or starts one.
func (s *Server) requestID(c *rest.Ctx) {
	in := c.RC.Request.Header.Peek("X-Request-ID")
	if !saneID(in) {
		b := append(c.IDBuffer(), s.idPrefix[:]...)
		b = append(b, '-')
		in = strconv.AppendUint(b, s.idSeq.Add(1), 36)
	}
	c.SetRequestID(in)
	c.StartTrace(c.RC.Request.Header.Peek("traceparent"))
}

// idPrefix is what this process's request ids start with: 64 random bits
// in hex, so that ids from two processes do not collide.
func idPrefix() ([16]byte, error) {
	var raw [8]byte
	var p [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return p, fmt.Errorf("cannot seed request ids: %w", err)
	}
	hex.Encode(p[:], raw[:])
	return p, nil
}

func saneID(b []byte) bool {
	if len(b) == 0 || len(b) > 40 {
		return false
	}
	for _, ch := range b {
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', ch == '-', ch == '_', ch == '.', ch == ':':
		default:
			return false
		}
	}
	return true
}
