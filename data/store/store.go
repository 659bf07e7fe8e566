// Package store is fiplan's storage. Store is what the service needs of
// it; DB, one bbolt file, is the default implementation, and package
// store/postgres keeps the same records in PostgreSQL for several nodes.
// Package store/storetest is the behaviour both promise, as tests.
//
// The rest of this comment is about DB.
//
// Every write is a single bbolt Update transaction, committed with bbolt's
// default fsync, so a write that returned nil survives a crash. Values that
// bbolt lends inside a transaction are decoded or copied before the
// transaction ends; nothing returned by this package aliases the mmap.
//
// # Layout
//
//	meta                      bucket
//	  schema                  8-byte big-endian schema version (currently 1)
//	  jwt_secret              32 random bytes, the local-mode HS256 secret
//	users                     bucket
//	  <user id>               nested bucket per user (opaque id, 1..MaxIDLen bytes)
//	    account               JSON {"tier","createdAt","updatedAt"}
//	    <doc name>            JSON documents written by PutDoc (profile, settings, ...)
//	    keys                  nested bucket
//	    assets, assetIDs, isins nested buckets (see assets.go)
//	    plans, planIDs        nested buckets (see plans.go)
//	    webhooks, events, eventIDs, deliveries, deliveryIDs nested buckets (see hooks.go)
//	      <key id>            JSON {"id","owner","name","hint","createdAt","lastUsedAt","hash"}
//	apikeys                   bucket: the API-key lookup index
//	  <sha256(plain key)>     32 raw bytes -> JSON {"id","owner"}
//	flags                     bucket reserved for feature flags
//	due                       bucket: when each pending delivery may be claimed (see hooks.go)
//
// Only SHA-256 hashes of API keys are stored, never the plain key. A user
// bucket always holds an account record: every write that creates a user
// bucket writes one (tier "free" unless SaveAccount said otherwise).
//
// # Schema versions
//
// Open writes the current schema version into a new file. A file with a newer
// version is refused with ErrSchema; an older one is upgraded in one Update
// transaction by the migrations table (read-only opens refuse to migrate).
//
// # Errors
//
// Open checks the whole file (see check.go) and refuses a damaged one with
// ErrDamaged.
//
// ErrNotFound, ErrConflict, ErrLimit, ErrLocked, ErrSchema and ErrDamaged
// are sentinels to test with errors.Is. Any other error is a storage failure. Operations on a
// closed DB return an error (wrapping bbolt/errors.ErrDatabaseNotOpen), never panic.
package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Sentinel errors; test with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
	ErrLimit    = errors.New("limit reached")
	// ErrStale: a write's callback found another version stored than the
	// one its caller read (the store only passes it through).
	ErrStale = errors.New("the stored version changed")
	// ErrLocked: another process (or another open DB in this process) holds
	// the file's lock; it wraps bbolt's timeout error.
	ErrLocked = errors.New("database is locked by another process")
	// ErrSchema: the file was written by a newer fiplan.
	ErrSchema = errors.New("database schema is newer than this binary")
	// ErrUnavailable: the store has not reached its database since it
	// started, and keeps trying (postgres.Start). Its RetryAfter method
	// says how many seconds a client should wait.
	ErrUnavailable error = unavailable{}
)

type unavailable struct{}

func (unavailable) Error() string {
	return "database not reached since start: connecting in the background"
}

// RetryAfter is the wait, in seconds, to suggest to a client.
func (unavailable) RetryAfter() int { return UnavailableRetry }

// UnavailableRetry is the longest pause between two attempts to reach a
// database that was down at start, in seconds.
const UnavailableRetry = 5

// MaxIDLen is the longest user id or key id the store accepts, in bytes.
const MaxIDLen = 128

// DefaultLockTimeout is how long Open waits for the file lock by default.
const DefaultLockTimeout = 2 * time.Second

// schemaVersion is the layout this binary writes (a variable only so tests
// can exercise the migration path).
var schemaVersion uint64 = 1

// migrations[v] upgrades a file from schema version v to v+1. It runs inside
// the Update transaction that also stamps the new version. Top-level buckets
// that are missing are created after the migrations, so a migration only has
// to move or rewrite data.
var migrations = map[uint64]func(tx *bolt.Tx) error{}

var (
	bucketMeta    = []byte("meta")
	bucketUsers   = []byte("users")
	bucketAPIKeys = []byte("apikeys")
	bucketFlags   = []byte("flags")
	bucketExpose  = []byte("exposures") // flag key -> nested bucket: user -> variant
	bucketKeys    = []byte("keys")      // nested in a user bucket

	keySchema  = []byte("schema")
	keySecret  = []byte("jwt_secret")
	keyAccount = []byte("account") // in a user bucket

	topBuckets = [][]byte{bucketMeta, bucketUsers, bucketAPIKeys, bucketFlags, bucketExpose, bucketDue, bucketMailDue}
)

// errNoChange aborts an Update without committing (and without an fsync)
// when the transaction found nothing to write; update turns it into nil.
var errNoChange = errors.New("no change")

// Options tune Open.
type Options struct {
	// LockTimeout bounds the wait for the file lock; zero or negative means
	// DefaultLockTimeout.
	LockTimeout time.Duration
	// ReadOnly opens an existing file with a shared lock; every write fails.
	ReadOnly bool
}

// DB is an open store. It is safe for concurrent use.
type DB struct {
	bolt *bolt.DB
	path string
	// flags counts flag writes: one process holds the file, so every
	// write passes here.
	flags atomic.Int64
	// marks mirrors the revocation marks, for the same reason (session.go).
	marks markCache
	// watch judges asset writes against the plans' watches (watch.go).
	watch AssetWatch
}

// Open opens (creating when needed, unless o.ReadOnly) the bbolt file at
// path, creates the buckets and schema version of a new file, and migrates an
// older one.
func Open(path string, o Options) (d *DB, err error) {
	timeout := o.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	if fi, statErr := os.Stat(path); statErr == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot open db %q: %w", path, errors.New("is a directory"))
	}
	// A file shorter than its meta page says would make bbolt read past
	// its end through the memory map, a fault: refuse it before bbolt
	// opens it.
	if err := checkPath(path, false); err != nil {
		return nil, fmt.Errorf("cannot open db %q: %w", path, err)
	}
	// bbolt may panic on a damaged file (e.g. an invalid freelist page),
	// or fault reading it: report it as an error and close the file.
	// bbolt's mmap of the file cannot be reached from here, and it keeps
	// the file lock until the process exits: a damaged file is a start-up
	// failure anyway.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var file *os.File
	openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	defer func() {
		if r := recover(); r != nil {
			if file != nil {
				_ = file.Close()
			}
			d, err = nil, fmt.Errorf("cannot open db %q: %w", path, fmt.Errorf("%w (%v)", ErrDamaged, r))
		}
	}()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: o.ReadOnly, OpenFile: openFile})
	if err != nil {
		switch {
		case errors.Is(err, berrors.ErrTimeout):
			err = fmt.Errorf("%w (gave up after %s: %w)", ErrLocked, timeout, err)
		case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
			err = fmt.Errorf("not a bbolt database or damaged: %w", err)
		}
		return nil, fmt.Errorf("cannot open db %q: %w", path, err)
	}
	// Every page, now that the lock keeps writers out: a damaged page is
	// refused here rather than served later. The walk reads with plain
	// reads, about a second per GiB from the page cache.
	if err := checkPath(path, true); err != nil {
		_ = b.Close()
		return nil, fmt.Errorf("cannot open db %q: %w", path, err)
	}
	d = &DB{bolt: b, path: path}
	if err := d.setup(o.ReadOnly); err != nil {
		_ = b.Close()
		return nil, fmt.Errorf("cannot open db %q: %w", path, err)
	}
	return d, nil
}

// setup checks the schema and, when needed, initialises or migrates the file.
func (d *DB) setup(readOnly bool) error {
	var need bool
	err := d.view(func(tx *bolt.Tx) (err error) {
		need, err = checkSchema(tx)
		return err
	})
	if err != nil || !need {
		return err
	}
	if readOnly {
		return errors.New("file needs initialisation or a schema migration; open it read-write once")
	}
	return d.update(func(tx *bolt.Tx) error {
		need, err := checkSchema(tx)
		if err != nil {
			return err
		}
		if !need {
			return errNoChange
		}
		return upgrade(tx)
	})
}

// checkSchema reports whether the file needs initialisation or migration.
func checkSchema(tx *bolt.Tx) (need bool, err error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return false, errors.New("not a fiplan database (a bbolt file without fiplan's meta bucket)")
		}
		return true, nil
	}
	v, err := readVersion(meta)
	if err != nil {
		return false, err
	}
	if v > schemaVersion {
		return false, fmt.Errorf("%w: file has version %d, this binary knows up to %d", ErrSchema, v, schemaVersion)
	}
	if v < schemaVersion {
		return true, nil
	}
	for _, name := range topBuckets {
		if tx.Bucket(name) == nil {
			return true, nil
		}
	}
	return false, nil
}

func readVersion(meta *bolt.Bucket) (uint64, error) {
	raw := meta.Get(keySchema)
	if len(raw) != 8 {
		return 0, fmt.Errorf("malformed schema version (%d bytes)", len(raw))
	}
	v := binary.BigEndian.Uint64(raw)
	if v == 0 {
		return 0, errors.New("malformed schema version 0")
	}
	return v, nil
}

// upgrade initialises a new file or migrates an older one to schemaVersion.
func upgrade(tx *bolt.Tx) error {
	if meta := tx.Bucket(bucketMeta); meta != nil {
		v, err := readVersion(meta)
		if err != nil {
			return err
		}
		for ; v < schemaVersion; v++ {
			m := migrations[v]
			if m == nil {
				return fmt.Errorf("no migration from schema %d to %d", v, v+1)
			}
			if err := m(tx); err != nil {
				return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
			}
		}
	}
	for _, name := range topBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	var raw [8]byte
	binary.BigEndian.PutUint64(raw[:], schemaVersion)
	return tx.Bucket(bucketMeta).Put(keySchema, raw[:])
}

// Close releases the file and its lock. Calling it again is harmless.
func (d *DB) Close() error { return d.bolt.Close() }

// Path is the file path given to Open.
func (d *DB) Path() string { return d.path }

// Ping runs a cheap read transaction; it fails once the DB is closed or
// unusable.
func (d *DB) Ping() error {
	return d.view(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			return errors.New("meta bucket missing")
		}
		return nil
	})
}

// Kind is "bbolt".
func (d *DB) Kind() string { return "bbolt" }

// Size is the size of the database in bytes, as its last committed
// transaction left it: the pages in use, read from the open file's
// metadata without a system call (the file on disk may be larger, since
// bbolt grows it ahead of need).
func (d *DB) Size() (int64, error) {
	var n int64
	err := d.view(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	return n, wrap("size", err)
}

// view runs fn in a read transaction, turning a bbolt panic (a damaged file)
// into an error.
func (d *DB) view(fn func(tx *bolt.Tx) error) (err error) {
	defer recoverTx(&err)
	return d.bolt.View(fn)
}

// update runs fn in one durable write transaction. fn may return errNoChange
// to roll back without writing; update then returns nil.
func (d *DB) update(fn func(tx *bolt.Tx) error) (err error) {
	defer recoverTx(&err)
	err = d.bolt.Update(fn)
	if errors.Is(err, errNoChange) {
		return nil
	}
	return err
}

func recoverTx(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("database damaged: %v", r)
	}
}

// wrap adds the operation name to a storage failure; sentinels stay
// matchable with errors.Is.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// ValidID reports whether id is an acceptable user or key id: 1..MaxIDLen
// bytes.
func ValidID(id string) bool { return id != "" && len(id) <= MaxIDLen }

func validID(id string) bool { return ValidID(id) }

// getJSON decodes the value at key into v; false when absent.
func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	// Decode copies what it keeps; raw is not retained.
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("decode %q: %w", key, err)
	}
	return true, nil
}

// putJSON encodes v and stores it at key.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %q: %w", key, err)
	}
	return b.Put(key, raw)
}

// users returns the users bucket.
func users(tx *bolt.Tx) (*bolt.Bucket, error) { return top(tx, bucketUsers) }

func top(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	b := tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("bucket %q missing", name)
	}
	return b, nil
}

// userBucket returns the user's bucket, or nil when the user has none.
func userBucket(tx *bolt.Tx, user string) (*bolt.Bucket, error) {
	u, err := users(tx)
	if err != nil {
		return nil, err
	}
	return u.Bucket([]byte(user)), nil
}

// ensureUser returns the user's bucket, creating it with a free-tier account
// when absent. Only for write transactions.
func ensureUser(tx *bolt.Tx, user string, now time.Time) (*bolt.Bucket, error) {
	if !validID(user) {
		return nil, fmt.Errorf("invalid user id (1..%d bytes)", MaxIDLen)
	}
	u, err := users(tx)
	if err != nil {
		return nil, err
	}
	if b := u.Bucket([]byte(user)); b != nil {
		return b, nil
	}
	b, err := u.CreateBucket([]byte(user))
	if err != nil {
		return nil, err
	}
	acct := Account{Tier: "free", CreatedAt: now, UpdatedAt: now}
	return b, putJSON(b, keyAccount, acct)
}

// now is the store's clock, UTC without monotonic reading.
func now() time.Time { return time.Now().UTC().Round(0) }
