package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"fiplan/handlers/auth"
)

// kill -9 while eight writers create assets: after a restart, every create
// the server acknowledged with 201 is there (bbolt commits with fsync
// before the handler answers), and at most the one in flight per writer
// was committed without an answer. Five rounds on one file.
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the binary five times")
	}
	const secret = "crash-test-secret-of-32-bytes!!!"
	db := filepath.Join(t.TempDir(), "crash.db")
	env := append([]string{"FI_DB=" + db, "FI_JWT_SECRET=" + secret}, unlimited...)
	tokens := make([]string, 8)
	acked := make([]map[string]bool, len(tokens))
	for w := range tokens {
		acked[w] = map[string]bool{}
	}
	for round := range 5 {
		// Tokens are signed afresh each round: the server's clock goes on.
		for w := range tokens {
			tok, err := auth.Sign([]byte(secret), auth.Claims{Sub: fmt.Sprintf("writer%d", w), TTL: time.Hour}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			tokens[w] = tok
		}
		s := start(t, env...)
		var stop atomic.Bool
		var wg sync.WaitGroup
		var mu sync.Mutex
		var sent atomic.Int64
		for w := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; !stop.Load() && i < 100; i++ {
					sent.Add(1)
					st, body, err := s.try("POST", "/api/v1/assets", tokens[w], fmt.Sprintf(`{"name":"r%d w%d #%d","value":1}`, round, w, i))
					if err != nil {
						return // the server is gone
					}
					if st != 201 {
						t.Errorf("writer %d: %d %v", w, st, body)
						return
					}
					mu.Lock()
					acked[w][body["data"].(map[string]any)["id"].(string)] = true
					mu.Unlock()
				}
			}()
		}
		for sent.Load() < 40 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rand.IntN(200)) * time.Millisecond)
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		stop.Store(true)
		wg.Wait()
		exited(t, s.cmd.Wait())

		r := start(t, env...)
		total := 0
		for w, tok := range tokens {
			assets, _ := r.export(t, tok)["assets"].([]any)
			have := map[string]bool{}
			for _, a := range assets {
				have[a.(map[string]any)["id"].(string)] = true
			}
			for id := range acked[w] {
				if !have[id] {
					t.Errorf("round %d: writer %d's asset %s was acknowledged and is gone", round, w, id)
				}
			}
			if len(have) > len(acked[w])+round+1 {
				t.Errorf("round %d: writer %d has %d assets, %d acknowledged", round, w, len(have), len(acked[w]))
			}
			// What was committed unanswered counts as there from now on.
			for id := range have {
				acked[w][id] = true
			}
			total += len(have)
		}
		t.Logf("round %d: %d assets survive", round, total)
		r.stop(t, syscall.SIGTERM)
	}
}
