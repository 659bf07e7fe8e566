package store

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/dgraph-io/ristretto/v2"
)

// The Mirror's cache of API keys found in the store, so that a request
// with a key is not a store read as well as the request's own work.
//
// What is promised: a key revoked (RevokeKey) or whose owner is erased
// (DeleteUser) through a Mirror is refused from that node's next request,
// and on every other node sharing the store within about a second; while a
// node's copy of the marks is older than MirrorStale, LookupKey reads the
// store, as it did before the cache. An owner's tier saved through a
// Mirror (SaveTier) reaches the owner's keys in the same way: on that node
// at once, on the others within about a second.
//
// How: a cached entry is served only while the copy of the marks is fresh,
// only for KeyCacheFor after the read that filled it began, and only while
// the copy holds no mark of the key nor of its owner, and while it has
// applied no mark of the owner's tier since the read that filled it began. RevokeKey and
// DeleteUser write such a mark after the store's delete, lasting
// KeyMarkFor, longer than any entry filled before the delete can live; a
// node's mirror carries it to every node by the same poll as sign-out
// marks. A marked key is read from the store again (where the revoked key
// is gone, and a new account's key under a reused id is found), never
// refused from the mark alone.
//
// Only keys found are cached, by the SHA-256 of the plain key (the key
// itself is never held), and the cache holds at most keyCacheSize of
// them: unknown keys cost a store read each and fill nothing.

const (
	// KeyCacheFor is how long a key read from the store is served from
	// the cache, at most.
	KeyCacheFor = 10 * time.Second
	// KeyMarkFor is how long the mark of a revoked key or an erased owner
	// lasts: past every entry filled before it, with a minute to spare for
	// the nodes' clocks.
	KeyMarkFor = KeyCacheFor + time.Minute
	// keyCacheSize bounds the keys cached.
	keyCacheSize = 1 << 14
)

// keyEntry is a cached LookupKey answer.
type keyEntry struct {
	hash     [32]byte
	key      Key
	acct     Account
	at       int64  // when the read that found it began, unix nanoseconds of the Mirror's clock
	mark     string // KeyMark(key.Owner, key.ID)
	userMark string // UserMark(key.Owner)
	tierMark string // TierMark(key.Owner)
	gen      int64  // the Mirror's generation when the read began
}

// tierSave is a tier mark as this node applied it, kept KeyCacheFor: the
// owner's entries read before it (of an earlier generation) are read again.
type tierSave struct {
	gen int64 // the Mirror's generation once the mark was applied
	at  int64 // when, unix nanoseconds of the Mirror's clock
}

func newKeyCache() *ristretto.Cache[uint64, keyEntry] {
	c, err := ristretto.NewCache(&ristretto.Config[uint64, keyEntry]{
		NumCounters:        keyCacheSize * 10,
		MaxCost:            keyCacheSize,
		BufferItems:        64,
		IgnoreInternalCost: true,
	})
	if err != nil { // only for a configuration out of range, which this is not
		panic(fmt.Sprintf("cannot create key cache: %v", err))
	}
	return c
}

// KeyMark is the mark id of owner's API key id: a digest, so that it fits
// an id however long the owner's and the key's ids are.
func KeyMark(owner, id string) string { return markOf("apikey:", owner+"\x00"+id) }

// UserMark is the mark id of an erased account's API keys.
func UserMark(owner string) string { return markOf("user:", owner) }

// TierMark is the mark id of a tier saved for owner: it sends the owner's
// keys cached before it to the store once.
func TierMark(owner string) string { return markOf(tierPrefix, owner) }

const tierPrefix = "tier:"

func markOf(prefix, s string) string {
	h := sha256.Sum256([]byte(s))
	return prefix + base64.RawURLEncoding.EncodeToString(h[:18])
}

// LookupKey answers from the cache while it may (see above), else from
// the store, caching what the store found.
func (m *Mirror) LookupKey(hash [32]byte) (Key, Account, error) {
	now := m.now()
	at, gen := now.UnixNano(), m.gen.Load()
	slot := binary.LittleEndian.Uint64(hash[:8])
	fresh := m.Lag() <= MirrorStale
	if fresh {
		if e, ok := m.keys.Get(slot); ok && e.hash == hash && at-e.at < int64(KeyCacheFor) && at >= e.at && !m.marked(&e, at) {
			return e.key, e.acct, nil
		}
	}
	k, a, err := m.Store.LookupKey(hash)
	if err != nil {
		return k, a, err
	}
	e := keyEntry{hash: hash, key: k, acct: a, at: at, gen: gen,
		mark: KeyMark(k.Owner, k.ID), userMark: UserMark(k.Owner), tierMark: TierMark(k.Owner)}
	if !m.marked(&e, at) {
		m.keys.Set(slot, e, 1)
		m.keys.Wait() // the next request finds it
	}
	return k, a, nil
}

// marked reports whether the copy holds a mark of e's key or of its
// owner lasting past now (unix nanoseconds), or has applied a mark of its
// owner's tier since e's read began.
func (m *Mirror) marked(e *keyEntry, now int64) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if ts, ok := m.tiers[e.tierMark]; ok && ts.gen > e.gen {
		return true
	}
	return m.marks[e.mark] > now || m.marks[e.userMark] > now
}

// SaveTier saves the tier in the store and then marks the owner's keys
// to be read again, here at once and on other nodes by their next poll, so
// that they act with the tier the store now holds. When the mark cannot be
// written the error is returned; the tier is saved all the same, and other
// nodes may serve the keys with the old tier for up to KeyCacheFor.
func (m *Mirror) SaveTier(user, tier string, issued time.Time) error {
	if err := m.Store.SaveTier(user, tier, issued); err != nil {
		return err
	}
	return m.markKeys(TierMark(user))
}

// RevokeKey marks the key, here at once and on other nodes by their next
// poll, and then deletes it in the store. The mark comes first: it only
// sends every lookup of the key to the store while it lasts, so a mark
// whose delete then fails costs reads and refuses nothing, while a delete
// whose mark failed would leave the key served from other nodes' caches
// for up to KeyCacheFor. When the mark cannot be written nothing is
// deleted and the error is returned.
func (m *Mirror) RevokeKey(owner, id string) error {
	if err := m.markKeys(KeyMark(owner, id)); err != nil {
		return err
	}
	return m.Store.RevokeKey(owner, id)
}

// DeleteUser marks the account's keys and then erases it in the store, in
// that order for the reason RevokeKey gives.
func (m *Mirror) DeleteUser(user string) error {
	if err := m.markKeys(UserMark(user)); err != nil {
		return err
	}
	return m.Store.DeleteUser(user)
}

func (m *Mirror) markKeys(id string) error {
	now := m.now()
	if _, err := m.Revoke(id, now.Add(KeyMarkFor), now); err != nil {
		return fmt.Errorf("cannot mark revoked keys: %w", err)
	}
	return nil
}
