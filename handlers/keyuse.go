package handlers

import (
	"time"

	"fiplan/data/store"
)

// touch records an API key's use; background work writes it in batches.
func (s *Server) touch(owner, id string) {
	now := s.now()
	ref := store.KeyRef(owner, id)
	s.touchMu.Lock()
	s.touched[ref] = now
	s.touchMu.Unlock()
}

// forgetTouched drops the unwritten key uses of owner (erasure).
func (s *Server) forgetTouched(owner string) {
	s.touchMu.Lock()
	for ref := range s.touched {
		if o, _, ok := store.SplitKeyRef(ref); ok && o == owner {
			delete(s.touched, ref)
		}
	}
	s.touchMu.Unlock()
}

func (s *Server) flushTouched() {
	s.touchMu.Lock()
	if len(s.touched) == 0 {
		s.touchMu.Unlock()
		return
	}
	batch := s.touched
	s.touched = map[string]time.Time{}
	s.touchMu.Unlock()
	if err := s.db.TouchKeys(batch); err != nil {
		s.log.Warn("cannot record API key use", "err", err)
	}
}
