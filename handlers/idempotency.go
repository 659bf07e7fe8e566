package handlers

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Idempotent creates. A route marked WithIdempotencyKey takes an
// Idempotency-Key request header: the first request under a key runs and
// its answer is kept for idempotencyTTL; a request under the same key and
// with the same method, path and body gets that answer again (with
// Idempotent-Replayed: true) and stores nothing; one with another request
// is 409 CONFLICT, and so is one while the first still runs. Keys are the
// caller's own and live in the store, so every node honours them.
//
// The kept answer may hold a secret (a new API key is shown once), so
// neither it nor the key is stored in the clear: the store holds the
// key's SHA-256 and the answer sealed with AES-256-GCM under a key derived
// (HKDF) from the server's kept secret, the user and the Idempotency-Key,
// which only the client holds.

const (
	idempotencyTTL    = 24 * time.Hour
	idempotencyHeader = "Idempotency-Key"
	maxIdempotencyKey = 255
	minIdempotencyKey = 8
)

var replayedHeader = []byte("Idempotent-Replayed")

// idemKeyProblem checks an Idempotency-Key: 8 to 255 visible ASCII
// characters (a UUID is the usual choice).
func idemKeyProblem(k []byte) string {
	if len(k) < minIdempotencyKey || len(k) > maxIdempotencyKey {
		return "must be " + strconv.Itoa(minIdempotencyKey) + " to " + strconv.Itoa(maxIdempotencyKey) + " characters; send a random UUID"
	}
	for _, ch := range k {
		if ch < 0x21 || ch > 0x7e {
			return "must be visible ASCII characters; send a random UUID"
		}
	}
	return ""
}

// handle runs r's handler, honouring an Idempotency-Key where r takes one.
func (s *Server) handle(c *rest.Ctx, r *rest.Route) {
	k := c.RC.Request.Header.Peek(idempotencyHeader)
	if !r.Idempotent || len(k) == 0 {
		r.Handler(c)
		return
	}
	if msg := idemKeyProblem(k); msg != "" {
		c.Fail(idempotencyHeader, msg)
		return
	}
	key := sha256.Sum256(k)
	id := hex.EncodeToString(key[:])
	user := c.Principal.User
	sum := sha256.New()
	sum.Write(c.RC.Method())
	sum.Write([]byte{0})
	sum.Write(c.RC.Path())
	sum.Write([]byte{0})
	sum.Write(c.RC.Request.Body())
	var hash [32]byte
	sum.Sum(hash[:0])
	prev, err := s.db.BeginIdempotent(user, id, hash, s.now(), idempotencyTTL)
	switch {
	case err != nil:
		c.Storage(err)
		return
	case prev != nil && prev.Hash != hash:
		c.Error(errcode.Conflict, "this Idempotency-Key was used for another request (another path or body) in the last 24 hours; use a new key")
		return
	case prev != nil && !prev.Done:
		c.RC.Response.Header.Set(fasthttp.HeaderRetryAfter, "1")
		c.Error(errcode.Conflict, "a request with this Idempotency-Key is still running; retry in a moment")
		return
	case prev != nil:
		s.replay(c, user, k, prev.Status, prev.Body)
		return
	}
	finished := false
	defer func() {
		if !finished { // a panic: the claim must not hold the key for a day
			if err := s.db.AbandonIdempotent(user, id); err != nil {
				s.log.Error("cannot free an Idempotency-Key", "err", err, "requestId", string(c.RequestID()))
			}
		}
	}()
	r.Handler(c)
	res := &c.RC.Response
	status := res.StatusCode()
	if status >= 500 || status == fasthttp.StatusTooManyRequests {
		return // not an answer to keep: the client retries and it runs again
	}
	sealed, err := s.seal(user, k, res)
	if err == nil {
		err = s.db.FinishIdempotent(user, id, status, sealed)
	}
	if err != nil {
		s.log.Error("cannot keep an idempotent answer", "err", err, "requestId", string(c.RequestID()))
		return
	}
	finished = true
}

// The kept headers of an answer, beside its status and body.
var keptHeaders = [...]string{fasthttp.HeaderContentType, fasthttp.HeaderContentEncoding, fasthttp.HeaderETag, fasthttp.HeaderLocation, fasthttp.HeaderVary}

// seal encodes the answer (kept headers, body) and seals it for user and
// the Idempotency-Key k.
func (s *Server) seal(user string, k []byte, res *fasthttp.Response) ([]byte, error) {
	var plain []byte
	for _, h := range keptHeaders {
		plain = appendChunk(plain, res.Header.Peek(h))
	}
	plain = appendChunk(plain, res.Body())
	aead, err := s.replayAEAD(user, k)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plain, []byte(user)), nil
}

// replay sends a kept answer again.
func (s *Server) replay(c *rest.Ctx, user string, k []byte, status int, sealed []byte) {
	aead, err := s.replayAEAD(user, k)
	if err != nil {
		c.Internal(err)
		return
	}
	n := aead.NonceSize()
	if len(sealed) < n {
		c.Internal(errors.New("cannot open a kept answer: too short"))
		return
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(user))
	if err != nil {
		c.Internal(fmt.Errorf("cannot open a kept answer: %w", err))
		return
	}
	res := &c.RC.Response
	for _, h := range keptHeaders {
		var v []byte
		if v, plain, err = readChunk(plain); err != nil {
			c.Internal(err)
			return
		}
		if len(v) > 0 {
			res.Header.Set(h, string(v))
		}
	}
	body, _, err := readChunk(plain)
	if err != nil {
		c.Internal(err)
		return
	}
	res.Header.SetCanonical(replayedHeader, []byte("true"))
	res.SetStatusCode(status)
	res.SetBody(body)
}

func appendChunk(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func readChunk(b []byte) (chunk, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, errors.New("cannot open a kept answer: malformed")
	}
	return b[w : w+int(n)], b[w+int(n):], nil
}

// replayAEAD is the cipher that seals user's answers under the
// Idempotency-Key k.
func (s *Server) replayAEAD(user string, k []byte) (cipher.AEAD, error) {
	secret, err := s.keptSecret()
	if err != nil {
		return nil, err
	}
	info := bytes.Join([][]byte{[]byte("fiplan idempotent answer"), []byte(user), k}, []byte{0})
	key, err := hkdf.Key(sha256.New, secret, nil, string(info), 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
