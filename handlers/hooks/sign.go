package hooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Webhook requests are signed as the Standard Webhooks specification
// (standardwebhooks.com) says: the secret is "whsec_" and the base64 of
// its key bytes; the signed content is the message id, the timestamp in
// unix seconds and the body, joined by dots; webhook-signature is "v1,"
// and the base64 of the content's HMAC-SHA256 under the key. The message
// id is the event's id, the same on every retry, so a receiver can drop a
// duplicate.

// secretPrefix starts every signing secret.
const secretPrefix = "whsec_"

// NewSecret returns a new signing secret: 32 random bytes.
func NewSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b[:]), nil
}

// Headers are a signed request's Standard Webhooks headers.
type Headers struct {
	ID, Timestamp, Signature string
}

// Sign signs body sent as message id at t with secret.
func Sign(secret, id string, t time.Time, body []byte) (Headers, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(key) == 0 {
		return Headers{}, errors.New("cannot sign: the secret is not whsec_ and base64")
	}
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return Headers{ID: id, Timestamp: ts, Signature: "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))}, nil
}
