package auth

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"fiplan/handlers/bytesconv"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/golang-jwt/jwt/v5"
)

const (
	// Leeway is the clock skew tolerated for nbf and a future iat. Expiry
	// (exp and iat+SessionTTL) has none; see the package doc.
	Leeway = 30 * time.Second
	// SessionTTL is the longest a session token lives after its iat.
	SessionTTL = time.Hour

	defaultTimeout = 5 * time.Second
	defaultRefresh = 15 * time.Minute
	refetchEvery   = 30 * time.Second
	maxSub         = 128
)

// Config configures a Verifier. At least one of Secret and JWKS is required.
type Config struct {
	Secret    []byte           // HS256 shared secret (nil or empty: HS256 refused)
	JWKS      string           // file path or https:// URL ("" : asymmetric algorithms refused); http:// is refused
	Discovery string           // OpenID issuer whose discovery document's jwks_uri serves as JWKS when JWKS is empty; http only to a loopback host
	Issuer    string           // when set, iss must equal it
	Audience  string           // when set, aud must contain it
	Client    *http.Client     // for JWKS URLs; default has a 5 s timeout. Redirects off https are refused.
	CacheSize int              // max cached verified tokens; 0 disables the cache
	Refresh   time.Duration    // JWKS URL refresh period (default 15m)
	Now       func() time.Time // default time.Now
	Logger    *slog.Logger     // optional, for refresh failures
}

// Verifier checks session tokens. It is safe for concurrent use.
type Verifier struct {
	secret  []byte
	src     *jwksSource
	keys    atomic.Pointer[keySet]
	parser  *jwt.Parser
	keyfunc jwt.Keyfunc
	cache   *ristretto.Cache[string, cached]
	// hits and misses count the cached verifications and the full ones.
	hits, misses atomic.Uint64
	now          func() time.Time
	log          *slog.Logger

	fetchMu   sync.Mutex // serialises fetches; guards lastFetch
	lastFetch time.Time

	ctx       context.Context
	cancel    context.CancelFunc
	done      chan struct{}
	closeOnce sync.Once
}

// cached is a cache entry: the principal and the key-set generation it was
// verified against (0 when no JWKS is configured).
type cached struct {
	p   Principal
	gen uint64
}

// NewVerifier builds a Verifier and loads the JWKS, if any, now. For an https
// JWKS it starts a goroutine that refreshes the key set every Config.Refresh;
// call Close to stop it.
func NewVerifier(cfg Config) (*Verifier, error) {
	if len(cfg.Secret) == 0 && cfg.JWKS == "" && cfg.Discovery == "" {
		return nil, errors.New("cannot verify tokens: neither a JWT secret nor a JWKS is configured")
	}
	v := &Verifier{now: cfg.Now, log: cfg.Logger}
	if v.now == nil {
		v.now = time.Now
	}
	if v.log == nil {
		v.log = slog.New(slog.DiscardHandler)
	}
	var methods []string
	if len(cfg.Secret) > 0 {
		v.secret = append([]byte(nil), cfg.Secret...)
		methods = append(methods, algHS256)
		if len(cfg.Secret) < 32 {
			v.log.Warn("JWT secret is shorter than 32 bytes; use a longer random secret", "bytes", len(cfg.Secret))
		}
	}
	v.ctx, v.cancel = context.WithCancel(context.Background())
	if err := v.loadJWKS(cfg); err != nil {
		v.cancel()
		return nil, err
	}
	if v.src != nil {
		methods = append(methods, algRS256, algES256, algEdDSA)
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(methods),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(Leeway),
		jwt.WithTimeFunc(v.now),
		jwt.WithStrictDecoding(),
	}
	if cfg.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.Issuer))
	}
	if cfg.Audience != "" {
		opts = append(opts, jwt.WithAudience(cfg.Audience))
	}
	v.parser = jwt.NewParser(opts...)
	v.keyfunc = v.lookupKey

	if cfg.CacheSize > 0 {
		c, err := newTokenCache(cfg.CacheSize)
		if err != nil {
			v.cancel()
			return nil, err
		}
		v.cache = c
	}

	v.done = make(chan struct{})
	if v.src != nil && v.src.url {
		every := cfg.Refresh
		if every <= 0 {
			every = defaultRefresh
		}
		go v.refreshLoop(every)
	} else {
		close(v.done)
	}
	return v, nil
}

// loadJWKS finds the configured JWKS (directly, or through the issuer's
// discovery document), reads it and stores its keys; v.src stays nil when
// no JWKS is configured.
func (v *Verifier) loadJWKS(cfg Config) error {
	jwks, loopback := cfg.JWKS, false
	if jwks == "" && cfg.Discovery != "" {
		u, err := discover(v.ctx, cfg.Discovery, cfg.Client)
		if err != nil {
			return fmt.Errorf("cannot discover the JWKS of issuer %q: %w", redact(cfg.Discovery), err)
		}
		jwks, loopback = u, isLoopback(cfg.Discovery)
	}
	if jwks == "" {
		return nil
	}
	src, err := newSource(jwks, cfg.Client, loopback)
	if err != nil {
		return fmt.Errorf("cannot read JWKS %q: %w", redact(jwks), err)
	}
	v.src = src
	data, err := src.load(v.ctx)
	if err != nil {
		return fmt.Errorf("cannot read JWKS %q: %w", src.show, err)
	}
	ks, err := parseJWKS(data)
	if err != nil {
		return fmt.Errorf("cannot parse JWKS %q: %w", src.show, err)
	}
	ks.gen = 1
	v.keys.Store(ks)
	v.lastFetch = v.now()
	return nil
}

// newTokenCache is the cache of verified tokens, holding up to size.
func newTokenCache(size int) (*ristretto.Cache[string, cached], error) {
	s1, s2 := maphash.MakeSeed(), maphash.MakeSeed()
	c, err := ristretto.NewCache(&ristretto.Config[string, cached]{
		NumCounters:        int64(size) * 10,
		MaxCost:            int64(size),
		BufferItems:        64,
		IgnoreInternalCost: true,
		KeyToHash: func(k string) (uint64, uint64) {
			return maphash.String(s1, k), maphash.String(s2, k)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("cannot create token cache: %w", err)
	}
	return c, nil
}

// Close stops the JWKS refresh goroutine and releases the cache. Verify keeps
// working (uncached, with the last key set) after Close.
func (v *Verifier) Close() {
	v.closeOnce.Do(func() {
		v.cancel()
		<-v.done
		if v.cache != nil {
			v.cache.Close()
		}
	})
}

var (
	errEmpty   = fmt.Errorf("%w: empty token", ErrInvalid)
	errTooLong = fmt.Errorf("%w: token longer than %d bytes", ErrInvalid, MaxHeader)
	errSub     = errors.New("sub must be 1..128 bytes of printable UTF-8")
	errCrit    = errors.New("crit header parameters are not supported")
	errKidForm = errors.New("kid header is not a string")
)

// Verify checks a session token (the bytes after "Bearer ", or the cookie
// value) and returns its principal with Via = ViaToken; the caller sets
// ViaCookie when it came from the cookie. Verify does not retain token.
// Errors: ErrExpired, or an error wrapping ErrInvalid.
func (v *Verifier) Verify(token []byte) (Principal, error) {
	if len(token) == 0 {
		return Principal{}, errEmpty
	}
	if len(token) > MaxHeader {
		return Principal{}, errTooLong
	}
	now := v.now()
	if v.cache != nil {
		// The view never outlives this call: ristretto hashes it and keeps
		// only the hashes (see the package doc).
		key := bytesconv.String(token)
		if e, ok := v.cache.Get(key); ok && now.Unix() < e.p.Expires && e.gen == v.gen() {
			v.hits.Add(1)
			return e.p, nil
		}
		v.misses.Add(1)
	}
	return v.verify(string(token), now)
}

// CacheStats reports how many verifications the token cache answered and
// how many it did not (both 0 without a cache).
func (v *Verifier) CacheStats() (hits, misses uint64) {
	return v.hits.Load(), v.misses.Load()
}

func (v *Verifier) gen() uint64 {
	if ks := v.keys.Load(); ks != nil {
		return ks.gen
	}
	return 0
}

// tokenClaims is what we read from a session token. tier and role are any so
// that a value of an unexpected type degrades to least privilege instead of
// failing the whole token.
type tokenClaims struct {
	jwt.RegisteredClaims
	Tier any `json:"tier,omitempty"`
	Role any `json:"role,omitempty"`
	Sid  any `json:"sid,omitempty"`
}

// Validate is called by the jwt validator after the signature has verified.
func (c *tokenClaims) Validate() error {
	if !validSub(c.Subject) {
		return errSub
	}
	return nil
}

func validSub(s string) bool {
	if len(s) == 0 || len(s) > maxSub || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func (v *Verifier) verify(token string, now time.Time) (Principal, error) {
	gen := v.gen() // before parsing: an entry is never newer than its keys
	var c tokenClaims
	parsed, err := v.parser.ParseWithClaims(token, &c, v.keyfunc)
	if err != nil {
		if onlyExpired(err) {
			return Principal{}, ErrExpired
		}
		return Principal{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if c.ExpiresAt == nil { // WithExpirationRequired makes this unreachable
		return Principal{}, fmt.Errorf("%w: exp missing", ErrInvalid)
	}
	expires := c.ExpiresAt.Unix()
	if c.IssuedAt != nil {
		if lim := c.IssuedAt.Unix() + int64(SessionTTL/time.Second); lim < expires {
			expires = lim
		}
	} else if expires > now.Add(SessionTTL+Leeway).Unix() {
		return Principal{}, ErrLifetime
	}
	if now.Unix() >= expires {
		return Principal{}, ErrExpired
	}
	p := Principal{User: c.Subject, Via: ViaToken, Expires: expires, Issued: c.ExpiresAt.Unix() - int64(SessionTTL/time.Second)}
	if c.IssuedAt != nil {
		p.Issued = c.IssuedAt.Unix()
	}
	p.Session = sessionOf(parsed, &c, token)
	if s, ok := c.Tier.(string); ok && s == "pro" {
		p.Tier = TierPro
	}
	if s, ok := c.Role.(string); ok && s == "admin" {
		p.Admin = true
	}
	if v.cache != nil {
		ttl := time.Unix(expires, 0).Sub(now)
		if ttl > SessionTTL {
			ttl = SessionTTL
		}
		if ttl > 0 {
			v.cache.SetWithTTL(token, cached{p: p, gen: gen}, 1, ttl)
		}
	}
	return p, nil
}

// onlyExpired reports whether err comes from claims validation (which the jwt
// parser runs only after the signature verified) and every failure in it is
// exp having passed. Anything else, alone or alongside, is ErrInvalid.
func onlyExpired(err error) bool {
	if !errors.Is(err, jwt.ErrTokenInvalidClaims) {
		return false
	}
	expired := false
	ok := everyLeaf(err, func(e error) bool {
		switch e {
		case jwt.ErrTokenExpired:
			expired = true
			return true
		case jwt.ErrTokenInvalidClaims:
			return true
		}
		return false
	})
	return ok && expired
}

// everyLeaf applies f to every error in err's tree that wraps nothing.
func everyLeaf(err error, f func(error) bool) bool {
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if !everyLeaf(e, f) {
				return false
			}
		}
		return true
	case interface{ Unwrap() error }:
		if inner := u.Unwrap(); inner != nil {
			return everyLeaf(inner, f)
		}
	}
	return f(err)
}

// lookupKey is the jwt.Keyfunc. The parser has already checked the alg
// against the allow-list.
func (v *Verifier) lookupKey(t *jwt.Token) (any, error) {
	if _, ok := t.Header["crit"]; ok {
		return nil, errCrit
	}
	alg := t.Method.Alg()
	if alg == algHS256 {
		if len(v.secret) == 0 {
			return nil, errors.New("HS256 is not configured")
		}
		return v.secret, nil
	}
	switch alg {
	case algRS256, algES256, algEdDSA: // the parser's allow-list, again
	default:
		return nil, fmt.Errorf("algorithm %q is not accepted", alg)
	}
	ks := v.keys.Load()
	if ks == nil {
		return nil, fmt.Errorf("%s is not configured", alg)
	}
	var kid string
	raw, hasKid := t.Header["kid"]
	if hasKid {
		s, ok := raw.(string)
		if !ok {
			return nil, errKidForm
		}
		kid = s
		hasKid = s != ""
	}
	key, err := ks.find(alg, kid, hasKid)
	if errors.Is(err, errUnknownKid) && v.src.url {
		if fresh := v.refetch(ks); fresh != nil {
			return fresh.find(alg, kid, hasKid)
		}
	}
	return key, err
}

// refetch reloads the key set for an unknown kid, at most once per 30 s
// (whatever the number of callers), and returns the new set or nil.
func (v *Verifier) refetch(seen *keySet) *keySet {
	v.fetchMu.Lock()
	defer v.fetchMu.Unlock()
	if cur := v.keys.Load(); cur != seen {
		return cur // someone else fetched while we waited
	}
	now := v.now()
	if now.Sub(v.lastFetch) < refetchEvery {
		return nil
	}
	v.fetchLocked(now, "unknown kid")
	return v.keys.Load()
}

func (v *Verifier) refreshLoop(every time.Duration) {
	defer close(v.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-v.ctx.Done():
			return
		case <-t.C:
			v.fetchMu.Lock()
			v.fetchLocked(v.now(), "periodic")
			v.fetchMu.Unlock()
		}
	}
}

// fetchLocked loads and installs a key set; on failure the old set stays.
// fetchMu must be held.
func (v *Verifier) fetchLocked(now time.Time, why string) {
	v.lastFetch = now
	data, err := v.src.load(v.ctx)
	if err == nil {
		var ks *keySet
		if ks, err = parseJWKS(data); err == nil {
			old := v.keys.Load()
			if ks.sum != old.sum {
				ks.gen = old.gen + 1
				v.keys.Store(ks)
				v.log.Info("JWKS key set changed", "source", v.src.show, "keys", len(ks.keys), "reason", why)
			}
			return
		}
		err = fmt.Errorf("cannot parse JWKS %q: %w", v.src.show, err)
	} else {
		err = fmt.Errorf("cannot read JWKS %q: %w", v.src.show, err)
	}
	if v.ctx.Err() == nil {
		v.log.Warn("JWKS refresh failed; keeping the previous key set", "reason", why, "err", err)
	}
}

func redact(loc string) string {
	if u, err := url.Parse(loc); err == nil && u.User != nil {
		return u.Redacted()
	}
	return loc
}
