package oauth_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/oauth"
)

// spec is the config's entry for the test server.
func spec(as *oauthtest.Server, o *config.OAuth) config.ServerSpec {
	return config.ServerSpec{Label: "prot", Transport: config.TransportHTTP, URL: as.MCPURL, OAuth: o}
}

func newStore(t *testing.T) *oauth.Store {
	dir, err := os.MkdirTemp("", "mcplens-oauth-")
	if err != nil {
		t.Fatal(err)
	}
	// A closed session's last request (mcp-go's listening GET, ended after
	// Close returns) may still refresh a short-lived token and save it
	// while the folder is removed: removing is tried again until it holds.
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("removing the token store's folder: %v", err)
				return
			}
		}
	})
	return oauth.NewStore(filepath.Join(dir, "cfg", "mcplens", "oauth-tokens.json"))
}

// login logs in with a browser that follows the authorization URL.
func login(t *testing.T, s config.ServerSpec, o oauth.Options) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	o.Open = oauthtest.Follow
	var shown string
	o.Show = func(u string) { shown = u }
	err := oauth.Login(ctx, s, o)
	if err == nil && !strings.Contains(shown, "code_challenge=") {
		t.Errorf("the URL shown = %q, want the authorization URL", shown)
	}
	return err
}

// connect opens a session on s with the stored tokens and returns the
// server's settled event, and the session (closed with the test).
func connect(t *testing.T, s config.ServerSpec, store *oauth.Store) (mcpsession.Event, *loader.Session) {
	t.Helper()
	cfg := &config.Config{Path: "mcp.json", Servers: []config.ServerSpec{s}}
	sess := loader.Open(cfg, loader.Options{Timeout: 10 * time.Second, HTTPAuth: func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper {
		return oauth.NewTransport(spec, next, oauth.Options{Store: store, Config: cfg.Path})
	}})
	t.Cleanup(func() { sess.Close() })
	for ev := range sess.Events() {
		if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			return ev, sess
		}
	}
	t.Fatal("the session ended before the server settled")
	return mcpsession.Event{}, nil
}

func TestLoginRegistrationModes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cfg       oauthtest.Config
		oauth     *config.OAuth
		opts      oauth.Options
		want      string // the entry's Registration
		tokenAuth string // how the client authenticated at the token endpoint
	}{
		{name: "dynamic", want: "dynamic", tokenAuth: "none"},
		{name: "pre-registered, secret in a basic header", cfg: oauthtest.Config{Clients: map[string]string{"cfg-client": "s3cret"}, AuthMethods: []string{"client_secret_basic"}},
			oauth: &config.OAuth{ClientID: "cfg-client", ClientSecret: "s3cret"}, want: "pre-registered", tokenAuth: "basic"},
		{name: "pre-registered, secret in the form", cfg: oauthtest.Config{Clients: map[string]string{"cfg-client": "s3cret"}, AuthMethods: []string{"client_secret_post"}},
			oauth: &config.OAuth{ClientID: "cfg-client", ClientSecret: "s3cret"}, want: "pre-registered", tokenAuth: "post"},
		{name: "pre-registered public client", cfg: oauthtest.Config{Clients: map[string]string{"pub": ""}, NoRegistration: true, AuthMethods: []string{"none"}},
			oauth: &config.OAuth{ClientID: "pub"}, want: "pre-registered", tokenAuth: "none"},
		{name: "pre-registered by flags", cfg: oauthtest.Config{Clients: map[string]string{"flag-client": "x"}, NoRegistration: true},
			opts: oauth.Options{ClientID: "flag-client", ClientSecret: "x"}, want: "pre-registered (flags)", tokenAuth: "post"},
		{name: "client ID metadata document", cfg: oauthtest.Config{MetadataDocuments: true},
			opts: oauth.Options{ClientMetadataURL: "https://mcplens.example/client.json"}, want: "metadata document", tokenAuth: "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.Start(t, tc.cfg)
			store := newStore(t)
			s := spec(as, tc.oauth)
			tc.opts.Store = store
			if err := login(t, s, tc.opts); err != nil {
				log, _, _, _, _ := as.Snapshot()
				t.Fatalf("Login: %v\nserver log: %q", err, log)
			}
			_, _, _, auth, tokenAuth := as.Snapshot()
			if auth.Get("code_challenge_method") != "S256" || auth.Get("resource") != as.MCPURL {
				t.Errorf("authorization request %v: want PKCE S256 and resource %s", auth, as.MCPURL)
			}
			if tokenAuth != tc.tokenAuth {
				t.Errorf("token endpoint auth = %q, want %q", tokenAuth, tc.tokenAuth)
			}
			e, err := store.Get(as.MCPURL, oauth.ClientKey(s))
			if err != nil || e == nil {
				t.Fatalf("stored entry = %v, %v; want one", e, err)
			}
			if e.Registration != tc.want {
				t.Errorf("registration = %q, want %q", e.Registration, tc.want)
			}
			ev, sess := connect(t, s, store)
			if ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
				t.Fatalf("connect: state %v, err %q, %d tools; want ready with whoami", ev.State, ev.Err, len(ev.Tools))
			}
			for _, f := range sess.FrameLog("prot").Frames() {
				if bytes.Contains(f.Bytes, []byte(e.Token.AccessToken)) {
					t.Errorf("the access token is in a frame of the wire log: %s", f.Bytes)
				}
			}
		})
	}
}

func TestLoginRefusesWhatTheSpecForbids(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  oauthtest.Config
		step string
		says string
	}{
		{name: "no PKCE advertised", cfg: oauthtest.Config{NoPKCE: true}, step: oauth.StepDiscovery, says: "S256"},
		{name: "plain PKCE only", cfg: oauthtest.Config{PlainOnly: true}, step: oauth.StepDiscovery, says: "S256"},
		{name: "wrong iss", cfg: oauthtest.Config{WrongIss: true}, step: oauth.StepAuthorization, says: "issuer"},
		{name: "no way to register", cfg: oauthtest.Config{NoRegistration: true}, step: oauth.StepRegistration, says: "registration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.Start(t, tc.cfg)
			store := newStore(t)
			err := login(t, spec(as, nil), oauth.Options{Store: store})
			var se *oauth.StepError
			if !errors.As(err, &se) || se.Step != tc.step || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("Login = %v; want a %s step error mentioning %q", err, tc.step, tc.says)
			}
			if e, _ := store.Get(as.MCPURL, ""); e != nil {
				t.Errorf("a token was stored after a refused login")
			}
		})
	}
}

func TestLoginErrorCarriesTheServersText(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Clients: map[string]string{"cfg-client": "right"}, NoRegistration: true})
	err := login(t, spec(as, &config.OAuth{ClientID: "cfg-client", ClientSecret: "wrong\x1b[31m"}), oauth.Options{Store: newStore(t)})
	var se *oauth.StepError
	if !errors.As(err, &se) || se.Step != oauth.StepToken || !strings.Contains(err.Error(), "wrong client secret") || !strings.Contains(err.Error(), as.AS.URL+"/token") {
		t.Fatalf("Login = %v; want a token step error at %s/token with the server's text", err, as.AS.URL)
	}
	if strings.Contains(err.Error(), "\x1b") {
		t.Errorf("the error carries an escape: %q", err)
	}
}

func TestNeedsLoginWithoutAToken(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{})
	ev, _ := connect(t, spec(as, nil), newStore(t))
	if ev.State != mcpsession.Failed || !ev.NeedsLogin || ev.Err != "needs login: run mcplens login mcp.json prot" {
		t.Fatalf("connect without a token: state %v, needs login %v, err %q; want the login hint", ev.State, ev.NeedsLogin, ev.Err)
	}
}

func TestRefreshAfterExpiry(t *testing.T) {
	// Tokens of 2s are within x/oauth2's 10s margin: each is refreshed
	// before its first use.
	as := oauthtest.Start(t, oauthtest.Config{TokenLifetime: 2 * time.Second})
	store := newStore(t)
	s := spec(as, nil)
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	before, _ := store.Get(as.MCPURL, "")
	ev, _ := connect(t, s, store)
	if ev.State != mcpsession.Ready {
		t.Fatalf("connect: %v %q; want ready", ev.State, ev.Err)
	}
	_, refreshes, _, _, _ := as.Snapshot()
	after, _ := store.Get(as.MCPURL, "")
	if refreshes == 0 || after.Token.AccessToken == before.Token.AccessToken {
		t.Errorf("refreshes = %d, token replaced = %v; want a refresh, kept", refreshes, after.Token.AccessToken != before.Token.AccessToken)
	}
}

func TestRefreshRefusedNeedsLogin(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{TokenLifetime: 2 * time.Second})
	store := newStore(t)
	s := spec(as, nil)
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	e, _ := store.Get(as.MCPURL, "")
	e.Token.RefreshToken = "revoked"
	if err := store.Put(e); err != nil {
		t.Fatal(err)
	}
	ev, _ := connect(t, s, store)
	if !ev.NeedsLogin || !strings.Contains(ev.Err, "oauth refresh at "+as.AS.URL+"/token failed") || !strings.Contains(ev.Err, "unknown refresh token") {
		t.Fatalf("connect with a revoked refresh token: needs login %v, err %q", ev.NeedsLogin, ev.Err)
	}
}

func TestScopeStepUp(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Scopes: []string{"read", "write"}, MethodScopes: map[string]string{"tools/call": "write"}})
	store := newStore(t)
	s := spec(as, nil)
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, auth, _ := as.Snapshot(); auth.Get("scope") != "read" {
		t.Errorf("first login asked for scope %q, want the challenge's %q", auth.Get("scope"), "read")
	}
	ev, sess := connect(t, s, store)
	if ev.State != mcpsession.Ready {
		t.Fatalf("connect: %v %q", ev.State, ev.Err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := sess.Call(ctx, "prot", "whoami", nil)
	var nl *oauth.NeedsLoginError
	if !errors.As(err, &nl) || !strings.Contains(err.Error(), "more scopes") {
		t.Fatalf("call needing write = %v; want a needs-login error for the scope", err)
	}
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	// A scope parameter is a set (RFC 6749 §3.3): the SDK unions the
	// scopes granted and challenged in no fixed order.
	if _, _, _, auth, _ := as.Snapshot(); scopeSet(auth.Get("scope")) != "read write" {
		t.Errorf("step-up login asked for scope %q, want the set %q", auth.Get("scope"), "read write")
	}
	ev, sess = connect(t, s, store)
	if ev.State != mcpsession.Ready {
		t.Fatalf("connect after step-up: %v %q", ev.State, ev.Err)
	}
	if res, err := sess.Call(ctx, "prot", "whoami", nil); err != nil || !bytes.Contains(res.Response, []byte("authorized")) {
		t.Fatalf("call after step-up = %s, %v; want authorized", res.Response, err)
	}
}

// scopeSet is a scope parameter's scopes, sorted.
func scopeSet(scope string) string {
	f := strings.Fields(scope)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// The 2025-03-26 path: no protected resource metadata, the authorization
// server at the MCP server's origin, with its metadata or with none (the
// default endpoints).
func TestLegacyServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  oauthtest.Config
	}{
		{"metadata at the origin", oauthtest.Config{Legacy: true}},
		{"default endpoints", oauthtest.Config{Legacy: true, NoMetadata: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.Start(t, tc.cfg)
			store := newStore(t)
			s := spec(as, nil)
			if err := login(t, s, oauth.Options{Store: store}); err != nil {
				log, _, _, _, _ := as.Snapshot()
				t.Fatalf("Login: %v\nserver log: %q", err, log)
			}
			e, _ := store.Get(as.MCPURL, "")
			if e == nil || e.TokenURL != as.RS.URL+"/token" {
				t.Fatalf("entry = %+v; want the token endpoint at the server's origin", e)
			}
			if ev, _ := connect(t, s, store); ev.State != mcpsession.Ready {
				t.Fatalf("connect: %v %q", ev.State, ev.Err)
			}
		})
	}
}
