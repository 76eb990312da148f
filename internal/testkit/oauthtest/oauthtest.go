package oauthtest

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Config turns the server's knobs; the zero value is a well-behaved
// server offering dynamic registration.
type Config struct {
	// NoPKCE leaves code_challenge_methods_supported out of the metadata;
	// PlainOnly lists only "plain".
	NoPKCE, PlainOnly bool
	// NoRegistration leaves out the registration endpoint.
	NoRegistration bool
	// Clients are pre-registered: client ID → secret ("" for a public
	// client).
	Clients map[string]string
	// MetadataDocuments advertises client ID metadata document support;
	// a client ID that is an https URL is then accepted as is.
	MetadataDocuments bool
	// AuthMethods are token_endpoint_auth_methods_supported (default:
	// client_secret_basic, client_secret_post, none).
	AuthMethods []string
	// WrongIss sends another issuer in the authorization response.
	WrongIss bool
	// Legacy is a 2025-03-26 server: no protected resource metadata, the
	// authorization server at the MCP server's origin; NoMetadata leaves
	// out its metadata too (the client falls back to /authorize, /token
	// and /register there).
	Legacy, NoMetadata bool
	// LegacyPath puts a legacy server's endpoints under this path
	// (/oauth) and names its issuer there, its metadata still at the
	// origin's root, as servers written for 2025-03-26 do.
	LegacyPath string
	// Open are the JSON-RPC methods let through without a token (say
	// initialize and notifications/initialized: the server challenges
	// tools/list first).
	Open []string
	// Withhold are scopes the authorization server never grants, asked or
	// not. MetadataIssuer replaces the issuer its metadata names.
	Withhold       []string
	MetadataIssuer string
	// NoInitialize answers initialize with a 400, token or not, as a
	// server that speaks 2026-07-28 alone (server/discover) may.
	NoInitialize bool
	// TokenLifetime is how long an access token lives (default an hour).
	TokenLifetime time.Duration
	// Scopes are scopes_supported; MethodScopes are the scope each
	// JSON-RPC method needs beyond a valid token (a 403 insufficient_scope
	// otherwise).
	Scopes       []string
	MethodScopes map[string]string

	// Hostile knobs. AuthorizationEndpoint replaces the metadata's
	// authorization_endpoint (say ms-msdt://localhost/x); ResourceMetadata
	// replaces the resource_metadata URL of the server's challenge;
	// StallToken makes the token endpoint answer nothing until the client
	// gives up.
	AuthorizationEndpoint, ResourceMetadata string
	StallToken                              bool
}

// A Server is the authorization server and the MCP server behind it.
type Server struct {
	cfg    Config
	AS, RS *httptest.Server
	// moved is the authorization server the protected resource metadata
	// names since Move, nil before.
	moved *httptest.Server
	// MCPURL is the MCP endpoint.
	MCPURL string

	stop     chan struct{} // closed as the test ends: a stalled request returns
	mu       sync.Mutex
	clients  map[string]client
	codes    map[string]grant
	access   map[string]token
	refresh  map[string]grant
	Log      []string // what each endpoint saw and refused, for a failing test
	Refreshs int
	// Bearers counts the MCP requests that carried a valid token.
	Bearers int
	// LastAuth is the query of the last authorization request.
	LastAuth url.Values
	// LastTokenAuth is how the client authenticated at the token endpoint
	// ("basic", "post" or "none").
	LastTokenAuth string
	// Stale counts the requests to the authorization server since Move
	// that carried a client the old one registered.
	Stale int
	// Authorizations counts the authorization requests; ApplicationType
	// is the application_type of the last registration.
	Authorizations  int
	ApplicationType string
	// stale are the clients the old authorization server registered.
	stale map[string]bool
}

type client struct {
	secret   string
	redirect []string
	method   string
}

type grant struct {
	client, challenge, redirect, resource string
	scopes                                []string
}

type token struct {
	expires time.Time
	scopes  []string
}

// A Cleaner is told what to close when it ends: a test (testing.TB), or
// a process that serves until it exits.
type Cleaner interface{ Cleanup(func()) }

// Start runs the servers until t ends.
func Start(t Cleaner, cfg Config) *Server {
	s := &Server{cfg: cfg, clients: map[string]client{}, codes: map[string]grant{}, access: map[string]token{}, refresh: map[string]grant{}}
	for id, secret := range cfg.Clients {
		method := "none"
		if secret != "" {
			method = "client_secret_basic"
		}
		s.clients[id] = client{secret: secret, method: method}
	}
	if s.cfg.AuthMethods == nil {
		s.cfg.AuthMethods = []string{"client_secret_basic", "client_secret_post", "none"}
	}
	if s.cfg.TokenLifetime == 0 {
		s.cfg.TokenLifetime = time.Hour
	}
	as := http.NewServeMux()
	s.serveAS(as)
	s.AS = httptest.NewServer(as)
	t.Cleanup(s.AS.Close)
	s.stop = make(chan struct{})
	t.Cleanup(func() { close(s.stop) }) // before AS.Close, which waits for the requests

	mcpSrv := server.NewMCPServer("protected", "1.0.0", server.WithToolCapabilities(false))
	mcpSrv.AddTool(mcp.NewTool("whoami", mcp.WithDescription("says the caller is authorized")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("authorized"), nil
		})
	rs := http.NewServeMux()
	if cfg.Legacy {
		s.serveAS(rs)
	} else {
		rs.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", s.resourceMetadata)
	}
	rs.Handle("/mcp", s.guard(server.NewStreamableHTTPServer(mcpSrv)))
	s.RS = httptest.NewServer(rs)
	t.Cleanup(s.RS.Close)
	s.MCPURL = s.RS.URL + "/mcp"
	return s
}

// serveAS serves the authorization server's endpoints on mux.
func (s *Server) serveAS(mux *http.ServeMux) {
	if !s.cfg.NoMetadata {
		mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	}
	p := s.cfg.LegacyPath
	mux.HandleFunc("POST "+p+"/register", s.register)
	mux.HandleFunc("GET "+p+"/authorize", s.authorize)
	mux.HandleFunc("POST "+p+"/token", s.token)
}

// issuer is the authorization server's identifier: its own server, or the
// MCP server's origin for a legacy one.
func (s *Server) issuer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.cfg.Legacy:
		return s.RS.URL + s.cfg.LegacyPath
	case s.moved != nil:
		return s.moved.URL
	}
	return s.AS.URL
}

func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	s.Log = append(s.Log, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError answers with an RFC 6749 error.
func (s *Server) oauthError(w http.ResponseWriter, status int, code, desc string) {
	s.logf("refused: %s: %s", code, desc)
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func (s *Server) resourceMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"resource":              s.MCPURL,
		"authorization_servers": []string{s.issuer()},
		"scopes_supported":      s.cfg.Scopes,
	})
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	m := map[string]any{
		"issuer":                                         cmp.Or(s.metadataIssuer(), s.issuer()),
		"authorization_endpoint":                         s.issuer() + "/authorize",
		"token_endpoint":                                 s.issuer() + "/token",
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported":          s.cfg.AuthMethods,
		"authorization_response_iss_parameter_supported": true,
		"client_id_metadata_document_supported":          s.cfg.MetadataDocuments,
	}
	if s.cfg.AuthorizationEndpoint != "" {
		m["authorization_endpoint"] = s.cfg.AuthorizationEndpoint
	}
	switch {
	case s.cfg.PlainOnly:
		m["code_challenge_methods_supported"] = []string{"plain"}
	case !s.cfg.NoPKCE:
		m["code_challenge_methods_supported"] = []string{"S256"}
	}
	if !s.cfg.NoRegistration {
		m["registration_endpoint"] = s.issuer() + "/register"
	}
	if len(s.cfg.Scopes) > 0 {
		m["scopes_supported"] = s.cfg.Scopes
	}
	writeJSON(w, 200, m)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
		Method       string   `json:"token_endpoint_auth_method"`
		Type         string   `json:"application_type"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		s.oauthError(w, 400, "invalid_client_metadata", "redirect_uris required")
		return
	}
	id := "dyn-" + rand.Text()[:8]
	c := client{redirect: req.RedirectURIs, method: req.Method}
	resp := map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": req.Method}
	if req.Method != "none" {
		c.secret = rand.Text()
		resp["client_secret"] = c.secret
	}
	s.mu.Lock()
	s.clients[id] = c
	s.ApplicationType = req.Type
	s.mu.Unlock()
	s.logf("registered %s", id)
	writeJSON(w, 201, resp)
}

// authorize approves at once (the user said yes) and redirects back.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.LastAuth = q
	s.Authorizations++
	c, known := s.clients[q.Get("client_id")]
	stale := s.staleClient(q.Get("client_id"))
	s.mu.Unlock()
	if !known && s.cfg.MetadataDocuments && strings.HasPrefix(q.Get("client_id"), "https://") {
		known = true // a metadata document's URL: this server trusts it unread
	}
	switch {
	case !known || stale:
		http.Error(w, "unknown client", 400)
		return
	case len(c.redirect) > 0 && !slices.Contains(c.redirect, q.Get("redirect_uri")):
		http.Error(w, "redirect_uri not registered", 400)
		return
	}
	back, _ := url.Parse(q.Get("redirect_uri"))
	answer := url.Values{"state": {q.Get("state")}}
	iss := s.issuer()
	if s.cfg.WrongIss {
		iss = "https://attacker.example"
	}
	if !s.cfg.NoMetadata { // iss is sent when the metadata says it will be
		answer.Set("iss", iss)
	}
	switch {
	case q.Get("response_type") != "code":
		answer.Set("error", "unsupported_response_type")
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		answer.Set("error", "invalid_request")
		answer.Set("error_description", "PKCE S256 required")
	case q.Get("resource") != s.MCPURL && !s.cfg.Legacy: // a 2025-03-26 client may name the server itself
		answer.Set("error", "invalid_target")
		answer.Set("error_description", "resource must be "+s.MCPURL)
	default:
		code := rand.Text()
		s.mu.Lock()
		s.codes[code] = grant{client: q.Get("client_id"), challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"),
			resource: q.Get("resource"), scopes: slices.DeleteFunc(strings.Fields(q.Get("scope")), func(sc string) bool { return slices.Contains(s.cfg.Withhold, sc) })}
		s.mu.Unlock()
		answer.Set("code", code)
	}
	back.RawQuery = answer.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// guard lets through requests with a live token that has the scope their
// method needs, and those of the Open methods with none. A 403 names the
// scope missing alone, as a server may: the client keeps what it holds.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		challenge := fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, s.RS.URL)
		if s.cfg.ResourceMetadata != "" {
			challenge = fmt.Sprintf(`Bearer resource_metadata="%s"`, s.cfg.ResourceMetadata)
		}
		if s.cfg.Legacy {
			challenge = `Bearer realm="mcp"`
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		var msg struct {
			Method string `json:"method"`
		}
		json.Unmarshal(body, &msg)
		if s.cfg.NoInitialize && msg.Method == "initialize" {
			http.Error(w, "unsupported protocol: use server/discover", http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodPost && slices.Contains(s.cfg.Open, msg.Method) {
			next.ServeHTTP(w, r)
			return
		}
		bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		tok, live := s.access[bearer]
		s.mu.Unlock()
		if !ok || !live || time.Now().After(tok.expires) {
			if len(s.cfg.Scopes) > 0 {
				challenge += fmt.Sprintf(`, scope="%s"`, s.cfg.Scopes[0])
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if need := s.cfg.MethodScopes[msg.Method]; need != "" && !slices.Contains(tok.scopes, need) {
			w.Header().Set("WWW-Authenticate", challenge+fmt.Sprintf(`, error="insufficient_scope", scope="%s"`, need))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		s.mu.Lock()
		s.Bearers++
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// Follow is a browser: it visits the authorization URL and follows the
// redirect back to the client's loopback listener.
func Follow(u string) error {
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	return nil
}

// Snapshot returns a copy of what the server recorded, under its lock.
func (s *Server) Snapshot() (log []string, refreshes, bearers int, lastAuth url.Values, tokenAuth string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.Log), s.Refreshs, s.Bearers, s.LastAuth, s.LastTokenAuth
}
