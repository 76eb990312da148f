package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// A stepper is the HTTP client's transport for the flow's own requests
// (discovery, registration, token): it refuses a request outside the
// server's reach, caps every answer at maxBody, notes which step each
// request is and what a server answered when it refused, so a failure can
// say where it happened; and it refuses authorization server metadata that
// does not advertise PKCE S256, which the SDK checks only for being
// non-empty.
type stepper struct {
	next    http.RoundTripper
	reach   reach
	timeout time.Duration

	mu   sync.Mutex
	step string
	url  string
	said string
	// refused is the first request refused for the server's reach: the
	// SDK goes on to other discovery paths, whose failure would hide it.
	refused error
	// resource is true once protected resource metadata was read: the
	// server speaks 2025-06-18 or later, and its authorization server's
	// issuer is held to RFC 8414 whole.
	resource bool
	// issuer is the issuer of the authorization server metadata read, ""
	// when there was none (the 2025-03-26 default endpoints); legacyIss is
	// the issuer a 2025-03-26 server's own metadata named, when it was not
	// its origin (see legacyIssuer).
	issuer, legacyIss string
}

// maxSaid bounds what is read of a refusal.
const maxSaid = 4 << 10

func (s *stepper) RoundTrip(req *http.Request) (*http.Response, error) {
	step := stepOf(req)
	s.enter(step, req.URL.String())
	if err := s.reach.checkURL(req.URL); err != nil {
		return nil, s.note(err)
	}
	if step == StepToken || step == StepRefresh {
		req = public(req)
	}
	resp, err := s.next.RoundTrip(req)
	if err != nil {
		return nil, s.note(err)
	}
	resp.Body = &cappedBody{r: resp.Body, left: maxBody}
	switch {
	case resp.StatusCode >= 400:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxSaid))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.said = said(body)
		s.mu.Unlock()
	case resp.StatusCode == http.StatusOK && isServerMetadata(req.URL):
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if err := requireS256(body); err != nil {
			return nil, err
		}
		body = s.legacyIssuer(req.URL, body)
		resp.Body = io.NopCloser(bytes.NewReader(body))
	case resp.StatusCode == http.StatusOK && strings.Contains(req.URL.Path, "/.well-known/oauth-protected-resource"):
		s.mu.Lock()
		s.resource = true
		s.mu.Unlock()
	}
	return resp, nil
}

// enter notes the step a request belongs to.
func (s *stepper) enter(step, u string) {
	s.mu.Lock()
	s.step, s.url, s.said = step, u, ""
	s.mu.Unlock()
}

// note keeps err when it is the first refusal for the server's reach.
func (s *stepper) note(err error) error {
	var re *reachError
	if errors.As(err, &re) {
		s.mu.Lock()
		if s.refused == nil {
			s.refused = re
		}
		s.mu.Unlock()
	}
	return err
}

// fail names err with the step that was running.
func (s *stepper) fail(err error) error {
	if err == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	step := s.step
	if strings.Contains(err.Error(), "client registration") || strings.Contains(err.Error(), "pre-registered credentials issuer") {
		step = StepRegistration // the SDK found no way to register, or the client is another issuer's: no request was sent
	}
	if step == "" {
		step = StepDiscovery
	}
	err = timedOut(err, s.timeout)
	if s.refused != nil && !strings.Contains(err.Error(), s.refused.Error()) {
		err = fmt.Errorf("%w (before that, %v)", err, s.refused)
	}
	return &StepError{Step: step, URL: s.url, Said: s.said, Err: err}
}

// stepOf says which step of the flow req is.
func stepOf(req *http.Request) string {
	if req.Method == http.MethodGet {
		return StepDiscovery
	}
	if req.GetBody != nil && strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, maxSaid))
			body.Close()
			if q, err := url.ParseQuery(string(b)); err == nil && q.Get("grant_type") == "refresh_token" {
				return StepRefresh
			}
		}
		return StepToken
	}
	return StepRegistration
}

// isServerMetadata reports whether u is an authorization server's metadata
// (RFC 8414 or OpenID discovery).
func isServerMetadata(u *url.URL) bool {
	return strings.Contains(u.Path, "/.well-known/oauth-authorization-server") ||
		strings.Contains(u.Path, "/.well-known/openid-configuration")
}

// requireS256 refuses metadata that does not list S256 among its PKCE
// methods: the spec has clients refuse such a server.
func requireS256(body []byte) error {
	var m struct {
		Methods []string `json:"code_challenge_methods_supported"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return nil // the SDK reports malformed metadata
	}
	if !slices.Contains(m.Methods, "S256") {
		return fmt.Errorf("the authorization server does not advertise PKCE S256 (code_challenge_methods_supported: %s)", clip(strings.Join(m.Methods, ", ")))
	}
	return nil
}

// public sends the client ID of a client with no secret in the form, as
// token_endpoint_auth_method "none" has it (RFC 6749 2.3.1), where
// x/oauth2, told nothing better by the SDK, would send a Basic header with
// an empty password.
func public(req *http.Request) *http.Request {
	id, secret, ok := req.BasicAuth()
	if !ok || secret != "" || req.GetBody == nil {
		return req
	}
	body, err := req.GetBody()
	if err != nil {
		return req
	}
	b, err := io.ReadAll(io.LimitReader(body, maxSaid))
	body.Close()
	q, perr := url.ParseQuery(string(b))
	if err != nil || perr != nil {
		return req
	}
	id, _ = url.QueryUnescape(id)
	q.Set("client_id", id)
	form := q.Encode()
	out := req.Clone(req.Context())
	out.Header.Del("Authorization")
	out.Body = io.NopCloser(strings.NewReader(form))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(form)), nil }
	out.ContentLength = int64(len(form))
	return out
}
