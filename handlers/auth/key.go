package auth

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"math/bits"
)

// KeyPrefix starts every API key.
const KeyPrefix = "svc_"

const (
	keyBodyLen  = 43 // base62 digits of 32 random bytes: 62^43 > 2^256
	keySumLen   = 6  // base62 digits of a CRC-32: 62^6 > 2^32
	keyLen      = len(KeyPrefix) + keyBodyLen + keySumLen
	keyRandLen  = 32
	base62Chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// NewKey returns a fresh API key and the SHA-256 hash to store. The key is
// KeyPrefix, 43 base62 digits encoding 32 bytes from crypto/rand (fixed
// width, leading zeros kept) and 6 base62 digits of the CRC-32 (IEEE) of
// everything before them, so typos are caught without a lookup. Only the
// hash may be stored; the plain key is shown once.
func NewKey() (plain string, hash [32]byte, err error) {
	var raw [keyRandLen]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", hash, fmt.Errorf("cannot generate API key: %w", err)
	}
	var b [keyLen]byte
	copy(b[:], KeyPrefix)
	encode256(b[len(KeyPrefix):len(KeyPrefix)+keyBodyLen], &raw)
	encodeSum(b[len(KeyPrefix)+keyBodyLen:], crc32.ChecksumIEEE(b[:len(KeyPrefix)+keyBodyLen]))
	return string(b[:]), sha256.Sum256(b[:]), nil
}

// ParseKey checks the prefix, exact length, base62 charset and checksum of an
// API key and returns its SHA-256 hash for the store lookup. It allocates
// nothing. A key that passes still has to be found (and not revoked) in the
// store; ParseKey only rejects garbage cheaply.
func ParseKey(b []byte) (hash [32]byte, ok bool) {
	if len(b) != keyLen || !IsKey(b) {
		return hash, false
	}
	for _, c := range b[len(KeyPrefix):] {
		if base62Value(c) < 0 {
			return hash, false
		}
	}
	var sum [keySumLen]byte
	encodeSum(sum[:], crc32.ChecksumIEEE(b[:len(KeyPrefix)+keyBodyLen]))
	if !bytes.Equal(sum[:], b[len(KeyPrefix)+keyBodyLen:]) {
		return hash, false
	}
	return sha256.Sum256(b), true
}

// IsKey reports whether b has the API key prefix (and so is not a JWT).
func IsKey(b []byte) bool {
	return bytes.HasPrefix(b, []byte(KeyPrefix))
}

// KeyHint returns a form of the key that is safe to list, e.g.
// "svc_AbCd…wxyz": the prefix, the first four random digits and the last four
// characters (mostly checksum), about 24 bits of the 256 random ones.
func KeyHint(plain string) string {
	if len(plain) < len(KeyPrefix)+12 || plain[:len(KeyPrefix)] != KeyPrefix {
		return KeyPrefix + "…"
	}
	return plain[:len(KeyPrefix)+4] + "…" + plain[len(plain)-4:]
}

func base62Value(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 36
	}
	return -1
}

// encode256 writes the 256-bit big-endian number raw as len(dst) base62
// digits, most significant first.
func encode256(dst []byte, raw *[keyRandLen]byte) {
	var n [4]uint64 // n[0] most significant
	for i := range n {
		for j := range 8 {
			n[i] = n[i]<<8 | uint64(raw[i*8+j])
		}
	}
	for i := len(dst) - 1; i >= 0; i-- {
		var rem uint64
		for j := range n {
			n[j], rem = bits.Div64(rem, n[j], 62)
		}
		dst[i] = base62Chars[rem]
	}
}

func encodeSum(dst []byte, v uint32) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = base62Chars[v%62]
		v /= 62
	}
}
