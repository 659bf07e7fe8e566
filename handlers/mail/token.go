package mail

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// A token is base64url(claims) "." base64url(HMAC-SHA256(key, purpose NUL
// claims)), the key derived from the server's secret: a verification link
// proves the address reached its owner, an unsubscribe link names one user
// and one event type, and neither can be guessed or turned into the other.

// Token purposes.
const (
	purposeVerify = "verify"
	purposeUnsub  = "unsubscribe"
)

// claims is what a token carries.
type claims struct {
	User    string `json:"u"`
	Address string `json:"a,omitempty"` // verify: the address verified
	Type    string `json:"t,omitempty"` // unsubscribe: the event type
	Expires int64  `json:"e"`           // unix seconds
}

var (
	errBadToken     = errors.New("the token is malformed or its signature does not match")
	errExpiredToken = errors.New("the token has expired")
)

// Lifetimes: a verification link is good for a day; an unsubscribe link
// for a year, as mail is read long after it is sent.
const (
	VerifyTTL = 24 * time.Hour
	UnsubTTL  = 365 * 24 * time.Hour
)

func sign(key []byte, purpose string, c claims) (string, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	p := base64.RawURLEncoding.EncodeToString(raw)
	return p + "." + base64.RawURLEncoding.EncodeToString(mac(key, purpose, p)), nil
}

func mac(key []byte, purpose, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// parse checks tok's signature for purpose and its expiry at now.
func parse(key []byte, purpose, tok string, now time.Time) (claims, error) {
	var c claims
	p, s, ok := strings.Cut(tok, ".")
	if !ok || len(tok) > 2048 {
		return c, errBadToken
	}
	sig, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || !hmac.Equal(sig, mac(key, purpose, p)) {
		return c, errBadToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(raw, &c) != nil || c.User == "" {
		return c, errBadToken
	}
	if now.Unix() >= c.Expires {
		return c, errExpiredToken
	}
	return c, nil
}

// deriveKey is the signing key of mail tokens, apart from every other use
// of the server's secret.
func deriveKey(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("fiplan mail tokens"))
	return m.Sum(nil)
}
