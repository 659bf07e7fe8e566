package handlers

import (
	"time"

	"fiplan/handlers/limit"
)

// What keeps several nodes on one store and one Redis consistent: shared
// rate limits, the feature-flag snapshot's refresh and the mirror of the
// sign-out marks (store.Mirror, polled like the flags). API keys are read
// from the mirror's cache of keys found while its copy is fresh; revoking
// a key or erasing its owner writes a mark the mirror carries to every
// node, so a revoked key fails on its node at once and on the others
// within about a second, as a signed-out session does.

// Rate limits are counted by this node alone, or, with Config.Redis, once
// for every node through Redis. The local limiters are kept either way:
// they decide while Redis does not answer (fail-open: a Redis outage
// loosens the limits to per node instead of refusing every request).

// Redis keys of the shared limits; redis_rate prefixes them with "rate:".
const (
	redisPublic = "fiplan:public:"
	redisFree   = "fiplan:free:"
	redisPro    = "fiplan:pro:"
)

// limits makes the per-IP and per-user limiters.
func (s *Server) limits() {
	cfg := s.cfg
	pub := limit.New[[16]byte](cfg.RatePublic, cfg.RateKeys, limit.HashAddr)
	free := limit.New[string](cfg.RateFree, cfg.RateKeys, limit.HashString)
	pro := limit.New[string](cfg.RatePro, cfg.RateKeys, limit.HashString)
	s.sweep = []func(int64){pub.Sweep, free.Sweep, pro.Sweep}
	if cfg.Redis == nil {
		s.public, s.free, s.pro = pub, free, pro
		return
	}
	sp := limit.NewShared(cfg.Redis, cfg.RatePublic, redisPublic, addrString, pub)
	sf := limit.NewShared(cfg.Redis, cfg.RateFree, redisFree, ident, free)
	sr := limit.NewShared(cfg.Redis, cfg.RatePro, redisPro, ident, pro)
	s.public, s.free, s.pro = sp, sf, sr
	s.sweep = append(s.sweep, sp.Sweep, sf.Sweep, sr.Sweep)
}

func ident(s string) string { return s }

// LimitFallbacks is the number of requests whose rate limit this node
// decided alone because Redis did not answer; 0 without Redis.
func (s *Server) LimitFallbacks() uint64 {
	if s.cfg.Redis == nil {
		return 0
	}
	return s.cfg.Redis.Fallbacks()
}

// flagSyncEvery is how often the server checks the store for flags written
// by other nodes.
const flagSyncEvery = 500 * time.Millisecond

// syncFlags reloads the flag snapshot when the stored flags changed. A
// failing store keeps the last snapshot; the failure is logged at most
// once a minute.
func (s *Server) syncFlags() {
	err := s.features.Sync()
	if err == nil {
		s.flagSyncWarned = time.Time{}
		return
	}
	if now := s.now(); s.flagSyncWarned.IsZero() || now.Sub(s.flagSyncWarned) >= time.Minute {
		s.flagSyncWarned = now
		s.log.Warn("feature flags may be stale: the store does not answer", "err", err)
	}
}
