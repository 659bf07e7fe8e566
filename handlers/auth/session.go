package auth

import (
	"crypto/sha256"
	"encoding/base64"

	"github.com/golang-jwt/jwt/v5"
)

// A logout revokes a session token by the id in Principal.Session, which
// every request checks against the store's revocations:
//
//   - a token signed with the HS256 secret that carries a sid claim (the
//     web app's local sessions) is named by SessionID(sid): revoking it
//     ends every token of that sign-in, and its refresh cookie, at once;
//   - any other token is named by TokenID: revoking it ends that token.
//     A provider's own sid is not used: it names the session at the
//     provider, which may outlive a logout here, and signing in again
//     would then be refused until the revocation expired.
//
// Both are a SHA-256 written in base64url behind a one-letter kind, 44
// bytes that fit any store id.

// SessionID names the sign-in session sid.
func SessionID(sid string) string { return revocationID('s', []byte(sid)) }

// NamesSignIn reports whether a revocation id is a SessionID, which ends
// a whole sign-in (its tokens and refresh cookies) rather than one token.
func NamesSignIn(id string) bool { return len(id) > 0 && id[0] == 's' }

// TokenID names one session token.
func TokenID(token string) string { return revocationID('t', []byte(token)) }

func revocationID(kind byte, b []byte) string {
	sum := sha256.Sum256(append([]byte{kind, 0}, b...))
	out := make([]byte, 1+base64.RawURLEncoding.EncodedLen(len(sum)))
	out[0] = kind
	base64.RawURLEncoding.Encode(out[1:], sum[:])
	return string(out)
}

// sessionOf is the revocation id of a verified token.
func sessionOf(t *jwt.Token, c *tokenClaims, token string) string {
	if sid, ok := c.Sid.(string); ok && sid != "" && len(sid) <= maxSub && t != nil && t.Method.Alg() == algHS256 {
		return SessionID(sid)
	}
	return TokenID(token)
}
