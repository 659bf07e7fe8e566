package mcp

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	json "github.com/goccy/go-json"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/auth"
)

// What /mcp costs and holds. Every HTTP request to /mcp is charged to its
// caller before the protocol sees it, one unit of the API's rate limit per
// JSON-RPC message it carries (Config.Admit): a tool call, a resource read,
// an initialize, the GET that opens a stream and the DELETE that ends a
// session alike. A request without valid credentials costs what a failed
// authentication costs on the API. A tool call's route is then served
// without charging its one unit again (Prepaid); what an expensive route
// charges beyond that unit, it charges as over the API.
//
// A user holds at most Settings.MaxSessions open sessions: opening one
// more closes the user's oldest, whose next request answers 404 so that its
// client opens a new one. An event stream (GET, or a POST answered as a
// stream) ends after Settings.StreamLifetime; the client reopens it.

// Defaults of the settings left zero.
const (
	DefaultMaxSessions = 10
	// DefaultStreamLifetime stays under the server's write timeout, which
	// fasthttp sets once per response: a stream past it could not write.
	DefaultStreamLifetime = 8 * time.Second
)

// prepaid is the user value that marks an in-process tool call whose unit
// the HTTP request carrying it has paid. A user value never comes from the
// wire.
type prepaid struct{}

// Prepaid reports whether rc is a tool call whose one unit of the rate
// limit the /mcp request that carried it has already paid.
func Prepaid(rc *fasthttp.RequestCtx) bool { return rc.UserValue(prepaid{}) != nil }

// verified carries the mount's verdict on the request's credential to the
// SDK's bearer check, so that a credential is looked up once.
type verified struct{}

type verdict struct {
	p   auth.Principal
	err error
}

// messages is how many JSON-RPC messages a POST body carries: the entries
// of a batch, or one.
func messages(body []byte) int {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '[' {
		return 1
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) != nil || len(batch) == 0 {
		return 1
	}
	return len(batch)
}

// admit verifies the request's credential once and charges the request to
// its caller; false when the caller is over its limit and the request has
// been answered.
func (h *Handler) admit(rc *fasthttp.RequestCtx) bool {
	v := verdict{err: errNoCredential}
	if tok, ok := auth.BearerToken(rc.Request.Header.Peek(fasthttp.HeaderAuthorization)); ok {
		v.p, v.err = h.cfg.Verify(tok)
	}
	rc.SetUserValue(verified{}, v)
	if v.err != nil && !errors.Is(v.err, errNoCredential) && !errors.Is(v.err, auth.ErrInvalid) && !errors.Is(v.err, auth.ErrExpired) {
		h.storageFailed(rc, v.err)
		return false
	}
	if h.cfg.Admit == nil {
		return true
	}
	n := 1
	if string(rc.Method()) == fasthttp.MethodPost {
		n = messages(rc.PostBody())
	}
	var p *auth.Principal
	if v.err == nil {
		p = &v.p
	}
	return h.cfg.Admit(rc, p, n)
}

// storageFailed answers a request whose credential could not be checked
// because the store failed: 503 with Retry-After when the store says when
// to retry (it is not reached yet, or its circuit breaker is open), else
// 500; never the credential's 401, which would send the client to sign in
// again.
func (h *Handler) storageFailed(rc *fasthttp.RequestCtx, err error) {
	var later interface{ RetryAfter() int }
	if errors.As(err, &later) {
		rc.Response.Header.Set(fasthttp.HeaderRetryAfter, strconv.Itoa(later.RetryAfter()))
		refuse(rc, fasthttp.StatusServiceUnavailable, "the database does not answer, so the credential cannot be checked; retry after Retry-After seconds")
		return
	}
	h.cfg.Logger.Error("cannot check an MCP credential", "err", err)
	refuse(rc, fasthttp.StatusInternalServerError, "the credential cannot be checked; retry after a moment")
}

// sessions caps the open sessions of each user.
type sessions struct {
	max    int
	mu     sync.Mutex
	byUser map[string][]*sdk.ServerSession
	held   map[string]*sdk.ServerSession // the sessions open here, by id
	// onEnd is told the id of each session that ends here.
	onEnd func(id string)
}

// find is the session open on this node under id, or nil.
func (s *sessions) find(id string) *sdk.ServerSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held[id]
}

// track records the sessions as they are initialized, per user.
func (s *sessions) track(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if method != "initialize" || err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*sdk.ServerSession)
		extra := req.GetExtra()
		if ok && extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
			s.opened(extra.TokenInfo.UserID, ss)
		}
		return res, err
	}
}

// opened counts ss as user's newest session and closes the user's oldest
// beyond the cap.
func (s *sessions) opened(user string, ss *sdk.ServerSession) {
	s.mu.Lock()
	list := s.byUser[user]
	if slices.Contains(list, ss) { // initialized twice
		s.mu.Unlock()
		return
	}
	list = append(list, ss)
	if s.held == nil {
		s.held = map[string]*sdk.ServerSession{}
	}
	s.held[ss.ID()] = ss
	var evict []*sdk.ServerSession
	if over := len(list) - s.max; over > 0 {
		evict = slices.Clone(list[:over])
		list = slices.Clone(list[over:])
	}
	s.byUser[user] = list
	s.mu.Unlock()
	for _, old := range evict {
		// Marked ended before it closes, so that no node serves its next
		// request.
		if s.onEnd != nil {
			s.onEnd(old.ID())
		}
		// Close waits for the session's calls in flight; the new
		// session's initialize does not wait with it.
		go old.Close() //nolint:errcheck // a session closing has no one to tell
	}
	go func() {
		ss.Wait() //nolint:errcheck // the session is over either way
		s.closed(user, ss)
	}()
}

func (s *sessions) closed(user string, ss *sdk.ServerSession) {
	if s.onEnd != nil {
		s.onEnd(ss.ID())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.held, ss.ID())
	list := slices.DeleteFunc(s.byUser[user], func(x *sdk.ServerSession) bool { return x == ss })
	if len(list) == 0 {
		delete(s.byUser, user)
		return
	}
	s.byUser[user] = list
}

// open is how many sessions user holds.
func (s *sessions) open(user string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byUser[user])
}

// bounded ends an event stream after d: a GET's, and a POST's when answers
// are streamed. A JSON answer ends when its call does.
func bounded(next http.Handler, d time.Duration, streamPOST bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || streamPOST && r.Method == http.MethodPost {
			// The request's context is the fasthttp RequestCtx, reused once
			// the call returns: the timer's own cancel, which may fire just
			// then, must not look values up in it (a data race), so the
			// deadline hangs under a parent it cannot reach through. The
			// stream still ends by d, before a shutdown's drain.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), d)
			defer cancel()
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

// OpenSessions is how many open sessions user holds.
func (h *Handler) OpenSessions(user string) int { return h.sessions.open(user) }
