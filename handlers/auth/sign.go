package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Claims describes a session token to sign.
type Claims struct {
	Sub      string
	Tier     string        // "", "free" or "pro"
	Role     string        // "admin" or ""
	TTL      time.Duration // default and maximum useful value: one hour
	Issuer   string        // optional iss
	Audience string        // optional aud
	Sid      string        // optional sid: the sign-in session the token belongs to
}

// Sign returns an HS256 session token with iat = now and exp = now + TTL. It
// is used by `fiplan token` and by tests.
func Sign(secret []byte, c Claims, now time.Time) (string, error) {
	if len(secret) == 0 {
		return "", errors.New("cannot sign token: empty secret")
	}
	if !validSub(c.Sub) {
		return "", fmt.Errorf("cannot sign token: %w", errSub)
	}
	tier := TierFree
	if c.Tier != "" {
		t, ok := ParseTier(c.Tier)
		if !ok {
			return "", fmt.Errorf("cannot sign token: tier %q is not free or pro", c.Tier)
		}
		tier = t
	}
	if c.TTL < 0 {
		return "", fmt.Errorf("cannot sign token: negative TTL %s", c.TTL)
	}
	ttl := c.TTL
	if ttl == 0 {
		ttl = SessionTTL
	}
	tc := tokenClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   c.Sub,
			Issuer:    c.Issuer,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
		},
		Tier: tier.String(),
	}
	if c.Audience != "" {
		tc.Audience = jwt.ClaimStrings{c.Audience}
	}
	if c.Role != "" {
		tc.Role = c.Role
	}
	if c.Sid != "" {
		tc.Sid = c.Sid
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, &tc).SignedString(secret)
	if err != nil {
		return "", fmt.Errorf("cannot sign token: %w", err)
	}
	return s, nil
}
