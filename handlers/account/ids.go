package account

import (
	"crypto/rand"

	"fiplan/handlers/rest"
)

// AssetID and KeyID are the grammars of the ids newID makes: the prefix
// and 26 characters of base32 (a-z, 2-7).
var (
	AssetID = rest.NewPathParam("id", `^ast_[a-z2-7]{26}$`, 30, "must be an asset id: ast_ and 26 characters of a-z and 2-7")
	KeyID   = rest.NewPathParam("id", `^key_[a-z2-7]{26}$`, 30, "must be an API key id: key_ and 26 characters of a-z and 2-7")
)

// newID returns prefix followed by 128 random bits in base 32, an opaque
// and unguessable identifier.
func newID(prefix string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	out := make([]byte, 0, len(prefix)+26)
	out = append(out, prefix...)
	var acc uint32
	bits := 0
	for _, x := range b {
		acc = acc<<8 | uint32(x)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out = append(out, alphabet[acc>>bits&31])
		}
	}
	if bits > 0 {
		out = append(out, alphabet[acc<<(5-bits)&31])
	}
	return string(out), nil
}
