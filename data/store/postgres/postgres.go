// Package postgres keeps fiplan's store in PostgreSQL (15 or later), for
// several nodes sharing one database. DB implements store.Store with the
// behaviour of the bbolt store, checked by the same suite (store/storetest).
//
// # Guarantees
//
//   - Every write is one transaction; nil means committed. Durability is
//     PostgreSQL's: keep synchronous_commit on.
//   - Every write that touches a user first locks the user's row (SELECT
//     ... FOR UPDATE), so a user's writes run one at a time across all
//     nodes and the asset and key caps are counted exactly. A user's ISINs
//     and key hashes are unique by constraint: the insert itself decides a
//     race, and the unique violation becomes store.ErrConflict.
//   - DeleteUser is one transaction; Export reads one REPEATABLE READ,
//     read-only snapshot.
//   - Nothing waits forever: connecting gives up after connect_timeout (5s
//     unless the URL sets it), each statement after statement_timeout (5s
//     unless set), and each operation after OpTimeout.
//
// # Caveats
//
// PostgreSQL text holds neither NUL bytes nor invalid UTF-8: ids, names and
// keys with either are refused as invalid input (bbolt takes any bytes).
// Timestamps keep microseconds (bbolt keeps nanoseconds).
//
// # Schema
//
// The tables are created in the connection's current schema (the first of
// its search_path) by the numbered files of migrations/, applied by Open,
// Start and Migrate. Within a major version they are expand-only, so the
// previous release runs on the schema the next one leaves; see migrate.go.
package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"fiplan/data/store"
)

// OpTimeout bounds every operation of DB, waiting for a connection
// included.
const OpTimeout = 10 * time.Second

// Defaults applied when the URL does not say otherwise.
const (
	defaultConnectTimeout   = 5 * time.Second
	defaultStatementTimeout = "5s"
	// A transaction left idle (a stuck node) would hold its user's row lock.
	defaultIdleInTxTimeout = "30s"
)

// DB is an open PostgreSQL store. It is safe for concurrent use.
type DB struct {
	pool  *pgxpool.Pool
	wait  *waiting // Start: until the database is reached; nil after Open
	trips *roundTrips
	// watch judges asset writes against the plans' watches (watch.go).
	watch store.AssetWatch
}

var _ store.Store = (*DB)(nil)

// IsURL reports whether s is a PostgreSQL connection URL rather than a
// bbolt file path.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at url (postgres://user@host:port/db?...),
// applies pending migrations and checks the connection. Query parameters
// of the URL (sslmode, search_path, pool_max_conns, connect_timeout,
// statement_timeout, ...) are honoured.
func Open(ctx context.Context, url string) (*DB, error) {
	trips := &roundTrips{}
	pool, err := connectCounted(ctx, url, trips)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), err)
	}
	return &DB{pool: pool, trips: trips}, nil
}

// connect makes a pool with fiplan's timeouts and checks it can connect.
func connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	return connectCounted(ctx, url, &roundTrips{})
}

// connectCounted is connect with the round trips counted in trips.
func connectCounted(ctx context.Context, url string, trips *roundTrips) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	trips.count(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), err)
	}
	pctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), err)
	}
	return pool, nil
}

// DefaultPoolSize is a node's pool when FI_DB's URL sets no
// pool_max_conns: two connections a CPU, at least eight. A read holds its
// connection for the round trip and the statement, several times the CPU
// the node spends on it: on one core under load, four connections made 90
// to 95% of acquires wait (1.4 ms each) and capped the node at what four
// round trips at a time allow, which moved with the database's own share
// of the CPUs; eight or more let the core, not the pool, set the pace.
func DefaultPoolSize() int32 { return int32(max(8, 2*runtime.GOMAXPROCS(0))) }

// ErrMalformedURL: the URL cannot be parsed as a PostgreSQL URL.
var ErrMalformedURL = errors.New("malformed PostgreSQL URL")

// poolConfig parses url into a pool configuration with fiplan's timeouts.
func poolConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), ErrMalformedURL)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = DefaultPoolSize()
	}
	params := cfg.ConnConfig.RuntimeParams
	if params["statement_timeout"] == "" {
		params["statement_timeout"] = defaultStatementTimeout
	}
	if params["idle_in_transaction_session_timeout"] == "" {
		params["idle_in_transaction_session_timeout"] = defaultIdleInTxTimeout
	}
	if params["application_name"] == "" {
		params["application_name"] = "fiplan"
	}
	return cfg, nil
}

// Redact returns url without its password, for logs and messages.
func Redact(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return "(not a URL)"
	}
	at := strings.LastIndexByte(rest, '@')
	if slash := strings.IndexByte(rest, '/'); slash >= 0 && slash < at {
		at = -1
	}
	if at < 0 {
		return url
	}
	user, _, _ := strings.Cut(rest[:at], ":")
	return scheme + "://" + user + "@" + rest[at+1:]
}

// redact is Redact quoted, for messages.
func redact(url string) string { return fmt.Sprintf("%q", Redact(url)) }

// Close closes the pool, and stops trying to reach the database when it
// has not yet; calling it again is harmless.
func (d *DB) Close() error {
	d.wait.stop()
	d.pool.Close()
	return nil
}

// Kind is "postgres".
func (d *DB) Kind() string { return "postgres" }

// PingTimeout bounds Ping, which answers health checks: a balancer should
// hear "unusable" before its own check times out.
const PingTimeout = 2 * time.Second

// Ping checks that a connection answers within PingTimeout.
func (d *DB) Ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), PingTimeout)
	defer cancel()
	if err := d.pool.Ping(ctx); err != nil {
		return fmt.Errorf("cannot ping db: %w", err)
	}
	return nil
}

// Size is the size of fiplan's tables and their indexes, in bytes.
func (d *DB) Size() (int64, error) {
	ctx, cancel := opContext()
	defer cancel()
	var n int64
	err := d.pool.QueryRow(ctx, `
		SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relkind = 'r'`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("cannot read db size: %w", err)
	}
	return n, nil
}

const secretLen = 32

// Secret returns the local-mode JWT secret, storing 32 crypto/rand bytes
// on the first call; concurrent first calls, from any node, agree.
func (d *DB) Secret() ([]byte, error) {
	ctx, cancel := opContext()
	defer cancel()
	fresh := make([]byte, secretLen)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("cannot make jwt secret: %w", err)
	}
	_, err := d.pool.Exec(ctx, `INSERT INTO meta (name, value) VALUES ('jwt_secret', $1) ON CONFLICT (name) DO NOTHING`, fresh)
	if err != nil {
		return nil, fmt.Errorf("cannot store jwt secret: %w", err)
	}
	s, ok, err := d.peekSecret(ctx)
	if err == nil && !ok {
		err = errors.New("stored secret vanished")
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// PeekSecret returns the stored local-mode JWT secret, if any.
func (d *DB) PeekSecret() ([]byte, bool, error) {
	ctx, cancel := opContext()
	defer cancel()
	return d.peekSecret(ctx)
}

func (d *DB) peekSecret(ctx context.Context) ([]byte, bool, error) {
	var s []byte
	err := d.pool.QueryRow(ctx, `SELECT value FROM meta WHERE name = 'jwt_secret'`).Scan(&s)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read jwt secret: %w", err)
	}
	if len(s) != secretLen {
		return nil, false, fmt.Errorf("cannot read jwt secret: stored secret has %d bytes, want %d", len(s), secretLen)
	}
	return s, true, nil
}

// opContext bounds one operation.
func opContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), OpTimeout)
}

// write runs fn in one read-committed transaction and commits it.
func (d *DB) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, d.pool, pgx.TxOptions{}, fn)
}

// ensureUser creates the user's account (free tier) when absent and locks
// its row until the transaction ends, so that the user's writes run one at
// a time. It loops because a concurrent DeleteUser may remove the row
// between the insert and the lock.
func ensureUser(ctx context.Context, tx pgx.Tx, user string, now time.Time) error {
	for range 3 {
		_, err := tx.Exec(ctx, `INSERT INTO users (id, tier, created_at, updated_at) VALUES ($1, 'free', $2, $2)
			ON CONFLICT (id) DO NOTHING`, user, now)
		if err != nil {
			return err
		}
		var one int
		err = tx.QueryRow(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, user).Scan(&one)
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
	}
	return fmt.Errorf("user %q deleted while being written", user)
}

// queueUserLock adds to a pipeline the statements that make the user's
// account (free tier) when absent and lock its row until the pipeline's
// implicit transaction ends, so that the user's writes run one at a time.
// A concurrent DeleteUser may remove the row between the two: the
// pipeline then fails on a foreign key (codeForeignKey) and is sent again.
func queueUserLock(b *pgx.Batch, user string) {
	b.Queue(`INSERT INTO users (id, tier, created_at, updated_at) VALUES ($1, 'free', $2, $2) ON CONFLICT (id) DO NOTHING`, user, now())
	b.Queue(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, user)
}

// Unique and foreign-key violations.
const (
	codeUnique     = "23505"
	codeForeignKey = "23503"
	codeLimit      = "FPLIM" // fiplan_limit's, migration 0006
	codeWatched    = "FPWCH" // fiplan_unwatched's, migration 0011
)

// limitCheck wraps a query counting one value into one that fails with
// codeLimit when the count passes the parameter after the query's own.
func limitCheck(count string) string {
	n := strings.Count(count, "$")
	return "SELECT fiplan_limit((" + count + "), $" + strconv.Itoa(n+1) + ")"
}

func isCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}

// conflict turns a unique violation into store.ErrConflict, but for the
// one of an Idempotency-Key's claim (keyUsed's).
func conflict(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == codeUnique && pe.ConstraintName != claimKeyConstraint {
		return store.ErrConflict
	}
	return err
}

// checkText refuses what PostgreSQL text cannot hold.
func checkText(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return fmt.Errorf("invalid %s: NUL or invalid UTF-8", what)
	}
	return nil
}

// checkUser validates a user id for a write.
func checkUser(user string) error {
	if !store.ValidID(user) {
		return fmt.Errorf("invalid user id (1..%d bytes)", store.MaxIDLen)
	}
	return checkText("user id", user)
}

// readable reports whether id can name a stored record; reads of other ids
// find nothing.
func readable(id string) bool { return store.ValidID(id) && checkText("", id) == nil }

// now is the store's clock: UTC, microseconds (what timestamptz keeps).
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// utc normalises a time read from the database (pgx returns local time).
func utc(t time.Time) time.Time { return t.UTC() }

// PoolStats are the connection pool's figures now.
func (d *DB) PoolStats() store.PoolStats {
	st := d.pool.Stat()
	return store.PoolStats{
		Max: int(st.MaxConns()), Total: int(st.TotalConns()), Idle: int(st.IdleConns()), InUse: int(st.AcquiredConns()),
		Acquires: st.AcquireCount(), Waited: st.EmptyAcquireCount(), Canceled: st.CanceledAcquireCount(),
		WaitTime: st.EmptyAcquireWaitTime(),
	}
}
