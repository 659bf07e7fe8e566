package store

import "time"

// Store is what the service needs of its storage. DB (one bbolt file) is the
// default implementation; package store/postgres keeps the same records in
// PostgreSQL for several nodes sharing one database. Both promise the same
// behaviour, which package store/storetest checks:
//
//   - every write is one durable transaction: nil means committed;
//   - a user's ISINs are unique, decided inside the write transaction, so
//     of two racing creates of one ISIN exactly one wins (ErrConflict);
//   - the asset and key caps hold under concurrency (ErrLimit);
//   - DeleteUser erases the account, documents, assets, plans, keys,
//     webhooks, events, deliveries, queued mails and flag exposures in one transaction;
//   - Export reads one consistent snapshot;
//   - a revoked key is not found by the next LookupKey;
//   - a create's answer kept under an Idempotency-Key is written in the
//     create's own transaction, so of two creates under one key exactly
//     one writes and a crash leaves both or neither;
//   - UpdateDoc, UpdateAsset and DeleteAsset show their callback the
//     stored JSON inside the write transaction, with no other writer of
//     that document between the read and the write: a callback that
//     compares the stored version with the one its caller read (returning
//     ErrStale when they differ) makes the write a compare-and-set, so of
//     two writers that read the same version exactly one wins.
//
// ErrNotFound, ErrConflict, ErrLimit and ErrStale are matched with errors.Is. Slices
// handed to callbacks are valid only during the call.
type Store interface {
	// Close releases the store; calling it again is harmless.
	Close() error
	// Ping fails when the store is unusable.
	Ping() error
	// Size is the storage used, in bytes.
	Size() (int64, error)
	// Kind names the backend: "bbolt" or "postgres".
	Kind() string

	// Secret returns the local-mode JWT secret, creating it on first use;
	// concurrent first calls (from any node) agree on one secret.
	Secret() ([]byte, error)
	// PeekSecret returns the stored local-mode JWT secret, if any.
	PeekSecret() ([]byte, bool, error)

	SaveAccount(user, tier string) error
	Account(user string) (Account, error)
	GetDoc(user, name string, v any) (bool, error)
	PutDoc(user, name string, v any) error
	UpdateDoc(user, name string, fn func(old []byte) ([]byte, error)) error
	// DeleteDoc removes the user's document name; removing one that is
	// not there is not an error.
	DeleteDoc(user, name string) error
	DeleteUser(user string) error
	Export(user string) (Export, error)

	// CreateAsset stores a new asset; kept, when not nil, is the answer to
	// keep under an Idempotency-Key, written in the same transaction
	// (*KeyUsed, and nothing written, when the key was used: Idempotency).
	CreateAsset(user string, m AssetMeta, doc []byte, max int, kept *Keep) error
	UpdateAsset(user, id string, fn func(old []byte) (AssetMeta, []byte, error)) error
	// DeleteAsset removes the asset; check, when not nil, sees the stored
	// JSON first, in the same transaction, and its error aborts the delete
	// and is returned as it is.
	DeleteAsset(user, id string, check func(doc []byte) error) error
	AppendAsset(dst []byte, user, id string) ([]byte, error)
	AppendAssets(dst []byte, user string, category, offset, limit int) ([]byte, int, error)
	Assets(user string, fn func(doc []byte) error) error

	CreateKey(k Key, hash [32]byte, max int, kept *Keep) error
	Keys(owner string) ([]Key, error)
	RevokeKey(owner, id string) error
	LookupKey(hash [32]byte) (Key, Account, error)
	TouchKeys(used map[string]time.Time) error

	PutFlag(key string, v any) (created bool, err error)
	DeleteFlag(key string) error
	Flags(fn func(key string, raw []byte) error) error
	// FlagsVersion changes whenever a flag is written or deleted, by any
	// node; a cheap read, so that a node can poll it and reload Flags only
	// when it moved.
	FlagsVersion() (int64, error)
	RecordExposures(seen map[string]map[string]string) error
	Exposures(key string) (map[string]int, error)

	Plans
	Sessions
	Outbox
	Mails
	Watches
	Idempotency
}

var _ Store = (*DB)(nil)
