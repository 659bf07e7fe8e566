package postgres

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// turnProxy forwards to PostgreSQL and counts round trips: the times the
// client speaks again after the server has spoken.
type turnProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	turns int
	last  int // 1 client, 2 server
}

func newTurnProxy(t *testing.T, target string) *turnProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &turnProxy{ln: ln, last: 2}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go p.pipe(c, s, 1)
			go p.pipe(s, c, 2)
		}
	}()
	return p
}

func (p *turnProxy) pipe(from, to net.Conn, side int) {
	defer from.Close()
	defer to.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			p.mu.Lock()
			if side == 1 && p.last == 2 {
				p.turns++
			}
			p.last = side
			p.mu.Unlock()
			if _, werr := to.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *turnProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.turns
}

// A create is one round trip to the database (the goal is at most two):
// the pipeline carries the user's row, its lock, the insert and the cap.
func TestCreateAssetRoundTrips(t *testing.T) {
	raw := freshSchema(t)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p := newTurnProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	q := u.Query()
	q.Set("pool_max_conns", "1") // one connection: every turn is the create's
	u.RawQuery = q.Encode()
	d := openT(t, u.String())
	doc := []byte(`{"name":"x"}`)
	create := func(i int) {
		t.Helper()
		if err := d.CreateAsset("rt", store.AssetMeta{ID: fmt.Sprint("a", i), ISIN: fmt.Sprintf("US%010d", i)}, doc, 100, nil); err != nil {
			t.Fatal(err)
		}
	}
	create(0) // prepares the statements on the connection
	create(1)
	before := p.count()
	create(2)
	if n := p.count() - before; n > 2 {
		t.Fatalf("a create took %d round trips", n)
	} else {
		t.Logf("a create took %d round trip(s)", n)
	}
}

// A node that finds the schema current takes no migration lock, so that
// nodes started through a transaction-pooling proxy, which cannot keep a
// session's advisory lock, never hold one or wait on one.
func TestCurrentSchemaTakesNoLock(t *testing.T) {
	u := freshSchema(t)
	if _, err := Migrate(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	held, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close(context.Background())
	if _, err := held.Exec(context.Background(), `SELECT pg_advisory_lock(`+lockKey+`)`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	applied, err := Migrate(ctx, u)
	if err != nil || len(applied) != 0 {
		t.Fatalf("a current schema while another session holds the lock: %v %v", applied, err)
	}
}
