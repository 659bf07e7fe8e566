// Package auth turns credentials into a [Principal]: session JWTs (HS256 with
// a shared secret; RS256, ES256 and EdDSA with keys from a JWKS file or https
// URL) and service API keys (svc_...). It knows nothing about HTTP frameworks:
// the middleware hands it raw header bytes and maps the errors to responses.
//
// # Errors
//
// [Verifier.Verify] returns [ErrExpired] (401 TOKEN_EXPIRED) only for a token
// whose signature verified and whose only fault is its age. Everything else
// (malformed, alg none, unknown or wrong algorithm, bad signature, wrong
// iss/aud, missing sub/exp, nbf or iat in the future, and an expired token
// that also has any other fault) wraps [ErrInvalid] (401 UNAUTHORIZED). The
// wrapped reason is for logs only; never send it to the client.
//
// # Algorithms and keys
//
// Accepted algorithms form an allow-list: HS256 when Config.Secret is set,
// RS256/ES256/EdDSA when Config.JWKS is set. HS256 is always verified with the
// configured secret and never with a JWKS key, and the asymmetric algorithms
// only with typed keys (*rsa.PublicKey of at least 2048 bits, *ecdsa.PublicKey
// on P-256, ed25519.PublicKey) whose type matches the alg, so alg confusion
// (e.g. HS256 keyed with the RSA public key) cannot verify. Header parameters
// that point at keys (jku, x5u, jwk) are ignored; a crit header is refused.
//
// A JWKS file is read once, at NewVerifier. A JWKS URL (https only; redirects
// off https refused; 5 s default timeout; documents over 1 MiB refused) is
// re-read every Config.Refresh, and at most once per 30 s when a token names
// an unknown kid; a failed read keeps the previous key set and logs a warning.
// With Config.Discovery (an OpenID issuer) and no JWKS, the key set is the
// jwks_uri of the issuer's discovery document, read once at NewVerifier; the
// document must name the same issuer. Plain http is accepted there only when
// the issuer is on a loopback host (a provider run for local development).
//
// # Time
//
// Leeway: 30 s, applied only where the issuer's clock running ahead of ours
// would otherwise reject a fresh token: nbf and a future iat (iat more than
// 30 s ahead is ErrInvalid). Expiry has no leeway: a session principal is
// valid while now < Principal.Expires, where Expires = min(exp, iat+3600)
// in unix seconds. Both the full path and the cache use this one rule. A
// token without iat has no issue time to count the hour from, so its exp may
// be at most SessionTTL plus Leeway ahead when it is verified; a longer one
// is [ErrLifetime] (an ErrInvalid, 401 UNAUTHORIZED).
//
// # Cache
//
// Verified tokens are cached (ristretto, Config.CacheSize entries) and looked
// up through an unsafe string view of the caller's bytes, so a hit allocates
// nothing. That is safe because ristretto never keeps a key: Get only feeds
// it to KeyToHash, which returns two 64-bit hashes, and only those hashes are
// stored; the view does not outlive the call, so the caller may reuse the
// buffer afterwards (fasthttp does). The two hashes are hash/maphash with
// independent per-process random seeds, so an attacker cannot craft a token
// whose 128-bit hash collides with someone else's cached token. A hit is
// honoured only while now < Expires (checked against Config.Now on every hit,
// whatever ristretto's own TTL says) and only if the JWKS key set has not
// changed since the entry was stored. Only successes are cached.
package auth
