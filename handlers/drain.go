package handlers

import (
	"net"
	"time"
)

// How drain reads an oversized body: at most drainBytes and drainTime in
// all. A client may pause mid-body (drainPause); once at most the last
// readBuffer bytes are missing, which fasthttp may already have buffered,
// a short silence (drainIdle) means the client is done and waits.
const (
	drainBytes = 16 << 20
	drainTime  = 5 * time.Second
	drainPause = time.Second
	drainIdle  = 50 * time.Millisecond
	drainOpen  = 250 * time.Millisecond // a chunked body, of unknown length
)

// drain reads and discards what the client is still sending after the
// server has decided to answer and close early (a body over the limit).
// Closing a socket with unread data resets the connection, and a client
// still writing its body then sees "connection reset" instead of the
// answer. length is the declared body length, or negative when unknown.
func drain(conn net.Conn, length int) {
	if conn == nil {
		return
	}
	limit := int64(drainBytes)
	if length >= 0 && int64(length) < limit {
		limit = int64(length)
	}
	buf := make([]byte, 32<<10)
	end := time.Now().Add(drainTime)
	for read := int64(0); read < limit; {
		wait := drainIdle
		switch {
		case length < 0:
			wait = drainOpen
		case read < limit-readBuffer:
			wait = drainPause
		}
		d := time.Now().Add(wait)
		if d.After(end) {
			d = end
		}
		if conn.SetReadDeadline(d) != nil {
			break
		}
		n, err := conn.Read(buf)
		read += int64(n)
		if err != nil {
			break
		}
	}
	conn.SetReadDeadline(time.Time{}) //nolint:errcheck // the connection is closed next
}
