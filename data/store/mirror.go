package store

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/ristretto/v2"
)

// Mirror is a Store whose Revoked answers from a node-local copy of the
// sign-out marks instead of a read per request. The copy polls the store
// for marks numbered after the last it saw (MarksAfter), every
// MirrorEvery, the way a node reloads its flags; a mark made through the
// Mirror itself is applied at once, so the node that signs a session out
// refuses it from its next request, and every other node within about a
// poll. While the copy is older than MirrorStale (the store does not
// answer, or the node has just started), Revoked reads the store as
// before. Only marks that have not expired are kept. LookupKey answers
// from a cache of the keys found, checked against the same marks (see
// keycache.go).
type Mirror struct {
	Store
	now func() time.Time // the clock of the marks' until, as Revoke's callers read it

	mu    sync.RWMutex
	marks map[string]int64 // id -> until, unix nanoseconds

	tiers map[string]tierSave // TierMark id -> when this node applied it, for KeyCacheFor
	gen   atomic.Int64        // moves when a tier mark is applied

	keys *ristretto.Cache[uint64, keyEntry] // found API keys by their hash's first 8 bytes

	// fresh is when the last poll that succeeded began (unix nanoseconds
	// of the real clock; 0 before the first): the copy holds every mark
	// committed before it.
	fresh atomic.Int64

	// Owned by poll. seen is the highest number read; marks is read again
	// from the number seen rewind ago, since a mark numbered before
	// another may commit after it.
	seen    int64
	history []watermark

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

type watermark struct {
	at  int64 // unix nanoseconds
	seq int64
}

const (
	// MirrorEvery is how often a Mirror polls the store.
	MirrorEvery = 250 * time.Millisecond
	// MirrorStale is the age past which the copy is not trusted and
	// Revoked reads the store.
	MirrorStale = time.Second
	// rewind covers a mark whose number was drawn before another's but
	// committed after it: a statement ends within the store's operation
	// timeout, well inside it.
	rewind = 15 * time.Second
	// MirrorLagCap bounds the lag a metric reports: a copy never loaded
	// is an hour old.
	MirrorLagCap = time.Hour
)

// NewMirror starts mirroring s's marks; Stop (or Close) ends it. now is
// the clock that judges the credentials the marks are about (nil: the
// system's): marks that have expired by it are forgotten.
func NewMirror(s Store, now func() time.Time) *Mirror {
	if now == nil {
		now = time.Now
	}
	m := &Mirror{Store: s, now: now, marks: map[string]int64{}, tiers: map[string]tierSave{}, keys: newKeyCache(), stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

func (m *Mirror) run() {
	defer close(m.done)
	t := time.NewTicker(MirrorEvery)
	defer t.Stop()
	for {
		m.poll()
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
	}
}

// poll reads the marks numbered since the number seen rewind ago, and
// forgets the expired ones.
func (m *Mirror) poll() {
	start := time.Now().UnixNano()
	from := int64(0)
	keep := m.history[:0]
	for _, w := range m.history {
		if start-w.at >= int64(rewind) {
			from = w.seq
			continue
		}
		keep = append(keep, w)
	}
	if from > 0 {
		// The newest watermark past the rewind stays the floor.
		keep = append([]watermark{{at: start - int64(rewind), seq: from}}, keep...)
	}
	m.history = keep
	type mark struct {
		id    string
		until int64
	}
	var got []mark
	expired := m.now().UnixNano()
	last, err := m.Store.MarksAfter(from, func(id string, until time.Time) {
		if u := until.UnixNano(); u > expired {
			got = append(got, mark{id, u})
		}
	})
	if err != nil {
		return
	}
	applied := m.now().UnixNano() // once read: entries of lookups begun before are older
	m.mu.Lock()
	for _, k := range got {
		if k.until > m.marks[k.id] {
			m.marks[k.id] = k.until
			m.applied(k.id, applied)
		}
	}
	for id, u := range m.marks {
		if u <= expired {
			delete(m.marks, id)
		}
	}
	for id, ts := range m.tiers {
		if ts.at+int64(KeyCacheFor) <= expired {
			delete(m.tiers, id)
		}
	}
	m.mu.Unlock()
	m.seen = max(m.seen, last)
	m.history = append(m.history, watermark{at: start, seq: m.seen})
	m.fresh.Store(start)
}

// Revoke marks id in the store and, once it is recorded, in the copy.
func (m *Mirror) Revoke(id string, until, now time.Time) (bool, error) {
	first, err := m.Store.Revoke(id, until, now)
	if err != nil {
		return first, err
	}
	m.markHere(id, until)
	return first, nil
}

// markHere marks id in the copy until the time given.
func (m *Mirror) markHere(id string, until time.Time) {
	applied := m.now().UnixNano()
	m.mu.Lock()
	if u := until.UnixNano(); u > m.marks[id] {
		m.marks[id] = u
		m.applied(id, applied)
	}
	m.mu.Unlock()
}

// applied records a tier mark new to the copy (made or extended) as
// applied now: the owner's keys cached before are read again. Under mu.
func (m *Mirror) applied(id string, now int64) {
	if strings.HasPrefix(id, tierPrefix) {
		m.tiers[id] = tierSave{gen: m.gen.Add(1), at: now}
	}
}

// Revoked answers from the copy while it is fresh, else from the store.
func (m *Mirror) Revoked(id string, now time.Time) (bool, error) {
	if m.Lag() > MirrorStale {
		return m.Store.Revoked(id, now)
	}
	return m.Known(id, now), nil
}

// Known answers from the copy however old it is: for a caller that
// would rather have a late answer than none while the store is down.
func (m *Mirror) Known(id string, now time.Time) bool {
	m.mu.RLock()
	u, ok := m.marks[id]
	m.mu.RUnlock()
	return ok && u > now.UnixNano()
}

// Lag is the age of the copy: how long ago the last poll that succeeded
// began; very large before the first.
func (m *Mirror) Lag() time.Duration {
	f := m.fresh.Load()
	if f == 0 {
		return 1<<63 - 1
	}
	return time.Duration(time.Now().UnixNano() - f)
}

// Stop ends the polling and empties the key cache; the copy stays as it
// was, and stale a second later. Calling it again is harmless.
func (m *Mirror) Stop() {
	m.once.Do(func() {
		close(m.stop)
		<-m.done
		m.keys.Close()
	})
	<-m.done
}

// Close stops the polling and closes the store.
func (m *Mirror) Close() error {
	m.Stop()
	return m.Store.Close()
}
