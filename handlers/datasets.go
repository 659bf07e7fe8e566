package handlers

import (
	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/program"
	"fiplan/data/taxtable"
)

// dataset is an embedded dataset as /status reports it: its name and
// number of records.
type dataset struct {
	name string
	size int
}

// loadDatasets reads the embedded datasets, each decoded and validated.
func (s *Server) loadDatasets() error {
	var err error
	if s.programs, err = program.Embedded(); err != nil {
		return err
	}
	if s.cities, err = geo.Embedded(); err != nil {
		return err
	}
	if s.taxes, err = taxtable.Embedded(); err != nil {
		return err
	}
	if s.fx, err = fx.Embedded(); err != nil {
		return err
	}
	if s.history, err = history.Embedded(); err != nil {
		return err
	}
	s.datasets = append(s.datasets,
		dataset{"cities", s.cities.Len()},
		dataset{"returnHistoryYears", len(s.history.Years)},
		dataset{"taxCountries", len(s.taxes.Codes())},
		dataset{"taxPrograms", s.programs.Len()},
		dataset{"exchangeRates", len(s.fx.Codes())},
	)
	return nil
}
