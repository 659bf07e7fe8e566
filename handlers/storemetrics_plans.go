package handlers

import (
	"time"

	"fiplan/data/store"
)

func (o *observedStore) CreatePlan(user, id string, doc []byte, max int, kept *store.Keep, w *store.PlanWatch) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.CreatePlan(user, id, doc, max, kept, w)
	o.done(opCreatePlan, t, err)
	return err
}

func (o *observedStore) UpdatePlan(user, id string, fn func(old []byte) ([]byte, *store.PlanWatch, error)) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.UpdatePlan(user, id, fn)
	o.done(opUpdatePlan, t, err)
	return err
}

func (o *observedStore) DeletePlan(user, id string, check func(doc []byte) error) error {
	refused := o.br.admit()
	if refused != nil {
		return refused
	}
	t := time.Now()
	err := o.Store.DeletePlan(user, id, check)
	o.done(opDeletePlan, t, err)
	return err
}

func (o *observedStore) AppendPlan(dst []byte, user, id string) ([]byte, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, refused
	}
	t := time.Now()
	out, err := o.Store.AppendPlan(dst, user, id)
	o.done(opAppendPlan, t, err)
	return out, err
}

func (o *observedStore) AppendPlans(dst []byte, user string, offset, limit int) ([]byte, int, error) {
	refused := o.br.admit()
	if refused != nil {
		return nil, 0, refused
	}
	t := time.Now()
	out, total, err := o.Store.AppendPlans(dst, user, offset, limit)
	o.done(opAppendPlans, t, err)
	return out, total, err
}
