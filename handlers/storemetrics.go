package handlers

import (
	"errors"
	"time"

	"github.com/VictoriaMetrics/metrics"

	"fiplan/data/store"
)

// observedStore times every call to the store it wraps (each is one
// transaction) and counts the calls that failed. ErrNotFound, ErrConflict
// and ErrLimit are answers, not failures, and are not counted; nor is
// ErrStale, a stale version a client sent, nor *KeyUsed, a retried create.
type observedStore struct {
	store.Store
	br  *breaker // every call but Ping passes it (breaker.go)
	ops [nStoreOps]storeOpMetrics
}

type storeOpMetrics struct {
	seconds *metrics.PrometheusHistogram
	errors  *metrics.Counter
}

const (
	opPing = iota
	opSize
	opSecret
	opSaveAccount
	opAccount
	opGetDoc
	opPutDoc
	opUpdateDoc
	opDeleteUser
	opExport
	opCreateAsset
	opUpdateAsset
	opDeleteAsset
	opAppendAsset
	opAppendAssets
	opAssets
	opCreateKey
	opKeys
	opRevokeKey
	opLookupKey
	opTouchKeys
	opPutFlag
	opDeleteFlag
	opFlags
	opRecordExposures
	opExposures
	opRevoke
	opRevoked
	opSaveTier
	opIdempotent
	opCreatePlan
	opUpdatePlan
	opDeletePlan
	opAppendPlan
	opAppendPlans
	nStoreOps
)

var storeOpNames = [nStoreOps]string{"Ping", "Size", "Secret", "SaveAccount", "Account", "GetDoc", "PutDoc", "UpdateDoc",
	"DeleteUser", "Export", "CreateAsset", "UpdateAsset", "DeleteAsset", "AppendAsset", "AppendAssets", "Assets",
	"CreateKey", "Keys", "RevokeKey", "LookupKey", "TouchKeys", "PutFlag", "DeleteFlag", "Flags", "RecordExposures", "Exposures",
	"Revoke", "Revoked", "SaveTier", "Idempotent",
	"CreatePlan", "UpdatePlan", "DeletePlan", "AppendPlan", "AppendPlans"}

// storeBuckets span a read from the page cache to a slow fsync.
var storeBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}

func observeStore(db store.Store, br *breaker, set *metrics.Set) *observedStore {
	o := &observedStore{Store: db, br: br}
	for i, name := range storeOpNames {
		o.ops[i] = storeOpMetrics{
			seconds: set.NewPrometheusHistogramExt(`fiplan_store_duration_seconds{op="`+name+`"}`, storeBuckets),
			errors:  set.NewCounter(`fiplan_store_errors_total{op="` + name + `"}`),
		}
	}
	return o
}

// done records a call's time and failure, and tells the breaker of its
// outcome; every op but Ping passed the breaker (Ping tells it through
// readiness).
func (o *observedStore) done(op int, start time.Time, err error) {
	if op != opPing {
		o.br.outcome(err)
	}
	m := &o.ops[op]
	m.seconds.Update(time.Since(start).Seconds())
	if err != nil && failure(err) {
		m.errors.Inc()
	}
}

// failure reports whether a store call's error is a failure rather than
// one of the store's answers. Apart from done, so that errors.As's target
// is made only for an error, not on every call.
func failure(err error) bool {
	var used *store.KeyUsed
	return !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrLimit) &&
		!errors.Is(err, store.ErrStale) && !errors.As(err, &used)
}

func (o *observedStore) Ping() error {
	t := time.Now()
	err := o.Store.Ping()
	o.br.readiness(err)
	o.done(opPing, t, err)
	return err
}

func (o *observedStore) Size() (int64, error) {
	refused := o.br.admit()
	if refused != nil {
		return 0, refused
	}
	t := time.Now()
	n, err := o.Store.Size()
	o.done(opSize, t, err)
	return n, err
}

func (o *observedStore) Secret() ([]byte, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	b, err := o.Store.Secret()
	o.done(opSecret, t, err)
	return b, err
}

func (o *observedStore) SaveAccount(user, tier string) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.SaveAccount(user, tier)
	o.done(opSaveAccount, t, err)
	return err
}

func (o *observedStore) Account(user string) (store.Account, error) {
	refused := o.br.admit()
	if refused != nil {
		return store.Account{}, refused
	}
	t := time.Now()
	a, err := o.Store.Account(user)
	o.done(opAccount, t, err)
	return a, err
}

func (o *observedStore) GetDoc(user, name string, v any) (bool, error) {
	refused := o.br.admit()
	if refused != nil {
		return false, refused
	}
	t := time.Now()
	ok, err := o.Store.GetDoc(user, name, v)
	o.done(opGetDoc, t, err)
	return ok, err
}

func (o *observedStore) PutDoc(user, name string, v any) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.PutDoc(user, name, v)
	o.done(opPutDoc, t, err)
	return err
}

func (o *observedStore) UpdateDoc(user, name string, fn func(old []byte) ([]byte, error)) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.UpdateDoc(user, name, fn)
	o.done(opUpdateDoc, t, err)
	return err
}

func (o *observedStore) DeleteUser(user string) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.DeleteUser(user)
	o.done(opDeleteUser, t, err)
	return err
}

func (o *observedStore) Export(user string) (store.Export, error) {
	refused := o.br.admit()
	if refused != nil {
		return store.Export{}, refused
	}
	t := time.Now()
	e, err := o.Store.Export(user)
	o.done(opExport, t, err)
	return e, err
}

func (o *observedStore) CreateAsset(user string, m store.AssetMeta, doc []byte, max int, kept *store.Keep) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.CreateAsset(user, m, doc, max, kept)
	o.done(opCreateAsset, t, err)
	return err
}

func (o *observedStore) UpdateAsset(user, id string, fn func(old []byte) (store.AssetMeta, []byte, error)) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.UpdateAsset(user, id, fn)
	o.done(opUpdateAsset, t, err)
	return err
}

func (o *observedStore) DeleteAsset(user, id string, check func(doc []byte) error) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.DeleteAsset(user, id, check)
	o.done(opDeleteAsset, t, err)
	return err
}

func (o *observedStore) AppendAsset(dst []byte, user, id string) ([]byte, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	b, err := o.Store.AppendAsset(dst, user, id)
	o.done(opAppendAsset, t, err)
	return b, err
}

func (o *observedStore) AppendAssets(dst []byte, user string, category, offset, limit int) ([]byte, int, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, 0, refused
	}
	t := time.Now()
	b, n, err := o.Store.AppendAssets(dst, user, category, offset, limit)
	o.done(opAppendAssets, t, err)
	return b, n, err
}

func (o *observedStore) Assets(user string, fn func(doc []byte) error) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.Assets(user, fn)
	o.done(opAssets, t, err)
	return err
}

func (o *observedStore) CreateKey(k store.Key, hash [32]byte, max int, kept *store.Keep) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.CreateKey(k, hash, max, kept)
	o.done(opCreateKey, t, err)
	return err
}

func (o *observedStore) Keys(owner string) ([]store.Key, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	k, err := o.Store.Keys(owner)
	o.done(opKeys, t, err)
	return k, err
}

func (o *observedStore) RevokeKey(owner, id string) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.RevokeKey(owner, id)
	o.done(opRevokeKey, t, err)
	return err
}

func (o *observedStore) LookupKey(hash [32]byte) (store.Key, store.Account, error) {
	refused := o.br.admit()
	if refused != nil {
		return store.Key{}, store.Account{}, refused
	}
	t := time.Now()
	k, a, err := o.Store.LookupKey(hash)
	o.done(opLookupKey, t, err)
	return k, a, err
}

func (o *observedStore) TouchKeys(used map[string]time.Time) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.TouchKeys(used)
	o.done(opTouchKeys, t, err)
	return err
}

func (o *observedStore) PutFlag(key string, v any) (bool, error) {
	refused := o.br.admit()
	if refused != nil {
		return false, refused
	}
	t := time.Now()
	created, err := o.Store.PutFlag(key, v)
	o.done(opPutFlag, t, err)
	return created, err
}

func (o *observedStore) DeleteFlag(key string) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.DeleteFlag(key)
	o.done(opDeleteFlag, t, err)
	return err
}

func (o *observedStore) Flags(fn func(key string, raw []byte) error) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.Flags(fn)
	o.done(opFlags, t, err)
	return err
}

func (o *observedStore) RecordExposures(seen map[string]map[string]string) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.RecordExposures(seen)
	o.done(opRecordExposures, t, err)
	return err
}

func (o *observedStore) Exposures(key string) (map[string]int, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	e, err := o.Store.Exposures(key)
	o.done(opExposures, t, err)
	return e, err
}
