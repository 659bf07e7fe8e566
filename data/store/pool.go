package store

import "time"

// PoolStats are the figures of a store's connection pool, for the
// metrics. A store that keeps a pool (PostgreSQL) has a PoolStats()
// method; bbolt, one file in the process, has none.
type PoolStats struct {
	Max, Total, Idle, InUse int   // connections: the bound, open, idle and acquired
	Acquires                int64 // connections taken from the pool, since start
	Waited                  int64 // of those, the ones that waited for a free connection
	Canceled                int64 // acquires given up (deadline or cancellation)
	WaitTime                time.Duration
}
