package auth

// MaxHeader is the longest Authorization header value BearerToken accepts.
const MaxHeader = 4096

// BearerToken returns the credentials of an Authorization header value of the
// form "Bearer <token>": the scheme is matched case-insensitively and must be
// followed by one or more spaces; trailing spaces and tabs are ignored. The
// token must be non-empty visible ASCII without spaces (RFC 6750 b64token is
// a subset). A bare token, another scheme, an empty token or a header longer
// than MaxHeader yields false. The result aliases header; it never allocates.
func BearerToken(header []byte) ([]byte, bool) {
	if len(header) > MaxHeader || len(header) < len("Bearer ")+1 {
		return nil, false
	}
	const scheme = "bearer"
	for i := range len(scheme) {
		if header[i]|0x20 != scheme[i] {
			return nil, false
		}
	}
	rest := header[len(scheme):]
	if rest[0] != ' ' {
		return nil, false
	}
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	for len(rest) > 0 && (rest[len(rest)-1] == ' ' || rest[len(rest)-1] == '\t') {
		rest = rest[:len(rest)-1]
	}
	if len(rest) == 0 {
		return nil, false
	}
	for _, c := range rest {
		if c <= ' ' || c >= 0x7f {
			return nil, false
		}
	}
	return rest, true
}
