package auth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
)

const (
	maxJWKS     = 1 << 20 // bytes
	maxJWKSKeys = 100
	minRSABits  = 2048
	maxRSABits  = 16384
	algRS256    = "RS256"
	algES256    = "ES256"
	algEdDSA    = "EdDSA"
	algHS256    = "HS256"
)

var errTooLarge = errors.New("response larger than 1 MiB")

// pubKey is one usable verification key from a JWKS.
type pubKey struct {
	kid  string
	kind string // the algorithm the key type implies: RS256, ES256 or EdDSA
	alg  string // the JWK's own alg, "" when absent
	key  any    // *rsa.PublicKey, *ecdsa.PublicKey or ed25519.PublicKey
}

type kidKind struct{ kid, kind string }

// keySet is immutable once built.
type keySet struct {
	keys   []pubKey
	byKid  map[kidKind]int
	kids   map[string]bool
	perAlg map[string]int // number of keys of each kind
	sum    [32]byte       // fingerprint of the accepted key material
	gen    uint64         // bumped whenever the material changes
}

var (
	errUnknownKid = errors.New("no key with this kid")
	errKidType    = errors.New("key with this kid has another type")
	errKidAlg     = errors.New("key alg does not match the token's")
	errNoKid      = errors.New("token has no kid and the key set does not hold exactly one key of its type")
)

// find returns the key for a token of algorithm alg with the given kid.
func (s *keySet) find(alg, kid string, hasKid bool) (any, error) {
	if !hasKid {
		if s.perAlg[alg] != 1 {
			return nil, errNoKid
		}
		for i := range s.keys {
			if k := &s.keys[i]; k.kind == alg {
				if k.alg != "" && k.alg != alg {
					return nil, errKidAlg
				}
				return k.key, nil
			}
		}
		return nil, errNoKid
	}
	i, ok := s.byKid[kidKind{kid, alg}]
	if !ok {
		if s.kids[kid] {
			return nil, errKidType
		}
		return nil, errUnknownKid
	}
	k := &s.keys[i]
	if k.alg != "" && k.alg != alg {
		return nil, errKidAlg
	}
	return k.key, nil
}

// jwk holds the members we read; everything else is ignored.
type jwk struct {
	Kty    string   `json:"kty"`
	Kid    string   `json:"kid"`
	Use    string   `json:"use"`
	Alg    string   `json:"alg"`
	KeyOps []string `json:"key_ops"`
	Crv    string   `json:"crv"`
	N      string   `json:"n"`
	E      string   `json:"e"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
	D      string   `json:"d"`
}

// parseJWKS parses an RFC 7517 key set. Keys that are not for signatures
// (use other than "sig", key_ops without "verify"), of another type, curve or
// alg, and RSA keys under 2048 bits are skipped. A malformed key of a
// supported type, private key material, two keys of one type sharing a kid,
// more than 100 usable keys or none at all fail the whole document.
func parseJWKS(data []byte) (*keySet, error) {
	var doc struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	s := &keySet{
		byKid:  make(map[kidKind]int),
		kids:   make(map[string]bool),
		perAlg: make(map[string]int),
	}
	h := sha256.New()
	for i, j := range doc.Keys {
		k, err := parseJWK(&j)
		if err != nil {
			return nil, fmt.Errorf("key %d (kid %q): %w", i, j.Kid, err)
		}
		if k == nil {
			continue
		}
		if len(s.keys) == maxJWKSKeys {
			return nil, fmt.Errorf("more than %d usable keys", maxJWKSKeys)
		}
		if k.kid != "" { // keys without kid serve only tokens without kid
			kk := kidKind{k.kid, k.kind}
			if _, dup := s.byKid[kk]; dup {
				return nil, fmt.Errorf("key %d: duplicate kid %q for %s", i, k.kid, k.kind)
			}
			s.byKid[kk] = len(s.keys)
			s.kids[k.kid] = true
		}
		s.perAlg[k.kind]++
		s.keys = append(s.keys, *k)
		fmt.Fprintf(h, "%q %q %q %q %q %q %q|", k.kid, k.kind, k.alg, j.N, j.E, j.X, j.Y)
	}
	if len(s.keys) == 0 {
		return nil, errors.New("no usable signature keys (RS256 >= 2048 bits, ES256 P-256, EdDSA Ed25519)")
	}
	h.Sum(s.sum[:0])
	return s, nil
}

func parseJWK(j *jwk) (*pubKey, error) {
	if j.Use != "" && j.Use != "sig" {
		return nil, nil
	}
	if j.KeyOps != nil && !containsString(j.KeyOps, "verify") {
		return nil, nil
	}
	if j.D != "" {
		return nil, errors.New("private key material in a public key set")
	}
	k := &pubKey{kid: j.Kid, alg: j.Alg}
	var err error
	switch j.Kty {
	case "RSA":
		k.key, err = rsaJWK(j)
		k.kind = algRS256
	case "EC":
		k.key, err = ecJWK(j)
		k.kind = algES256
	case "OKP":
		k.key, err = edJWK(j)
		k.kind = algEdDSA
	}
	if err != nil || k.key == nil {
		return nil, err
	}
	return k, nil
}

// rsaJWK is the RS256 key of an RSA JWK, nil (and no error) for a key of
// another algorithm or too weak to trust.
func rsaJWK(j *jwk) (any, error) {
	if j.Alg != "" && j.Alg != algRS256 {
		return nil, nil // e.g. PS256 or RSA-OAEP: not ours
	}
	n, err := b64(j.N, "n")
	if err != nil {
		return nil, err
	}
	e, err := b64(j.E, "e")
	if err != nil {
		return nil, err
	}
	if len(n) == 0 || n[0] == 0 {
		return nil, errors.New("n has leading zeros or is empty")
	}
	if len(e) == 0 || len(e) > 4 || e[0] == 0 {
		return nil, errors.New("e is not a minimal integer of at most 32 bits")
	}
	var ev int64
	for _, c := range e {
		ev = ev<<8 | int64(c)
	}
	if ev < 3 || ev&1 == 0 || ev > 1<<31-1 {
		return nil, fmt.Errorf("e %d is not an odd integer in [3, 2^31)", ev)
	}
	bitLen := new(big.Int).SetBytes(n).BitLen()
	if bitLen > maxRSABits {
		return nil, fmt.Errorf("RSA key of %d bits is too large", bitLen)
	}
	if bitLen < minRSABits {
		return nil, nil // too weak to trust: never verifies anything
	}
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(ev)}, nil
}

// ecJWK is the ES256 key of an EC JWK, nil (and no error) for a key on
// another curve or of another algorithm.
func ecJWK(j *jwk) (any, error) {
	if j.Crv != "P-256" || (j.Alg != "" && j.Alg != algES256) {
		return nil, nil
	}
	x, err := b64(j.X, "x")
	if err != nil {
		return nil, err
	}
	y, err := b64(j.Y, "y")
	if err != nil {
		return nil, err
	}
	if len(x) != 32 || len(y) != 32 {
		return nil, errors.New("P-256 coordinates must be 32 bytes each")
	}
	pt := make([]byte, 0, 65)
	pt = append(append(append(pt, 4), x...), y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pt)
	if err != nil {
		return nil, fmt.Errorf("invalid P-256 point: %w", err)
	}
	return pub, nil
}

// edJWK is the EdDSA key of an OKP JWK, nil (and no error) for a key on
// another curve or of another algorithm.
func edJWK(j *jwk) (any, error) {
	if j.Crv != "Ed25519" || (j.Alg != "" && j.Alg != algEdDSA) {
		return nil, nil
	}
	x, err := b64(j.X, "x")
	if err != nil {
		return nil, err
	}
	if len(x) != ed25519.PublicKeySize {
		return nil, errors.New("Ed25519 x must be 32 bytes")
	}
	return ed25519.PublicKey(x), nil
}

func b64(s, name string) ([]byte, error) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("member %s is not unpadded base64url: %w", name, err)
	}
	return b, nil
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// jwksSource is where key sets come from: a file or an https URL (or, for
// an identity provider on this machine, a loopback http URL).
type jwksSource struct {
	loc    string // as configured, for errors
	show   string // loc with any password redacted
	url    bool
	client *http.Client
}

func newSource(loc string, client *http.Client, loopbackHTTP bool) (*jwksSource, error) {
	s := &jwksSource{loc: loc, show: loc}
	lower := strings.ToLower(loc)
	plain := loopbackHTTP && strings.HasPrefix(lower, "http://") && isLoopback(loc)
	switch {
	case strings.HasPrefix(lower, "https://") || plain:
		u, err := url.Parse(loc)
		if err != nil {
			return nil, err
		}
		if u.Host == "" {
			return nil, errors.New("URL has no host")
		}
		s.show = u.Redacted()
		s.url = true
		var c http.Client
		if client != nil {
			c = *client // shallow copy: we add a redirect policy without touching the caller's client
		}
		if c.Timeout <= 0 {
			c.Timeout = defaultTimeout
		}
		next := c.CheckRedirect
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" && !(plain && isLoopback(req.URL.String())) {
				return errors.New("redirect away from https refused")
			}
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			if next != nil {
				return next(req, via)
			}
			return nil
		}
		s.client = &c
	case strings.HasPrefix(lower, "http://"):
		return nil, errors.New("plain http is refused: use https or a file")
	case strings.Contains(loc, "://"):
		return nil, errors.New("unsupported URL scheme: use https or a file path")
	}
	return s, nil
}

// isLoopback reports whether the URL's host is localhost or a loopback
// address: plain http to such a host never leaves the machine.
func isLoopback(loc string) bool {
	u, err := url.Parse(loc)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// discover reads an OpenID provider's discovery document and returns its
// jwks_uri. The document's issuer must equal the one asked for.
func discover(ctx context.Context, issuer string, client *http.Client) (string, error) {
	doc := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	src, err := newSource(doc, client, isLoopback(issuer))
	if err != nil {
		return "", err
	}
	if !src.url {
		return "", errors.New("the issuer must be an https URL")
	}
	data, err := src.load(ctx)
	if err != nil {
		return "", err
	}
	var meta struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return "", fmt.Errorf("cannot parse discovery document: %w", err)
	}
	if meta.Issuer != issuer {
		return "", fmt.Errorf("discovery document names issuer %q, not %q", meta.Issuer, issuer)
	}
	if meta.JWKSURI == "" {
		return "", errors.New("discovery document has no jwks_uri")
	}
	return meta.JWKSURI, nil
}

// load reads at most 1 MiB from the source; a larger document is an error.
func (s *jwksSource) load(ctx context.Context) ([]byte, error) {
	if !s.url {
		f, err := os.Open(s.loc)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readCapped(f)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.loc, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("HTTP status %s", resp.Status)
	}
	if resp.ContentLength > maxJWKS { // early exit only; readCapped is the real limit
		return nil, errTooLarge
	}
	return readCapped(resp.Body)
}

func readCapped(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, maxJWKS+1))
	if err != nil {
		return nil, err
	}
	if n > maxJWKS {
		return nil, errTooLarge
	}
	return buf.Bytes(), nil
}
