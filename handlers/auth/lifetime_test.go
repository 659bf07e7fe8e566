package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// A token without iat cannot say when it was issued, so its exp is held to
// the session lifetime: at most SessionTTL (plus the clock leeway) ahead.
func TestLifetimeCapWithoutIssuedAt(t *testing.T) {
	clk := newClock(t0)
	v := newTestVerifier(t, Config{Secret: testSecret, Now: clk.Now, CacheSize: 100})
	noIat := func(exp time.Duration) string {
		c := claims(t0)
		delete(c, "iat")
		c["exp"] = t0.Add(exp).Unix()
		return sign(t, jwt.SigningMethodHS256, testSecret, "", c)
	}
	for _, exp := range []time.Duration{time.Minute, time.Hour, time.Hour + Leeway} {
		wantOK(t, v, noIat(exp))
	}
	for _, exp := range []time.Duration{time.Hour + Leeway + time.Second, 3 * time.Hour, 24 * 365 * time.Hour} {
		_, err := v.Verify([]byte(noIat(exp)))
		if !errors.Is(err, ErrLifetime) || !errors.Is(err, ErrInvalid) {
			t.Errorf("exp now+%v without iat: %v, want ErrLifetime (an ErrInvalid)", exp, err)
		}
	}
	// With iat, a long exp is cut to iat+SessionTTL, not refused.
	c := claims(t0)
	c["exp"] = t0.Add(24 * time.Hour).Unix()
	if p := wantOK(t, v, sign(t, jwt.SigningMethodHS256, testSecret, "", c)); p.Expires != t0.Add(SessionTTL).Unix() {
		t.Fatalf("Expires %d, want iat+SessionTTL", p.Expires)
	}
}
