package rest

import (
	"encoding/hex"
	"math/rand/v2"
)

// Trace is a request's place in a W3C Trace Context (the traceparent
// header): the trace it belongs to, the caller's span and this request's
// own. A request that brings a valid traceparent joins its trace; any
// other starts one. The ids are lower-case hex, as the header carries
// them, so that logs quote them as they are.
type Trace struct {
	ID     [32]byte // the trace
	Parent [16]byte // the caller's span; zero when the trace starts here
	Span   [16]byte // this request's span
	Flags  [2]byte
	joined bool
}

// Joined reports whether the trace came with the request.
func (t *Trace) Joined() bool { return t.joined }

// StartTrace joins the trace of a traceparent header value (version 00,
// or a later version's first four fields, as the specification asks) or
// starts a new one, and gives this request a span id.
func (c *Ctx) StartTrace(traceparent []byte) {
	t := &c.trace
	t.joined = parseTraceparent(traceparent, t)
	if !t.joined {
		putHex(t.ID[:16], rand.Uint64())
		putHex(t.ID[16:], rand.Uint64())
		t.Parent = [16]byte{}
		t.Flags = [2]byte{'0', '0'}
	}
	putHex(t.Span[:], rand.Uint64()|1) // never all zero
}

// Trace is the request's trace; valid during the request.
func (c *Ctx) Trace() *Trace { return &c.trace }

// Traceparent appends the header value a call made on this request's
// behalf carries: the trace, with this request's span as the parent.
func (t *Trace) Traceparent(dst []byte) []byte {
	dst = append(dst, "00-"...)
	dst = append(dst, t.ID[:]...)
	dst = append(dst, '-')
	dst = append(dst, t.Span[:]...)
	dst = append(dst, '-')
	return append(dst, t.Flags[:]...)
}

func putHex(dst []byte, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (56 - 8*i))
	}
	hex.Encode(dst, b[:])
}

// parseTraceparent reads "00-<32 hex>-<16 hex>-<2 hex>" into t. A future
// version is read by its first fields when the value continues with '-'.
// All-zero ids, upper-case hex and version ff are invalid.
func parseTraceparent(h []byte, t *Trace) bool {
	if len(h) < 55 || h[2] != '-' || h[35] != '-' || h[52] != '-' || !lowerHex(h[:2]) || string(h[:2]) == "ff" {
		return false
	}
	if string(h[:2]) == "00" && len(h) != 55 || len(h) > 55 && h[55] != '-' {
		return false
	}
	id, parent, flags := h[3:35], h[36:52], h[53:55]
	if !lowerHex(id) || !lowerHex(parent) || !lowerHex(flags) || allZero(id) || allZero(parent) {
		return false
	}
	copy(t.ID[:], id)
	copy(t.Parent[:], parent)
	copy(t.Flags[:], flags)
	return true
}

func lowerHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}
