package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"fiplan/handlers/auth"
)

// tryKey is try with an Idempotency-Key.
func (s *server) tryKey(token, key, body string) (int, map[string]any, error) {
	req, _ := http.NewRequest("POST", "http://"+s.addr+"/api/v1/assets", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	var v map[string]any
	_ = json.Unmarshal(b, &v)
	return res.StatusCode, v, nil
}

// The short soak, in every run (-short too): writers create assets with
// Idempotency-Keys while the node is killed with SIGKILL; after a restart
// no acknowledged create is lost, and each writer's retry of the create it
// had in flight answers 201 at once (its key is not stuck) and leaves that
// asset exactly once, whether the killed node had committed it or not.
func TestSoakKillRetriesEnd(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		soakKill(t, "FI_DB="+filepath.Join(t.TempDir(), "soak.db"))
	})
	t.Run("postgres", func(t *testing.T) { soakKill(t, "FI_DB="+pgSchema(t)) })
}

func soakKill(t *testing.T, dbEnv string) {
	const secret = "soak-test-secret-of-32-bytes!!!!"
	env := append([]string{dbEnv, "FI_JWT_SECRET=" + secret}, unlimited...)
	const writers = 4
	run := time.Now().UnixNano()
	tokens := make([]string, writers)
	for w := range tokens {
		tok, err := auth.Sign([]byte(secret), auth.Claims{Sub: fmt.Sprintf("soak%d-%d", run, w), TTL: time.Hour}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		tokens[w] = tok
	}
	body := func(w, i int) string { return fmt.Sprintf(`{"name":"w%d #%d","value":1}`, w, i) }
	key := func(w, i int) string { return fmt.Sprintf("soak-%d-w%d-%d", run, w, i) }
	s := start(t, env...)
	acked := make([]map[string]bool, writers)
	inFlight := make([]int, writers) // the create each writer had sent without an answer
	var stop atomic.Bool
	var sent atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		acked[w] = map[string]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load() && i < 200; i++ {
				inFlight[w] = i
				sent.Add(1)
				st, b, err := s.tryKey(tokens[w], key(w, i), body(w, i))
				if err != nil {
					return // the node is gone: i is in flight
				}
				if st != 201 {
					t.Errorf("writer %d: %d %v", w, st, b)
					return
				}
				acked[w][b["data"].(map[string]any)["id"].(string)] = true
			}
			inFlight[w] = -1
		}()
	}
	for sent.Load() < 20 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Duration(rand.IntN(50)) * time.Millisecond)
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	stop.Store(true)
	wg.Wait()
	exited(t, s.cmd.Wait())

	r := start(t, env...)
	for w, tok := range tokens {
		want := acked[w]
		if i := inFlight[w]; i >= 0 {
			st, b, err := r.tryKey(tok, key(w, i), body(w, i))
			if err != nil || st != 201 {
				t.Fatalf("writer %d: the retry of its create in flight: %d %v %v", w, st, b, err)
			}
			want[b["data"].(map[string]any)["id"].(string)] = true
		}
		assets, _ := r.export(t, tok)["assets"].([]any)
		have := map[string]bool{}
		for _, a := range assets {
			have[a.(map[string]any)["id"].(string)] = true
		}
		for id := range want {
			if !have[id] {
				t.Errorf("writer %d: asset %s was acknowledged and is gone", w, id)
			}
		}
		if len(assets) != len(want) {
			t.Errorf("writer %d: %d assets, %d acknowledged or retried: a duplicate", w, len(assets), len(want))
		}
	}
	r.stop(t, syscall.SIGTERM)
}
