//go:build linux

package handlers

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// A client connection's reads and writes are plain read(2) and write(2)
// calls on its non-blocking socket, made with syscall.RawSyscall inside
// the connection's syscall.RawConn, instead of through net.Conn's Read and
// Write, which enter the Go scheduler's system-call state around each
// call.
//
// Why: that state is for calls that may block. Entering it wakes the
// runtime's monitor thread (sysmon) when it sleeps, which it does whenever
// the server was idle, so that it can hand the processor to another
// thread if the call lasts past one of its ticks (20 µs at first). A
// server that answers requests arriving one at a time (any open-loop load
// below the peak) pays on nearly every request: the monitor's wake-up, its
// 20 µs polling while the request runs, and a hand-off of the processor
// to a second thread when a large answer's write outlasts a tick, then
// back. On one core every such step is a thread switch that the request
// waits behind. A socket here never blocks: it is non-blocking (the
// runtime's poller set it so), a read with nothing to read and a write to
// a full send buffer return EAGAIN at once, and RawConn then parks the
// goroutine on the poller, honouring the deadlines as net.Conn does.
//
// What is kept: every byte, EOF, deadlines (the poller's timeout error),
// a closed connection (net.ErrClosed) and the socket's errors, each in a
// *net.OpError as net.Conn reports them. A connection that is not a
// syscall.Conn (a test's in-memory pipe) reads and writes as before.
type rawIO struct {
	rc syscall.RawConn // nil: the connection's own Read and Write

	// One read and one write at a time may use the raw path, as net.Conn
	// allows one of each at once; their arguments and results pass
	// through these fields so that the functions given to rc, made once
	// per connection, allocate nothing per call.
	rmu, wmu      sync.Mutex
	rp, wp        []byte
	rn, wn        int
	rerr, werr    syscall.Errno
	readF, writeF func(fd uintptr) bool
	local, remote net.Addr
}

// maxRW bounds one write(2), as the runtime's poller does.
const maxRW = 1 << 30

// init takes c's socket when c offers one.
func (r *rawIO) init(c net.Conn) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	r.rc, r.local, r.remote = rc, c.LocalAddr(), c.RemoteAddr()
	r.readF, r.writeF = r.readOnce, r.writeAll
}

func (c *conn) Read(p []byte) (int, error) {
	r := &c.raw
	if r.rc == nil || len(p) == 0 {
		return c.Conn.Read(p)
	}
	r.rmu.Lock()
	r.rp, r.rn, r.rerr = p, 0, 0
	err := r.rc.Read(r.readF)
	n, errno := r.rn, r.rerr
	r.rp = nil
	r.rmu.Unlock()
	switch {
	case err != nil:
		return 0, r.opError("read", err)
	case errno != 0:
		return 0, r.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (c *conn) Write(p []byte) (int, error) {
	r := &c.raw
	if r.rc == nil || len(p) == 0 {
		return c.Conn.Write(p)
	}
	r.wmu.Lock()
	r.wp, r.wn, r.werr = p, 0, 0
	err := r.rc.Write(r.writeF)
	n, errno := r.wn, r.werr
	r.wp = nil
	r.wmu.Unlock()
	if err == nil && errno != 0 {
		err = os.NewSyscallError("write", errno)
	}
	if err != nil {
		return n, r.opError("write", err)
	}
	return n, nil
}

// readOnce reads once into rp: done unless the socket has nothing yet.
func (r *rawIO) readOnce(fd uintptr) bool {
	p := r.rp
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			r.rn = int(n)
		default:
			r.rerr = e
		}
		return true
	}
}

// writeAll writes the rest of wp: done when it is written or the socket
// fails, not while its send buffer is full.
func (r *rawIO) writeAll(fd uintptr) bool {
	p := r.wp
	for r.wn < len(p) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[r.wn])), uintptr(min(len(p)-r.wn, maxRW)))
		switch e {
		case 0:
			r.wn += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.werr = e
			return true
		}
	}
	return true
}

// opError reports err as net.Conn would: in a *net.OpError of op, the
// poller's own (a deadline, a closed connection) unwrapped from RawConn's.
func (r *rawIO) opError(op string, err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.local, Addr: r.remote, Err: err}
}
