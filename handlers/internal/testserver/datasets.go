package testserver

import (
	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/data/taxtable"
)

// The embedded datasets, as the server loads them (each is decoded once
// per process, so these are the tables the server holds).

// Taxes is the tax systems' table.
func (h *Harness) Taxes() *taxtable.Table {
	h.T.Helper()
	t, err := taxtable.Embedded()
	if err != nil {
		h.T.Fatal(err)
	}
	return t
}

// Programs is the special tax regimes' table.
func (h *Harness) Programs() *program.Table {
	h.T.Helper()
	t, err := program.Embedded()
	if err != nil {
		h.T.Fatal(err)
	}
	return t
}

// FX is the exchange rates' table.
func (h *Harness) FX() *fx.Table {
	h.T.Helper()
	t, err := fx.Embedded()
	if err != nil {
		h.T.Fatal(err)
	}
	return t
}

// Cities is the cities' table.
func (h *Harness) Cities() *geo.Table {
	h.T.Helper()
	t, err := geo.Embedded()
	if err != nil {
		h.T.Fatal(err)
	}
	return t
}
