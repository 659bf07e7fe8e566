package limit

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const sec = int64(time.Second)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]Rate{"60/1m": {60, time.Minute}, "6000/1m": {6000, time.Minute}, "5/1s": {5, time.Second}, "off": {}} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "60", "0/1m", "-1/1m", "x/1m", "60/", "60/0s", "60/1ms", "60/48h", "60/1m/2", "1.5/1m", "OFF"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) accepted", bad)
		}
	}
}

func TestBurstThenSteadyRate(t *testing.T) {
	l := New[string](Rate{N: 60, Per: time.Minute}, 1000, HashString)
	now := 1000 * sec
	for i := range 60 {
		d := l.Allow("a", now)
		if !d.OK || d.Limit != 60 || d.Remaining != 59-i {
			t.Fatalf("request %d: %+v", i, d)
		}
	}
	d := l.Allow("a", now)
	if d.OK || d.RetryAfter != 1 || d.Remaining != 0 || d.Reset != 60 {
		t.Fatalf("61st request: %+v", d)
	}
	// Another key is unaffected.
	if !l.Allow("b", now).OK {
		t.Fatal("key b limited by key a")
	}
	// One interval (1 s) later, exactly one more request fits.
	now += sec
	if d := l.Allow("a", now); !d.OK || d.Remaining != 0 {
		t.Fatalf("after 1s: %+v", d)
	}
	if d := l.Allow("a", now); d.OK {
		t.Fatalf("second request after 1s admitted: %+v", d)
	}
	// After a full period the whole burst is back.
	now += 61 * sec
	if d := l.Allow("a", now); !d.OK || d.Remaining != 59 {
		t.Fatalf("after a period: %+v", d)
	}
}

func TestRetryAfterIsHonest(t *testing.T) {
	l := New[string](Rate{N: 2, Per: 10 * time.Second}, 10, HashString)
	now := 50 * sec
	l.Allow("k", now)
	l.Allow("k", now)
	d := l.Allow("k", now)
	if d.OK || d.RetryAfter != 5 {
		t.Fatalf("want RetryAfter 5, got %+v", d)
	}
	if l.Allow("k", now+int64(d.RetryAfter)*sec-1).OK {
		t.Fatal("admitted before RetryAfter")
	}
	if !l.Allow("k", now+int64(d.RetryAfter)*sec).OK {
		t.Fatal("refused at RetryAfter")
	}
}

func TestOffAdmitsEverything(t *testing.T) {
	l := New[string](Rate{}, 10, HashString)
	for range 1000 {
		if !l.Allow("x", 0).OK {
			t.Fatal("off limiter refused")
		}
	}
	if l.Len() != 0 {
		t.Fatal("off limiter tracks keys")
	}
}

func TestMemoryBoundedUnderFlood(t *testing.T) {
	const maxKeys = 64 * 100
	l := New[[16]byte](Rate{N: 10, Per: time.Minute}, maxKeys, HashAddr)
	now := 1000 * sec
	var a [16]byte
	for i := range 200000 {
		a[0], a[1], a[2] = byte(i), byte(i>>8), byte(i>>16)
		l.Allow(a, now)
	}
	if n := l.Len(); n > maxKeys {
		t.Fatalf("tracking %d keys, cap %d", n, maxKeys)
	}
	l.Sweep(now + int64(time.Minute))
	if n := l.Len(); n != 0 {
		t.Fatalf("%d keys left after sweep", n)
	}
}

func TestConcurrentExactCount(t *testing.T) {
	l := New[string](Rate{N: 500, Per: time.Hour}, 100, HashString)
	var ok atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if l.Allow("shared", 5*sec).OK {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 500 {
		t.Fatalf("admitted %d, want exactly 500", ok.Load())
	}
}

func TestAllowAllocatesNothingForKnownKey(t *testing.T) {
	l := New[string](Rate{N: 1e9, Per: time.Hour}, 100, HashString)
	key := string([]byte("user-1"))
	l.Allow(key, sec)
	if n := testing.AllocsPerRun(1000, func() { l.Allow(key, sec) }); n != 0 {
		t.Fatalf("allocs = %v", n)
	}
	la := New[[16]byte](Rate{N: 1e9, Per: time.Hour}, 100, HashAddr)
	var a [16]byte
	la.Allow(a, sec)
	if n := testing.AllocsPerRun(1000, func() { la.Allow(a, sec) }); n != 0 {
		t.Fatalf("addr allocs = %v", n)
	}
}

func TestAllowNChargesAllOrNothing(t *testing.T) {
	l := New[string](Rate{N: 10, Per: time.Minute}, 100, HashString)
	now := time.Unix(1000, 0).UnixNano()
	if d := l.AllowN("a", 6, now); !d.OK || d.Remaining != 4 {
		t.Fatalf("6 of 10: %+v", d)
	}
	if d := l.AllowN("a", 5, now); d.OK || d.RetryAfter < 1 {
		t.Fatalf("5 more than fit: %+v", d)
	}
	if d := l.AllowN("a", 4, now); !d.OK || d.Remaining != 0 {
		t.Fatalf("the 4 left: %+v", d)
	}
	if d := l.Allow("b", now); !d.OK || d.Remaining != 9 {
		t.Fatalf("another key: %+v", d)
	}
}

// A request that costs more than the whole allowance is refused as one no
// wait admits: Never, no RetryAfter, nothing charged; one of exactly the
// allowance still fits a fresh key.
func TestAllowNOverTheWholeAllowance(t *testing.T) {
	l := New[string](Rate{N: 10, Per: time.Minute}, 100, HashString)
	now := time.Unix(1000, 0).UnixNano()
	if d := l.AllowN("a", 3, now); !d.OK {
		t.Fatalf("3 of 10: %+v", d)
	}
	d := l.AllowN("a", 11, now)
	if d.OK || !d.Never || d.RetryAfter != 0 || d.Limit != 10 || d.Remaining != 7 || d.Reset != 18 {
		t.Fatalf("11 of 10: %+v", d)
	}
	if d := l.AllowN("a", 7, now); !d.OK || d.Remaining != 0 {
		t.Fatalf("the 7 left after the refusal: %+v", d)
	}
	if d := l.AllowN("b", 10, now); !d.OK || d.Never {
		t.Fatalf("the whole allowance at once: %+v", d)
	}
	if d := l.AllowN("c", 11, now); !d.Never || d.Remaining != 10 || d.Reset != 0 {
		t.Fatalf("11 of 10 on a fresh key: %+v", d)
	}
}
