package oauth_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/oauth"
)

// handshake are the methods a server that challenges tools/list first lets
// through without a token.
var handshake = []string{"initialize", "notifications/initialized"}

// connectLogin opens a session whose transport logs in itself when a
// request is refused (check --login), with a browser that follows the URL.
func connectLogin(t *testing.T, s config.ServerSpec, store *oauth.Store) (mcpsession.Event, *loader.Session) {
	t.Helper()
	cfg := &config.Config{Path: "mcp.json", Servers: []config.ServerSpec{s}}
	o := oauth.Options{Store: store, Config: cfg.Path, Login: true, Open: oauthtest.Follow, Show: func(string) {}}
	sess := loader.Open(cfg, loader.Options{Timeout: 15 * time.Second, HTTPAuth: func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper {
		return oauth.NewTransport(spec, next, o)
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

// A server that lets server/discover and initialize through and challenges
// tools/list: login follows the tools/list challenge and its scope, not
// scopes_supported.
func TestLoginChallengeOfToolsList(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Open: append(handshake, "server/discover"), Scopes: []string{"mcp:basic", "mcp:other"}})
	store := newStore(t)
	s := spec(as, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	asked, err := oauth.LoginIfAsked(ctx, s, oauth.Options{Store: store, Open: oauthtest.Follow, Show: func(string) {}})
	if err != nil || !asked {
		t.Fatalf("LoginIfAsked = %v, %v; want a login from the tools/list challenge", asked, err)
	}
	if _, _, _, auth, _ := as.Snapshot(); auth.Get("scope") != "mcp:basic" {
		t.Errorf("login asked for scope %q, want the tools/list challenge's %q", auth.Get("scope"), "mcp:basic")
	}
	if ev, _ := connect(t, s, store); ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
		t.Fatalf("connect: %v %q, %d tools", ev.State, ev.Err, len(ev.Tools))
	}
}

// A server that asks nothing of server/discover, initialize and tools/list
// is not logged in to by LoginIfAsked (check --login leaves it to the transport).
func TestLoginIfAskedNotAsked(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Open: append(handshake, "tools/list", "server/discover")})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	asked, err := oauth.LoginIfAsked(ctx, spec(as, nil), oauth.Options{Store: newStore(t), Open: oauthtest.Follow})
	if err != nil || asked {
		t.Fatalf("LoginIfAsked = %v, %v; want no login", asked, err)
	}
	if n, _, _ := as.Counts(); n != 0 {
		t.Errorf("%d authorization requests, want none", n)
	}
}

// Under --login the transport logs in from the first refusal (tools/list's
// 401) and steps up on a call's 403 insufficient_scope with the scopes
// held and asked, then sends each refused request once more.
func TestTransportLoginAndStepUp(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Open: handshake, Scopes: []string{"mcp:basic"},
		MethodScopes: map[string]string{"tools/call": "mcp:write"}})
	store := newStore(t)
	s := spec(as, nil)
	ev, sess := connectLogin(t, s, store)
	if ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
		log, _, _, _, _ := as.Snapshot()
		t.Fatalf("connect: %v %q, %d tools\nserver log: %q", ev.State, ev.Err, len(ev.Tools), log)
	}
	if _, _, _, auth, _ := as.Snapshot(); auth.Get("scope") != "mcp:basic" {
		t.Errorf("first login asked for scope %q, want the tools/list challenge's", auth.Get("scope"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := sess.Call(ctx, "prot", "whoami", nil)
	if err != nil || !bytes.Contains(res.Response, []byte("authorized")) {
		t.Fatalf("call = %s, %v; want authorized after the step-up", res.Response, err)
	}
	n, _, _ := as.Counts()
	_, _, _, auth, _ := as.Snapshot()
	if n != 2 || scopeSet(auth.Get("scope")) != "mcp:basic mcp:write" {
		t.Errorf("%d authorizations, the last for %q; want 2, the step-up for the union mcp:basic mcp:write", n, auth.Get("scope"))
	}
	e, _ := store.Get(as.MCPURL, "")
	if e == nil || e.Issuer != as.AS.URL {
		t.Errorf("stored entry %+v; want the issuer %s", e, as.AS.URL)
	}
}

// A server that never grants the scope it asks for is asked no more than
// three times, however often it is called, and the call says why.
func TestTransportLoginLimit(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Scopes: []string{"mcp:basic"}, Withhold: []string{"mcp:admin"},
		MethodScopes: map[string]string{"tools/call": "mcp:admin"}})
	ev, sess := connectLogin(t, spec(as, nil), newStore(t))
	if ev.State != mcpsession.Ready {
		t.Fatalf("connect: %v %q", ev.State, ev.Err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 5 {
		_, err := sess.Call(ctx, "prot", "whoami", nil)
		var nl *oauth.NeedsLoginError
		if !errors.As(err, &nl) || !strings.Contains(err.Error(), "mcp:admin") {
			t.Fatalf("call = %v; want a needs-login error naming mcp:admin", err)
		}
	}
	if n, _, _ := as.Counts(); n > 3 {
		t.Errorf("%d authorization requests, want at most 3", n)
	}
}

// Without --login a refusal mid-session is a needs-login error, never a
// login.
func TestTransportWithoutLoginNeverLogsIn(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Open: handshake})
	ev, _ := connect(t, spec(as, nil), newStore(t))
	if !ev.NeedsLogin {
		t.Fatalf("connect: %v %q; want needs login from the tools/list refusal", ev.State, ev.Err)
	}
	if n, _, _ := as.Counts(); n != 0 {
		t.Errorf("%d authorization requests, want none", n)
	}
}

// Refused says the server's last refusal, typed, for a caller that fell
// back from the refused request (a server/discover probe) to another.
func TestTransportRefused(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{})
	s := spec(as, nil)
	tr := oauth.NewTransport(s, http.DefaultTransport, oauth.Options{Store: newStore(t), Config: "mcp.json"})
	if tr.Refused() != nil {
		t.Fatalf("Refused before any request = %v", tr.Refused())
	}
	req, _ := http.NewRequest(http.MethodPost, as.MCPURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`))
	_, err := tr.RoundTrip(req)
	var nl *oauth.NeedsLoginError
	if !errors.As(err, &nl) || !errors.As(tr.Refused(), &nl) || !nl.NeedsLogin() {
		t.Fatalf("a refused probe: %v, Refused %v; want the needs-login error from both", err, tr.Refused())
	}
}

// A server that speaks 2026-07-28 alone refuses the server/discover probe
// with a 401 and initialize, the fallback, with a 400: it needs a login,
// not "a legacy server".
func TestDiscoverRefusedNeedsLogin(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{NoInitialize: true})
	s := spec(as, nil)
	cfg := &config.Config{Path: "mcp.json", Servers: []config.ServerSpec{s}}
	store := newStore(t)
	hs := model.NeutralHandshake()
	hs.ProtocolVersion = model.Revision20260728
	sess := loader.Open(cfg, loader.Options{Timeout: 10 * time.Second, Handshake: hs,
		HTTPAuth: func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper {
			return oauth.NewTransport(spec, next, oauth.Options{Store: store, Config: cfg.Path})
		}})
	t.Cleanup(func() { sess.Close() })
	for ev := range sess.Events() {
		if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			if !ev.NeedsLogin || !strings.Contains(ev.Err, "needs login") || strings.Contains(ev.Err, "legacy") {
				t.Fatalf("connect: %v, needs login %v, %q; want needs login", ev.State, ev.NeedsLogin, ev.Err)
			}
			return
		}
	}
	t.Fatal("the session ended before the server settled")
}

// A server that speaks 2026-07-28 alone refuses login's server/discover
// probe: that challenge is followed before any connect (check --login).
func TestLoginChallengeOfDiscover(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{NoInitialize: true, Scopes: []string{"mcp:basic", "mcp:other"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	asked, err := oauth.LoginIfAsked(ctx, spec(as, nil), oauth.Options{Store: newStore(t), Open: oauthtest.Follow, Show: func(string) {}})
	if err != nil || !asked {
		t.Fatalf("LoginIfAsked = %v, %v; want a login from the server/discover challenge", asked, err)
	}
	if _, _, _, auth, _ := as.Snapshot(); auth.Get("scope") != "mcp:basic" {
		t.Errorf("login asked for scope %q, want the challenge's", auth.Get("scope"))
	}
}
