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

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Idempotent creates. A route marked WithIdempotencyKey takes an
// Idempotency-Key request header: the first request under a key runs and
// its answer is kept for idempotencyTTL; a request under the same key and
// with the same method, path and body gets that answer again (with
// Idempotent-Replayed: true) and stores nothing; one with another request
// is 409 CONFLICT. Keys are the caller's own and live in the store, so
// every node honours them.
//
// The answer is kept by the create itself, in the store's transaction that
// writes the record (rest.Ctx.Keep), so a crash at any point leaves either
// the record and its answer (the retry replays it) or neither (the retry
// runs). Nothing is claimed before the work: two requests under one key
// that run at once both do their work, the store lets exactly one write,
// and the other answers as a retry would, with the winner's answer (or 409
// when its request was another). An answer that stored nothing (a refusal,
// a 5xx, a 429) is not kept, and its retry runs again.
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

// handle runs r's handler, honouring an Idempotency-Key where r takes one:
// a key already used answers from the store at once; otherwise the
// handler runs with a keeper (idemRequest) that its create asks for the
// answer to keep.
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
	q := &idemRequest{s: s, user: c.Principal.User, id: hex.EncodeToString(key[:]), key: string(k), at: s.now()}
	sum := sha256.New()
	sum.Write(c.RC.Method())
	sum.Write([]byte{0})
	sum.Write(c.RC.Path())
	sum.Write([]byte{0})
	sum.Write(c.RC.Request.Body())
	sum.Sum(q.hash[:0])
	prev, err := s.db.Idempotent(q.user, q.id, q.at, idempotencyTTL)
	switch {
	case err != nil:
		c.Storage(err)
	case prev != nil:
		q.Replay(c, &store.KeyUsed{Prev: prev})
	default:
		c.SetKeeper(q)
		r.Handler(c)
		if st := c.Status(); st >= 200 && st < 300 && !q.kept {
			s.log.Error("a create under an Idempotency-Key kept no answer", "route", r.Path, "requestId", string(c.RequestID()))
		}
	}
}

// idemRequest is one request's Idempotency-Key: the rest.Keeper its
// create asks for the answer to keep.
type idemRequest struct {
	s    *Server
	user string
	id   string   // the key's SHA-256, hex: the store's name for it
	key  string   // the key itself, which the sealing key derives from
	hash [32]byte // method, path and body
	at   time.Time
	kept bool // Keep was asked
}

// Keep seals the answer; see rest.Keeper.
func (q *idemRequest) Keep(c *rest.Ctx, status int, data []byte, tagged bool) (*store.Keep, error) {
	var tag []byte
	if tagged {
		tag = rest.Tag(nil, data)
	}
	body := make([]byte, 0, len(data)+32)
	body = append(append(append(body, `{"success":true,"data":`...), data...), '}')
	sealed, err := q.s.seal(q.user, []byte(q.key), tag, body)
	if err != nil {
		return nil, err
	}
	q.kept = true
	return &store.Keep{User: q.user, Key: q.id, Hash: q.hash, At: q.at, TTL: idempotencyTTL, Status: status, Body: sealed}, nil
}

// Replay answers a used key; see rest.Keeper.
func (q *idemRequest) Replay(c *rest.Ctx, used *store.KeyUsed) {
	prev := used.Prev
	switch {
	case prev.Hash != q.hash:
		c.Error(errcode.Conflict, "this Idempotency-Key was used for another request (another path or body) in the last 24 hours; use a new key")
	case !prev.Done:
		// A claim made before its work, by a release that did so.
		c.RC.Response.Header.Set(fasthttp.HeaderRetryAfter, "1")
		c.Error(errcode.Conflict, "a request with this Idempotency-Key is still running; retry in a moment")
	default:
		q.s.replay(c, q.user, []byte(q.key), prev.Status, prev.Body)
	}
}

// The kept headers of an answer, beside its status and body, in the order
// they are sealed. Answers kept now carry the ETag alone (and are sent
// through the usual compression on replay); the others are read from
// answers a release that kept whole responses sealed.
var keptHeaders = [...]string{fasthttp.HeaderContentType, fasthttp.HeaderContentEncoding, fasthttp.HeaderETag, fasthttp.HeaderLocation, fasthttp.HeaderVary}

// seal encodes an answer (its ETag, when tag is not empty, and its
// body, a JSON envelope) and seals it for user and the Idempotency-Key k.
func (s *Server) seal(user string, k, tag, body []byte) ([]byte, error) {
	var plain []byte
	for _, h := range keptHeaders {
		var v []byte
		if h == fasthttp.HeaderETag {
			v = tag
		}
		plain = appendChunk(plain, v)
	}
	plain = appendChunk(plain, body)
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

// replay sends a kept answer again: a JSON answer through the usual
// compression, one kept already encoded as it was.
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
	var headers [len(keptHeaders)][]byte
	for i := range keptHeaders {
		if headers[i], plain, err = readChunk(plain); err != nil {
			c.Internal(err)
			return
		}
	}
	body, _, err := readChunk(plain)
	if err != nil {
		c.Internal(err)
		return
	}
	res := &c.RC.Response
	res.Header.SetCanonical(replayedHeader, []byte("true"))
	if len(headers[1]) == 0 { // not encoded: JSON, sent as any answer is
		if len(headers[2]) > 0 {
			c.SetETag(headers[2])
		}
		c.SendBody(status, body)
		return
	}
	for i, h := range keptHeaders {
		if len(headers[i]) > 0 {
			res.Header.Set(h, string(headers[i]))
		}
	}
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
