package handlers

import (
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"syscall"
	"time"

	"fiplan/handlers/errcode"
	"fiplan/handlers/limit"
)

// ConnLimits bound the connections a Server's listener holds open: a flood
// of connections costs availability while it lasts, never the process.
type ConnLimits struct {
	// Max is the number of connections open at once; past it, new ones
	// wait in the kernel's backlog until one closes. 0 chooses from the
	// process's open-file limit (DefaultMaxConns).
	Max int
	// PerIP is the number of connections one client address (an IPv6
	// client: its network, as the rate limit counts it) holds at once; past it, a new connection is answered 429 and closed. Trusted
	// proxies are exempt. 0 means DefaultMaxConnsPerIP, negative no limit.
	PerIP int
}

// The defaults of ConnLimits.
const (
	// fdReserve is the file descriptors kept free of client connections
	// for the store, Redis, the metrics listener and logs.
	fdReserve            = 128
	maxAutoConns         = 16384
	DefaultMaxConnsPerIP = 256
)

// DefaultMaxConns is the connection cap chosen from the open-file limit:
// the limit less fdReserve, at most maxAutoConns and at least 16.
func DefaultMaxConns() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur == 0 {
		return 1024 - fdReserve
	}
	return capConns(r.Cur)
}

func capConns(nofile uint64) int {
	n := min(nofile, maxAutoConns+fdReserve)
	if n <= fdReserve+16 {
		return 16
	}
	return int(n - fdReserve)
}

// Listen wraps ln so that Accept survives what is transient (running out
// of file descriptors, a connection aborted before it was accepted) by
// backing off and retrying, and holds the server to its ConnLimits.
func (s *Server) Listen(ln net.Listener) net.Listener {
	lim := s.cfg.Conns
	if lim.Max <= 0 {
		lim.Max = DefaultMaxConns()
	}
	if lim.PerIP == 0 {
		lim.PerIP = DefaultMaxConnsPerIP
	}
	return &listener{
		Listener: ln,
		slots:    make(chan struct{}, lim.Max),
		perIP:    lim.PerIP,
		ips:      map[[16]byte]int{},
		v6prefix: s.cfg.RateIPv6Prefix,
		trusted:  s.trusted,
		log:      s.log,
		done:     make(chan struct{}),
		metrics:  s.metrics,
	}
}

type listener struct {
	net.Listener
	slots   chan struct{} // a token per open connection
	perIP   int
	trusted func(netip.Addr) bool
	log     *slog.Logger
	metrics *serverMetrics

	// v6prefix groups IPv6 clients by network, as the rate limit does.
	v6prefix int

	mu  sync.Mutex
	ips map[[16]byte]int // open connections per client address or IPv6 network

	closeOnce sync.Once
	done      chan struct{}
	warned    time.Time // the last warning of a transient error; Accept's own
}

// The back-off after a transient accept error, doubling from the first to
// the last, as net/http does.
const (
	acceptFirstDelay = 5 * time.Millisecond
	acceptMaxDelay   = time.Second
)

func (l *listener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			if !transientAccept(err) {
				return nil, err
			}
			delay = max(acceptFirstDelay, min(2*delay, acceptMaxDelay))
			if now := time.Now(); now.Sub(l.warned) > time.Minute {
				l.warned = now
				l.log.Warn("cannot accept a connection; retrying", "err", err, "retryIn", delay.String())
			}
			l.metrics.acceptErrors.Inc()
			select {
			case <-time.After(delay):
			case <-l.done:
				return nil, net.ErrClosed
			}
			continue
		}
		delay = 0
		ip := connIP(c)
		if l.perIP > 0 && !l.trusted(ip) && !l.take(ip) {
			<-l.slots
			l.metrics.connsRefused.Inc()
			refuse(c)
			continue
		}
		l.metrics.accepted.Inc()
		l.metrics.conns.Add(1)
		cc := &conn{Conn: c, l: l, ip: ip, counted: l.perIP > 0 && !l.trusted(ip)}
		cc.raw.init(c)
		return cc, nil
	}
}

// Close stops Accept, also one waiting for a free slot.
func (l *listener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

func (l *listener) key(ip netip.Addr) [16]byte { return limit.AddrKey(ip.As16(), l.v6prefix) }

func (l *listener) take(ip netip.Addr) bool {
	k := l.key(ip)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ips[k] >= l.perIP {
		return false
	}
	l.ips[k]++
	return true
}

func (l *listener) release(ip netip.Addr, counted bool) {
	if counted {
		k := l.key(ip)
		l.mu.Lock()
		if l.ips[k]--; l.ips[k] <= 0 {
			delete(l.ips, k)
		}
		l.mu.Unlock()
	}
	<-l.slots
}

// transientAccept reports whether an accept error passes: the process or
// the system is out of file descriptors (which closing connections frees),
// or a connection was reset before it was accepted.
func transientAccept(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.ENOBUFS) || errors.Is(err, syscall.ENOMEM)
}

func connIP(c net.Conn) netip.Addr {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		ip, _ := netip.AddrFromSlice(a.IP)
		return ip.Unmap()
	}
	return netip.Addr{}
}

// tooManyConns answers a connection over its address's limit before it is
// closed, in the API's envelope.
var tooManyConns = func() []byte {
	body := `{"success":false,"error":"too many connections from your address; close some","code":"` + errcode.RateLimited + `","retryAfter":1}`
	return []byte("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}()

// refuse writes tooManyConns without waiting on the client: a new socket's
// send buffer is empty, so the write completes at once or not at all.
func refuse(c net.Conn) {
	c.SetWriteDeadline(time.Now().Add(10 * time.Millisecond)) //nolint:errcheck // closed next
	c.Write(tooManyConns)                                     //nolint:errcheck // best effort
	c.Close()
}

// conn gives its slot back when closed, and reads and writes its socket
// past the scheduler's system-call hand-off where it can (rawIO).
type conn struct {
	net.Conn
	l       *listener
	ip      netip.Addr
	counted bool // against its address's limit
	once    sync.Once
	raw     rawIO // its reads and writes (rawio_linux.go)
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.metrics.conns.Add(-1)
		c.l.release(c.ip, c.counted)
	})
	return err
}
