package handlers

import (
	"time"

	"fiplan/data/store"
)

func (o *observedStore) Revoke(id string, until, now time.Time) (bool, error) {
	refused := o.br.admit()
	if refused != nil {
		return false, refused
	}
	t := time.Now()
	first, err := o.Store.Revoke(id, until, now)
	o.done(opRevoke, t, err)
	return first, err
}

func (o *observedStore) Revoked(id string, now time.Time) (bool, error) {
	refused := o.br.admit()
	if refused != nil {
		return false, refused
	}
	t := time.Now()
	revoked, err := o.Store.Revoked(id, now)
	o.done(opRevoked, t, err)
	return revoked, err
}

func (o *observedStore) SaveTier(user, tier string, issued time.Time) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.SaveTier(user, tier, issued)
	o.done(opSaveTier, t, err)
	return err
}

func (o *observedStore) Idempotent(user, key string, now time.Time, ttl time.Duration) (*store.Replay, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	prev, err := o.Store.Idempotent(user, key, now, ttl)
	o.done(opIdempotent, t, err)
	return prev, err
}
