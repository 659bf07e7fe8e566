// Package mcp serves fiplan to AI assistants over the Model Context
// Protocol: tools, resources and prompts, over streamable HTTP at /mcp and
// over stdio.
//
// Each tool is one route of the API. Its input schema is the route's
// request declaration (the body, or an object of its query parameters), its
// output schema the route's response data declaration, and a call runs the
// route in-process through the server's own chain with the caller's
// credentials, so validation, authentication, tier rules and rate limits
// are those of the API. An answer the API refuses becomes a tool result
// with isError set and the API's code, message and details; it is never a
// protocol error.
//
// Over HTTP every request carries Authorization: Bearer with an API key or
// a session token, checked as the API checks it on every request (API keys
// are looked up each time, so a revoked key fails at once). Without valid
// credentials the answer is 401 with a WWW-Authenticate header naming the
// protected-resource metadata (RFC 9728) served beside /mcp. A session is
// bound to the user who opened it.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/program"
	"fiplan/data/taxtable"
	"fiplan/handlers/auth"
	"fiplan/handlers/rest"
)

// Paths served outside the API's prefix.
const (
	Path         = "/mcp"
	MetadataPath = "/.well-known/oauth-protected-resource"
)

// MinProtocol is the oldest protocol version served: the first with
// structured tool output.
const MinProtocol = "2025-06-18"

// SessionTimeout closes a session idle this long.
const SessionTimeout = 30 * time.Minute

// Settings are what the operator chooses.
type Settings struct {
	// PublicURL is the externally visible base URL (no trailing slash).
	PublicURL string
	// Issuer, when set, is the identity provider the metadata names.
	Issuer string
	// Credential, when set, is the Authorization value of calls that carry
	// none (stdio, where the process acts for one local user); it is asked
	// for each call, so a signed session never grows old.
	Credential func() (string, error)
	// Stream answers POSTs as event streams instead of single JSON bodies.
	Stream bool
	// MaxSessions is how many open sessions a user holds; opening one
	// more closes the oldest. 0: DefaultMaxSessions.
	MaxSessions int
	// StreamLifetime ends an event stream after this long; the client
	// reopens it. 0: DefaultStreamLifetime.
	StreamLifetime time.Duration
}

// Config is what the server hands over.
type Config struct {
	Settings
	Version string
	Routes  []*rest.Route
	// Serve is the server's whole chain.
	Serve fasthttp.RequestHandler
	// Verify resolves a bearer credential as the API does; an error that
	// wraps auth.ErrInvalid or auth.ErrExpired refuses it, any other is a
	// failure of storage.
	Verify   func(token []byte) (auth.Principal, error)
	Datasets Datasets
	Logger   *slog.Logger
	// Admit charges a request to /mcp carrying n JSON-RPC messages to its
	// caller, p, or, when p is nil (no valid credential), to the client's
	// address as a failed authentication; it answers and returns false
	// when the caller is over its limit. Nil: no limit.
	Admit func(rc *fasthttp.RequestCtx, p *auth.Principal, n int) bool
	// SessionKey, when set, is the key session ids are bound to their user
	// with, the same on every node sharing the store, so that any node can
	// judge and serve a session another opened (fleet.go).
	SessionKey func() ([]byte, error)
	// EndSession marks a session id ended until the time given, for every
	// node; SessionEnded reads the mark (every request naming a session
	// does). Without them only the node that holds a session serves it.
	EndSession   func(id string, until time.Time) error
	SessionEnded func(id string) (bool, error)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Datasets are the embedded data the resources describe.
type Datasets struct {
	Cities   *geo.Table
	FX       *fx.Table
	Programs *program.Table
	Taxes    *taxtable.Table
	History  history.Series
}

// Handler serves MCP.
type Handler struct {
	cfg    Config
	server *sdk.Server
	tools  []*tool
	http   fasthttp.RequestHandler
	// elsewhere serves, statelessly, the requests of sessions another
	// node holds.
	elsewhere fasthttp.RequestHandler
	metadata  []byte
	sessions  sessions
	prov      provenance
}

var errNoCredential = errors.New("no credentials: send Authorization: Bearer with an API key or a session token")

// New builds the tools from cfg.Routes, the resources and the prompts.
func New(cfg Config) (*Handler, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.PublicURL = strings.TrimSuffix(cfg.PublicURL, "/")
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.StreamLifetime <= 0 {
		cfg.StreamLifetime = DefaultStreamLifetime
	}
	h := &Handler{cfg: cfg, tools: tools(), sessions: sessions{max: cfg.MaxSessions, byUser: map[string][]*sdk.ServerSession{}},
		prov: newProvenance(cfg.Version, cfg.Datasets)}
	if err := bind(h.tools, cfg.Routes); err != nil {
		return nil, err
	}
	var versions []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v >= MinProtocol {
			versions = append(versions, v)
		}
	}
	h.server = sdk.NewServer(&sdk.Implementation{Name: "fiplan", Title: "fiplan", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions:              instructions,
		Logger:                    cfg.Logger,
		SupportedProtocolVersions: versions,
		GetSessionID:              h.sessionID,
	})
	h.sessions.onEnd = h.ended
	h.server.AddReceivingMiddleware(h.sessions.track)
	for _, t := range h.tools {
		h.server.AddTool(t.sdk(), h.handle(t))
	}
	if err := h.addResources(); err != nil {
		return nil, err
	}
	h.addPrompts()

	meta := oauthex.ProtectedResourceMetadata{
		Resource:               cfg.PublicURL + Path,
		ResourceName:           "fiplan",
		BearerMethodsSupported: []string{"header"},
		ResourceDocumentation:  cfg.PublicURL + "/api/v1/openapi.json",
	}
	if cfg.Issuer != "" {
		meta.AuthorizationServers = []string{cfg.Issuer}
	}
	var err error
	if h.metadata, err = json.Marshal(meta); err != nil {
		return nil, fmt.Errorf("cannot encode resource metadata: %w", err)
	}
	stream := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return h.server }, &sdk.StreamableHTTPOptions{
		JSONResponse:   !cfg.Stream,
		SessionTimeout: SessionTimeout,
		Logger:         cfg.Logger,
	})
	guard := sdkauth.RequireBearerToken(h.verify, &sdkauth.RequireBearerTokenOptions{
		ResourceMetadataURL:    cfg.PublicURL + MetadataPath,
		AllowMissingExpiration: true, // the server's verifier judges expiry
	})
	h.http = fasthttpadaptor.NewFastHTTPHandler(guard(bounded(stream, cfg.StreamLifetime, cfg.Stream)))
	h.elsewhere = fasthttpadaptor.NewFastHTTPHandler(guard(h.statelessHandler(cfg)))
	return h, nil
}

// instructions tell an assistant how the tools fit together.
const instructions = "fiplan plans financial independence (FI). fi_calculate projects savings to FI and through retirement; " +
	"portfolio_health scores a portfolio; search_cities, compare_cities and recommend_cities find affordable places; " +
	"tax_countries, tax_calculate, tax_programs and tax_optimize (pro) compare tax systems; my_fi_score, the profile, settings, asset and plan tools (save_my_plan, run_my_plan, checkin_my_plan: what a saved plan lets you spend this year) work on the signed-in user's stored data. " +
	"Amounts are yearly unless a field says monthly; rates are fractions (0.04 = 4%). Lists answer 10 compact rows: ask detail full, limit or offset for more. " +
	"Calculations carry engine, datasets, seed and inputHash: the same input gives the same hash and figures. Resources hold each method and dataset's sources."

// sdk is the tool as the protocol lists it.
func (t *tool) sdk() *sdk.Tool {
	desc := t.desc
	if t.route.Access == rest.Pro {
		desc += " Pro tier only: a free account gets SUBSCRIPTION_REQUIRED."
	}
	destructive := t.destructive
	open := false
	return &sdk.Tool{
		Name:         t.name,
		Title:        t.title,
		Description:  desc,
		InputSchema:  t.input,
		OutputSchema: t.output,
		Annotations: &sdk.ToolAnnotations{
			ReadOnlyHint:    t.read,
			DestructiveHint: &destructive,
			IdempotentHint:  t.idempotent,
			OpenWorldHint:   &open,
		},
	}
}

// Server is the protocol server, for transports other than HTTP (stdio).
func (h *Handler) Server() *sdk.Server { return h.server }

// Run serves one client over t (for example &sdk.StdioTransport{}) until
// it disconnects or ctx ends.
func (h *Handler) Run(ctx context.Context, t sdk.Transport) error { return h.server.Run(ctx, t) }

// Serves reports whether path is one Handler answers.
func Serves(path []byte) bool {
	p := string(path)
	return p == Path || p == MetadataPath || p == MetadataPath+Path
}

// Serve answers /mcp and the protected-resource metadata.
func (h *Handler) Serve(rc *fasthttp.RequestCtx) {
	if string(rc.Path()) != Path {
		h.serveMetadata(rc)
		return
	}
	if !h.admit(rc) {
		return
	}
	// The tool calls of this request act from the client's address.
	rc.Request.Header.Set(PeerHeader, rc.RemoteAddr().String())
	if sid := rc.Request.Header.Peek(sessionHeader); len(sid) > 0 {
		h.serveSession(rc, sid)
		return
	}
	h.http(rc)
	h.publish(rc)
}

func (h *Handler) serveMetadata(rc *fasthttp.RequestCtx) {
	rc.Response.Header.Set("Access-Control-Allow-Origin", "*")
	switch string(rc.Method()) {
	case fasthttp.MethodGet, fasthttp.MethodHead:
	case fasthttp.MethodOptions:
		rc.Response.Header.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
		rc.SetStatusCode(fasthttp.StatusNoContent)
		return
	default:
		rc.Response.Header.Set(fasthttp.HeaderAllow, "GET, HEAD, OPTIONS")
		rc.SetStatusCode(fasthttp.StatusMethodNotAllowed)
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "public, max-age=3600")
	rc.SetContentType("application/json")
	rc.SetBody(h.metadata)
}

// verify checks the bearer credential of an HTTP request.
func (h *Handler) verify(ctx context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
	var p auth.Principal
	var err error
	if v, ok := ctx.Value(verified{}).(verdict); ok {
		p, err = v.p, v.err // the mount's verdict on this request's credential
	} else {
		p, err = h.cfg.Verify([]byte(token))
	}
	switch {
	case errors.Is(err, auth.ErrExpired):
		return nil, fmt.Errorf("%w: the session has expired", sdkauth.ErrInvalidToken)
	case errors.Is(err, auth.ErrInvalid):
		return nil, fmt.Errorf("%w: %v", sdkauth.ErrInvalidToken, err)
	case err != nil:
		return nil, fmt.Errorf("cannot check credentials: %w", err)
	}
	// No expiration: the verifier has judged it by the server's clock,
	// and every tool call is judged again.
	return &sdkauth.TokenInfo{UserID: p.User}, nil
}
