package auth

import (
	"errors"
	"fmt"
)

// ErrExpired is returned for a correctly signed token that is past its exp or
// more than an hour past its iat. It maps to 401 TOKEN_EXPIRED.
var ErrExpired = errors.New("token has expired")

// ErrInvalid is wrapped (with %w) by every other verification failure. It maps
// to 401 UNAUTHORIZED.
var ErrInvalid = errors.New("invalid token")

// ErrLifetime wraps ErrInvalid for a correctly signed token without iat
// whose exp is more than SessionTTL (plus Leeway) ahead: with no issue time
// to count from, a session may not promise to outlive its one hour. It maps
// to 401 UNAUTHORIZED, not TOKEN_EXPIRED: the token is not expired, and
// asking for a fresh one from the same issuer would not help.
var ErrLifetime = fmt.Errorf("%w: token lifetime exceeds one hour (exp without iat)", ErrInvalid)

// Tier is a subscription tier. The zero value is the least privileged.
type Tier uint8

const (
	TierFree Tier = iota
	TierPro
)

// String returns "free" or "pro".
func (t Tier) String() string {
	if t == TierPro {
		return "pro"
	}
	return "free"
}

// ParseTier parses "free" or "pro" exactly.
func ParseTier(s string) (Tier, bool) {
	switch s {
	case "free":
		return TierFree, true
	case "pro":
		return TierPro, true
	}
	return TierFree, false
}

// MarshalText encodes the tier as "free" or "pro".
func (t Tier) MarshalText() ([]byte, error) {
	if t > TierPro {
		return nil, fmt.Errorf("cannot encode tier %d", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText accepts "free" or "pro".
func (t *Tier) UnmarshalText(b []byte) error {
	v, ok := ParseTier(string(b))
	if !ok {
		return fmt.Errorf("cannot parse tier %q: want free or pro", b)
	}
	*t = v
	return nil
}

// Via says how a principal authenticated.
type Via uint8

const (
	ViaToken  Via = iota // Authorization: Bearer <JWT>
	ViaCookie            // the fiplan_session cookie (set by the middleware)
	ViaKey               // Authorization: Bearer svc_...
)

// String returns "token", "cookie" or "key".
func (v Via) String() string {
	switch v {
	case ViaCookie:
		return "cookie"
	case ViaKey:
		return "key"
	}
	return "token"
}

// Principal is the authenticated caller.
type Principal struct {
	User    string // JWT sub or the API key's owner
	Tier    Tier
	Admin   bool // role == "admin" in the JWT; API keys never carry admin
	Via     Via
	KeyID   string // for API keys
	Expires int64  // unix seconds; a session principal is valid while now < Expires; 0 for keys
	// Issued orders a user's session tokens: iat, or for a token without
	// one its exp less SessionTTL (unix seconds; 0 for keys).
	Issued int64
	// Session names what a logout revokes for a session token (see
	// SessionID and TokenID); "" for keys.
	Session string
}
