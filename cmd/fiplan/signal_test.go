package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// SIGHUP is logged and ignored (the node keeps serving); SIGTERM turns
// /readyz to 503 while the listener still answers, then drains and exits 0.
func TestSignalsDrainInOrder(t *testing.T) {
	t.Parallel()
	s := start(t, "FI_DB="+filepath.Join(t.TempDir(), "s.db"))
	if st, _ := s.get(t, "/readyz", ""); st != 200 {
		t.Fatalf("readyz before: %d", st)
	}
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s.logged(t, "SIGHUP ignored: fiplan reads its settings at start only; restart it (SIGTERM drains) to change them")
	if st, _ := s.get(t, "/api/v1/status", ""); st != 200 {
		t.Fatalf("status after SIGHUP: %d", st)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.logged(t, "shutting down: /readyz answers 503; closing the listener after the balancers' checks")
	if st, _ := s.get(t, "/readyz", ""); st != 503 {
		t.Fatalf("readyz while draining: %d, want 503", st)
	}
	if st, _ := s.get(t, "/livez", ""); st != 200 {
		t.Fatalf("livez while draining: %d, want 200", st)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
