package handlers

import (
	"time"

	"github.com/VictoriaMetrics/metrics"

	"fiplan/data/store"
	"fiplan/handlers/limit"
)

// poolMetrics are the series of the database's and Redis's connection
// pools and of the rate limiter's fall-backs, read from their sources
// when /metrics is scraped. A source the server does not have (bbolt has no
// pool; Redis unset) gets no series.
type poolMetrics struct {
	db    interface{ PoolStats() store.PoolStats }
	redis *limit.Redis

	dbAcquires, dbWaited, dbCanceled *metrics.Counter
	dbWait                           *metrics.FloatCounter
	redisHits, redisMisses           *metrics.Counter
	redisTimeouts                    *metrics.Counter
	fallbacks                        [len(limit.FallbackReasons)]*metrics.Counter
}

func newPoolMetrics(set *metrics.Set, db store.Store, redis *limit.Redis) *poolMetrics {
	m := &poolMetrics{redis: redis}
	if p, ok := db.(interface{ PoolStats() store.PoolStats }); ok {
		m.db = p
		stat := func(f func(store.PoolStats) int) func() float64 {
			return func() float64 { return float64(f(p.PoolStats())) }
		}
		set.NewGauge("fiplan_db_pool_max_connections", stat(func(s store.PoolStats) int { return s.Max }))
		set.NewGauge(`fiplan_db_pool_connections{state="idle"}`, stat(func(s store.PoolStats) int { return s.Idle }))
		set.NewGauge(`fiplan_db_pool_connections{state="in_use"}`, stat(func(s store.PoolStats) int { return s.InUse }))
		m.dbAcquires = set.NewCounter("fiplan_db_pool_acquires_total")
		m.dbWaited = set.NewCounter("fiplan_db_pool_waited_acquires_total")
		m.dbCanceled = set.NewCounter("fiplan_db_pool_canceled_acquires_total")
		m.dbWait = set.NewFloatCounter("fiplan_db_pool_wait_seconds_total")
	}
	if redis != nil {
		set.NewGauge(`fiplan_redis_pool_connections{state="idle"}`, func() float64 { return float64(redis.PoolStats().IdleConns) })
		set.NewGauge(`fiplan_redis_pool_connections{state="open"}`, func() float64 { return float64(redis.PoolStats().TotalConns) })
		m.redisHits = set.NewCounter("fiplan_redis_pool_hits_total")
		m.redisMisses = set.NewCounter("fiplan_redis_pool_misses_total")
		m.redisTimeouts = set.NewCounter("fiplan_redis_pool_timeouts_total")
		for i, reason := range limit.FallbackReasons {
			m.fallbacks[i] = set.NewCounter(`fiplan_rate_limit_fallbacks_total{reason="` + reason + `"}`)
		}
	}
	return m
}

// refresh copies the sources' running totals into their counters.
func (m *poolMetrics) refresh() {
	if m.db != nil {
		st := m.db.PoolStats()
		m.dbAcquires.Set(uint64(st.Acquires))
		m.dbWaited.Set(uint64(st.Waited))
		m.dbCanceled.Set(uint64(st.Canceled))
		m.dbWait.Set(float64(st.WaitTime) / float64(time.Second))
	}
	if m.redis != nil {
		st := m.redis.PoolStats()
		m.redisHits.Set(uint64(st.Hits))
		m.redisMisses.Set(uint64(st.Misses))
		m.redisTimeouts.Set(uint64(st.Timeouts))
		for i, c := range m.fallbacks {
			c.Set(m.redis.FallbacksBy(i))
		}
	}
}
