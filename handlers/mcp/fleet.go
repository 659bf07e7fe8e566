package mcp

import (
	"strconv"
	"strings"
	"time"

	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp"
)

// Sessions across nodes. A session lives in the memory of the node that
// opened it, under its own id (random bytes and the time of issue). The
// client is given that id bound to its user: the id, a tag of the user and
// a signature over both, made with a key every node sharing the store
// derives alike (Config.SessionKey). So every node, holding the session or
// not, tells one of the fleet's ids from a made-up one (404, as an unknown
// session) and its user from another (403), without asking anyone. A node
// that does not hold a session answers its POSTs statelessly, as a fresh
// session would (the tools carry no session state: every call acts with the
// request's own credentials, which are checked as always), ends it on a
// DELETE, and answers a GET stream 405, as a server without streams does.
// An ended session (Config.EndSession marks it for every node, whichever
// node the DELETE reached) and one older than MaxSessionAge answer 404
// everywhere; the node holding an ended session closes it at its next
// request.

// MaxSessionAge is how long a session's id is served by nodes that do not
// hold the session.
const MaxSessionAge = 24 * time.Hour

const sessionHeader = "Mcp-Session-Id"

// sessionID makes a session's own id: 16 random bytes and the time of
// issue.
func (h *Handler) sessionID() string {
	var r [16]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "" // the SDK makes its own
	}
	return base64.RawURLEncoding.EncodeToString(r[:]) + "." + strconv.FormatInt(h.now().Unix(), 36)
}

func (h *Handler) now() time.Time {
	if h.cfg.Now != nil {
		return h.cfg.Now()
	}
	return time.Now()
}

// issued is the time a session id names.
func issued(id string) (time.Time, bool) {
	parts := strings.Split(id, ".")
	if len(parts) < 2 {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(parts[1], 36, 64)
	return time.Unix(sec, 0), err == nil
}

// key is the fleet's session key, nil without one.
func (h *Handler) key() []byte {
	if h.cfg.SessionKey == nil {
		return nil
	}
	key, err := h.cfg.SessionKey()
	if err != nil || len(key) == 0 {
		return nil
	}
	return key
}

func mac(key []byte, parts ...string) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

// ownerTag names user in a session id without telling who it is.
func ownerTag(key []byte, user string) string {
	return base64.RawURLEncoding.EncodeToString(mac(key, "owner", user)[:12])
}

// bound is the id the client is given for the session id, opened by user:
// the id, the user's tag and their signature; the id itself without a key.
func (h *Handler) bound(id, user string) string {
	key := h.key()
	if key == nil || id == "" || user == "" {
		return id
	}
	b := id + "." + ownerTag(key, user)
	return b + "." + base64.RawURLEncoding.EncodeToString(mac(key, "session", b)[:16])
}

// A client's session id, read.
type clientSession int

const (
	sessionOwn     clientSession = iota // signed, the caller's: id is the session's own
	sessionOther                        // signed, another user's
	sessionUnknown                      // not signed by the fleet, or too old
	sessionLocal                        // not bound (made without a key): only its node knows it
)

// readSession checks a client's session id against the caller and returns
// the session's own id.
func (h *Handler) readSession(raw, user string) (string, clientSession) {
	parts := strings.Split(raw, ".")
	if len(parts) != 4 {
		return raw, sessionLocal
	}
	key := h.key()
	if key == nil {
		return raw, sessionUnknown
	}
	b := raw[:strings.LastIndexByte(raw, '.')]
	want := base64.RawURLEncoding.EncodeToString(mac(key, "session", b)[:16])
	if !hmac.Equal([]byte(want), []byte(parts[3])) {
		return raw, sessionUnknown
	}
	id := parts[0] + "." + parts[1]
	if at, ok := issued(id); !ok || h.now().Sub(at) >= MaxSessionAge {
		return id, sessionUnknown
	}
	if !hmac.Equal([]byte(ownerTag(key, user)), []byte(parts[2])) {
		return id, sessionOther
	}
	return id, sessionOwn
}

// serveSession answers a request that names a session.
func (h *Handler) serveSession(rc *fasthttp.RequestCtx, raw []byte) {
	user := caller(rc)
	if user == "" {
		h.http(rc) // the protocol's 401
		return
	}
	id, kind := h.readSession(string(raw), user)
	switch kind {
	case sessionLocal:
		h.http(rc) // the node that holds it judges it; any other does not know it
		return
	case sessionUnknown:
		refuse(rc, fasthttp.StatusNotFound, "session not found; open a new one")
		return
	case sessionOther:
		refuse(rc, fasthttp.StatusForbidden, "the session belongs to another user")
		return
	}
	held := h.sessions.find(id)
	if h.endedElsewhere(id, held != nil) {
		if held != nil {
			go held.Close() //nolint:errcheck // a session closing has no one to tell
		}
		refuse(rc, fasthttp.StatusNotFound, "session not found; open a new one")
		return
	}
	rc.Request.Header.Set(sessionHeader, id)
	switch {
	case held != nil:
		if rc.IsDelete() {
			h.ended(id) // ended for every node before the answer says so
		}
		h.http(rc)
	case rc.IsDelete():
		h.ended(id)
		rc.SetStatusCode(fasthttp.StatusNoContent)
	case rc.IsPost():
		h.elsewhere(rc)
	default:
		rc.Response.Header.Set(fasthttp.HeaderAllow, "POST, DELETE")
		refuse(rc, fasthttp.StatusMethodNotAllowed, "this node holds no stream of the session; POST its messages")
	}
}

// refuse answers status with msg, as the protocol's handler refuses,
// keeping the headers already set.
func refuse(rc *fasthttp.RequestCtx, status int, msg string) {
	rc.SetStatusCode(status)
	rc.SetContentType("text/plain; charset=utf-8")
	rc.SetBodyString(msg)
}

// endedElsewhere reports whether the session was ended on any node. When
// the marks cannot be read, a session held here is served and one held
// elsewhere is not.
func (h *Handler) endedElsewhere(id string, held bool) bool {
	if h.cfg.SessionEnded == nil {
		return !held
	}
	ended, err := h.cfg.SessionEnded(id)
	if err != nil {
		h.cfg.Logger.Warn("cannot tell whether an MCP session ended", "err", err)
		return !held
	}
	return ended
}

// publish gives the client of a session opened by this request its id
// bound to the user who opened it.
func (h *Handler) publish(rc *fasthttp.RequestCtx) {
	id := rc.Response.Header.Peek(sessionHeader)
	if len(id) == 0 {
		return
	}
	rc.Response.Header.Set(sessionHeader, h.bound(string(id), caller(rc)))
}

// ended marks a session that closed here as ended for every node.
func (h *Handler) ended(id string) {
	if h.cfg.EndSession == nil {
		return
	}
	at, ok := issued(id)
	if !ok {
		return
	}
	if err := h.cfg.EndSession(id, at.Add(MaxSessionAge)); err != nil {
		h.cfg.Logger.Warn("cannot mark an MCP session ended for the other nodes", "err", err)
	}
}

// statelessHandler serves the requests of sessions held elsewhere.
func (h *Handler) statelessHandler(cfg Config) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return h.server }, &sdk.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: !cfg.Stream,
		Logger:       cfg.Logger,
	})
}

// caller is the user whose credential admit verified, or "".
func caller(rc *fasthttp.RequestCtx) string {
	if v, ok := rc.UserValue(verified{}).(verdict); ok && v.err == nil {
		return v.p.User
	}
	return ""
}
