package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/valyala/fasthttp"
	"golang.org/x/oauth2"
)

// provider is the OpenID Connect identity provider, read from its discovery
// document at start.
type provider struct {
	oauth      oauth2.Config
	verifier   *oidc.IDTokenVerifier
	endSession string // "" when the provider has no RP-initiated logout
	revocation string // "" when the provider has no token revocation endpoint
	client     *http.Client
}

func newProvider(ctx context.Context, cfg OIDC, redirect string, client *http.Client) (*provider, error) {
	ctx = oidc.ClientContext(ctx, client)
	p, err := oidc.NewProvider(ctx, cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("cannot discover identity provider %q: %w", cfg.Issuer, err)
	}
	var extra struct {
		EndSession string `json:"end_session_endpoint"`
		Revocation string `json:"revocation_endpoint"`
	}
	if err := p.Claims(&extra); err != nil {
		return nil, fmt.Errorf("cannot read discovery document of %q: %w", cfg.Issuer, err)
	}
	return &provider{
		oauth: oauth2.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			Endpoint:     p.Endpoint(),
			RedirectURL:  redirect,
			Scopes:       []string{oidc.ScopeOpenID, "profile", "email", oidc.ScopeOfflineAccess},
		},
		verifier:   p.Verifier(&oidc.Config{ClientID: cfg.ClientID}),
		endSession: extra.EndSession,
		revocation: extra.Revocation,
		client:     client,
	}, nil
}

// flowState is the sealed cookie that carries a sign-in round trip.
type flowState struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"` // PKCE code verifier
	Next     string `json:"x"`
	Expires  int64  `json:"e"`
}

func randomString() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// startFlow redirects to the provider's authorization endpoint.
func (h *Handler) startFlow(rc *fasthttp.RequestCtx, next string) {
	st := flowState{Verifier: oauth2.GenerateVerifier(), Next: next, Expires: h.now().Add(flowTTL).Unix()}
	var err error
	if st.State, err = randomString(); err == nil {
		st.Nonce, err = randomString()
	}
	var sealed string
	if err == nil {
		sealed, err = h.sealer.seal(flowCookie, st)
	}
	if err != nil {
		h.log.Error("cannot start sign-in", "err", err)
		h.problem(rc, fasthttp.StatusInternalServerError, "Sign-in failed", "Retry after a moment.")
		return
	}
	// Lax: the cookie must come back on the provider's top-level redirect.
	h.setCookie(rc, flowCookie, sealed, "/auth/callback", flowTTL, fasthttp.CookieSameSiteLaxMode)
	u := h.oidc.oauth.AuthCodeURL(st.State, oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(st.Verifier))
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	redirect(rc, u, fasthttp.StatusFound)
}

// callback finishes sign-in: state, code exchange with the PKCE verifier,
// ID token signature, audience and nonce.
func (h *Handler) callback(rc *fasthttp.RequestCtx) {
	if h.oidc == nil {
		h.problem(rc, fasthttp.StatusNotFound, "Page not found", "This server has no identity provider.")
		return
	}
	fail := func(status int, msg string, err error) {
		h.log.Info("sign-in failed", "reason", msg, "err", err)
		h.problem(rc, status, "Sign-in failed", msg+" Start again from the sign-in link.")
	}
	// The flow cookie is single use, whatever happens next.
	h.setCookie(rc, flowCookie, "", "/auth/callback", 0, fasthttp.CookieSameSiteLaxMode)
	q := rc.QueryArgs()
	if e := q.Peek("error"); len(e) > 0 {
		fail(fasthttp.StatusBadRequest, "The identity provider refused: "+string(e)+".", nil)
		return
	}
	var st flowState
	if err := h.sealer.open(flowCookie, string(rc.Request.Header.Cookie(flowCookie)), &st); err != nil {
		fail(fasthttp.StatusBadRequest, "This sign-in was not started here, or took too long.", err)
		return
	}
	if h.now().Unix() >= st.Expires {
		fail(fasthttp.StatusBadRequest, "This sign-in took too long.", nil)
		return
	}
	if string(q.Peek("state")) != st.State {
		fail(fasthttp.StatusBadRequest, "The sign-in answer does not match the request (state).", nil)
		return
	}
	// The flow is spent in the store, for every node, before the code
	// reaches the provider: a replayed callback (the flow cookie kept and
	// sent again) ends here.
	first, err := h.revocations.Revoke(flowID(st.State), time.Unix(st.Expires, 0), h.now())
	if err != nil {
		fail(fasthttp.StatusServiceUnavailable, "The sign-in could not be recorded; retry after a moment.", err)
		return
	}
	if !first {
		fail(fasthttp.StatusBadRequest, "This sign-in answer was already used.", nil)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, h.oidc.client)
	tok, err := h.oidc.oauth.Exchange(ctx, string(q.Peek("code")), oauth2.VerifierOption(st.Verifier))
	if err != nil {
		fail(fasthttp.StatusBadRequest, "The identity provider did not accept the sign-in code.", err)
		return
	}
	raw, err := h.oidc.idToken(ctx, tok)
	if err != nil {
		fail(fasthttp.StatusBadGateway, "The identity provider's ID token did not verify.", err)
		return
	}
	id, err := h.oidc.verifier.Verify(oidc.ClientContext(ctx, h.oidc.client), raw)
	if err != nil || id.Nonce != st.Nonce {
		fail(fasthttp.StatusBadRequest, "The identity provider's ID token did not verify.", errors.Join(err, errors.New("nonce")))
		return
	}
	if _, err := h.cfg.Verifier.Verify([]byte(raw)); err != nil {
		fail(fasthttp.StatusBadGateway, "The API does not accept this provider's tokens; check FI_JWT_ISSUER and FI_JWT_AUDIENCE.", err)
		return
	}
	sid, err := randomString()
	if err != nil {
		fail(fasthttp.StatusInternalServerError, "Retry after a moment.", err)
		return
	}
	if err := h.startSession(rc, raw, refreshState{Mode: "oidc", Token: tok.RefreshToken, Sid: sid}); err != nil {
		fail(fasthttp.StatusInternalServerError, "Retry after a moment.", err)
		return
	}
	rc.Response.Header.Set(fasthttp.HeaderCacheControl, "no-store")
	redirect(rc, st.Next, fasthttp.StatusSeeOther)
}

// idToken takes the ID token out of a token response.
func (p *provider) idToken(ctx context.Context, tok *oauth2.Token) (string, error) {
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return "", errors.New("token response has no id_token")
	}
	return raw, nil
}

// refresh trades a refresh token for a new, verified ID token and the
// refresh token to use next (the same one when the provider does not
// rotate them).
func (p *provider) refresh(ctx context.Context, refreshToken string) (string, string, error) {
	if refreshToken == "" {
		return "", "", errors.New("no refresh token was issued")
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, p.client)
	tok, err := p.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: refreshToken}).Token()
	if err != nil {
		return "", "", err
	}
	raw, err := p.idToken(ctx, tok)
	if err != nil {
		return "", "", err
	}
	if _, err := p.verifier.Verify(oidc.ClientContext(ctx, p.client), raw); err != nil {
		return "", "", err
	}
	next := tok.RefreshToken
	if next == "" {
		next = refreshToken
	}
	return raw, next, nil
}

// flowID names a sign-in flow by its state among the store's one-use
// values.
func flowID(state string) string {
	sum := sha256.Sum256([]byte("fiplan sign-in flow\x00" + state))
	return "f" + base64.RawURLEncoding.EncodeToString(sum[:])
}

// revokeTimeout bounds the call to the provider's revocation endpoint at
// sign-out: best effort, so the person is not kept waiting on it.
const revokeTimeout = 3 * time.Second

// revoke asks the provider to revoke a refresh token (RFC 7009), with
// the client's credentials: HTTP Basic for a confidential client, the
// client id in the form for a public one.
func (p *provider) revoke(ctx context.Context, refreshToken string) error {
	ctx, cancel := context.WithTimeout(ctx, revokeTimeout)
	defer cancel()
	form := url.Values{"token": {refreshToken}, "token_type_hint": {"refresh_token"}}
	if p.oauth.ClientSecret == "" {
		form.Set("client_id", p.oauth.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.revocation, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("cannot revoke at %q: %w", p.revocation, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if p.oauth.ClientSecret != "" {
		req.SetBasicAuth(url.QueryEscape(p.oauth.ClientID), url.QueryEscape(p.oauth.ClientSecret))
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("cannot revoke at %q: %w", p.revocation, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("cannot revoke at %q: status %d", p.revocation, resp.StatusCode)
	}
	return nil
}
