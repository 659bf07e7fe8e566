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
// opened it. Its id is signed with a key every node sharing the store
// derives alike (Config.SessionKey), so that a node that does not hold a
// session can still tell one of the fleet's from a made-up id: it answers
// that session's POSTs statelessly, as a fresh session would (the tools
// carry no session state: every call acts with the request's own
// credentials, which are checked as always). A GET stream or a DELETE of a
// session held elsewhere answers 405, as a server without streams does.
// An id this fleet never issued, one older than MaxSessionAge, and one of
// a session that ended on its node (Config.EndSession marks it for every
// node) answer 404, as an unknown session does; its client opens another.
//
// A session's id carries no authority: every request is judged by its own
// credentials, on every node.

// MaxSessionAge is how long a session's id is served by nodes that do not
// hold the session.
const MaxSessionAge = 24 * time.Hour

const sessionHeader = "Mcp-Session-Id"

// sessionID makes a new session id: 16 random bytes and the time of
// issue and, when the fleet's key is at hand, their signature.
func (h *Handler) sessionID() string {
	var r [16]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "" // the SDK makes its own
	}
	id := base64.RawURLEncoding.EncodeToString(r[:]) + "." + strconv.FormatInt(h.now().Unix(), 36)
	if sig := h.sign(id); sig != "" {
		id += "." + sig
	}
	return id
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
	if len(parts) != 3 {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(parts[1], 36, 64)
	return time.Unix(sec, 0), err == nil
}

// sign is the signature of a session id's random part, or "" without a
// key.
func (h *Handler) sign(random string) string {
	if h.cfg.SessionKey == nil {
		return ""
	}
	key, err := h.cfg.SessionKey()
	if err != nil || len(key) == 0 {
		return ""
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(random))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// fleetIssued reports whether id carries a valid signature and is young
// enough.
func (h *Handler) fleetIssued(id string) bool {
	i := strings.LastIndexByte(id, '.')
	if i < 0 {
		return false
	}
	want := h.sign(id[:i])
	if want == "" || !hmac.Equal([]byte(want), []byte(id[i+1:])) {
		return false
	}
	at, ok := issued(id)
	return ok && h.now().Sub(at) < MaxSessionAge
}

// heldElsewhere reports whether the request names a live session of the
// fleet that this node does not hold.
func (h *Handler) heldElsewhere(rc *fasthttp.RequestCtx) bool {
	raw := rc.Request.Header.Peek(sessionHeader)
	if len(raw) == 0 || h.sessions.holds(string(raw)) {
		return false
	}
	id := string(raw)
	if !h.fleetIssued(id) || h.cfg.SessionEnded == nil {
		return false
	}
	ended, err := h.cfg.SessionEnded(id)
	if err != nil {
		h.cfg.Logger.Warn("cannot tell whether an MCP session ended: served as unknown", "err", err)
		return false
	}
	return !ended
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
