package oauth_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/oauth"
)

// A 2025-03-26 server whose metadata, at its origin's root, names an
// issuer under its origin (/oauth) and its endpoints there: logged in to
// as the reference SDKs do, the iss of its answer read alike.
func TestLegacyIssuerUnderAPath(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Legacy: true, LegacyPath: "/oauth"})
	store := newStore(t)
	s := spec(as, nil)
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		log, _, _, _, _ := as.Snapshot()
		t.Fatalf("Login: %v\nserver log: %q", err, log)
	}
	e, _ := store.Get(as.MCPURL, "")
	if e == nil || e.TokenURL != as.RS.URL+"/oauth/token" || e.Issuer != as.RS.URL {
		t.Fatalf("entry = %+v; want the token endpoint under /oauth, the issuer the origin", e)
	}
	if ev, _ := connect(t, s, store); ev.State != mcpsession.Ready {
		t.Fatalf("connect: %v %q", ev.State, ev.Err)
	}
}

// The issuer checks of 2025-06-18 and later stay: a server with protected
// resource metadata whose authorization server's metadata names another
// issuer, or a wrong iss in the answer, is refused.
func TestIssuerChecksKept(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cfg        oauthtest.Config
		pathIssuer bool   // the metadata names an issuer under the server's path
		issuer     string // the metadata names this issuer
	}{
		{name: "metadata issuer under a path", pathIssuer: true},
		{name: "wrong iss", cfg: oauthtest.Config{WrongIss: true}},
		{name: "legacy, wrong iss", cfg: oauthtest.Config{Legacy: true, LegacyPath: "/oauth", WrongIss: true}},
		{name: "legacy, issuer of another origin", cfg: oauthtest.Config{Legacy: true, LegacyPath: "/oauth"}, issuer: "https://as.example/oauth"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.Start(t, tc.cfg)
			if tc.pathIssuer {
				as.SetMetadataIssuer(as.AS.URL + "/oauth")
			}
			if tc.issuer != "" {
				as.SetMetadataIssuer(tc.issuer)
			}
			err := login(t, spec(as, nil), oauth.Options{Store: newStore(t)})
			if err == nil || !strings.Contains(err.Error(), "issuer") {
				t.Fatalf("Login = %v; want an issuer mismatch", err)
			}
			if n, _, _ := as.Counts(); (tc.pathIssuer || tc.issuer != "") && n != 0 {
				t.Errorf("%d authorization requests after metadata naming another issuer, want none", n)
			}
		})
	}
}

// The authorization server moved: the stored token is refused, and the
// login that follows discovers the new one and registers there, never
// sending it the old one's client.
func TestAuthorizationServerMoved(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Scopes: []string{"mcp:basic"}})
	store := newStore(t)
	s := spec(as, nil)
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	old, _ := store.Get(as.MCPURL, "")
	as.Move(t)
	if ev, _ := connect(t, s, store); !ev.NeedsLogin {
		t.Fatalf("connect with the old server's token: %v %q; want needs login", ev.State, ev.Err)
	}
	ev, _ := connectLogin(t, s, store)
	if ev.State != mcpsession.Ready {
		log, _, _, _, _ := as.Snapshot()
		t.Fatalf("connect --login after the move: %v %q\nserver log: %q", ev.State, ev.Err, log)
	}
	e, _ := store.Get(as.MCPURL, "")
	if _, stale, _ := as.Counts(); stale != 0 || e.ClientID == old.ClientID || e.Issuer == old.Issuer || e.Issuer == "" {
		t.Errorf("after the move: %d requests with the old client, entry client %q issuer %q (was %q, %q)", stale, e.ClientID, e.Issuer, old.ClientID, old.Issuer)
	}
}

// Registration says application_type native for the loopback redirect;
// offline_access is asked only of a server that advertises it.
func TestRegistrationAndOfflineAccess(t *testing.T) {
	for _, tc := range []struct {
		scopes  []string
		offline bool
	}{{[]string{"mcp:basic"}, false}, {[]string{"mcp:basic", "offline_access"}, true}} {
		as := oauthtest.Start(t, oauthtest.Config{Scopes: tc.scopes})
		if err := login(t, spec(as, nil), oauth.Options{Store: newStore(t)}); err != nil {
			t.Fatal(err)
		}
		_, _, _, auth, _ := as.Snapshot()
		if got := strings.Contains(auth.Get("scope"), "offline_access"); got != tc.offline {
			t.Errorf("scopes_supported %v: asked for %q; offline_access asked %v, want %v", tc.scopes, auth.Get("scope"), got, tc.offline)
		}
		if _, _, typ := as.Counts(); typ != "native" {
			t.Errorf("application_type = %q, want native", typ)
		}
	}
}

// A pre-registered client is bound to the authorization server it was
// used with: once the server's moved, login fails at registration naming
// both issuers, and the new one never sees the client.
func TestPreRegisteredClientBoundToIssuer(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Clients: map[string]string{"cfg-client": "s3cret"}, NoRegistration: true})
	store := newStore(t)
	s := spec(as, &config.OAuth{ClientID: "cfg-client", ClientSecret: "s3cret"})
	if err := login(t, s, oauth.Options{Store: store}); err != nil {
		t.Fatal(err)
	}
	before, _, _ := as.Counts()
	as.Move(t)
	err := login(t, s, oauth.Options{Store: store})
	var se *oauth.StepError
	if !errors.As(err, &se) || se.Step != oauth.StepRegistration || !strings.Contains(err.Error(), "issuer") {
		t.Fatalf("login after the move = %v; want a registration error naming the issuers", err)
	}
	if after, _, _ := as.Counts(); after != before {
		t.Errorf("%d authorization requests after the move, want none", after-before)
	}
}

// A client ID metadata document's URL is an https URL with a path, no
// user information, fragment or dot segment, and within its bound.
func TestCheckClientMetadataURL(t *testing.T) {
	for _, ok := range []string{"", "https://mcplens.example/client.json", "https://conformance-test.local/client-metadata.json"} {
		if err := oauth.CheckClientMetadataURL(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://mcplens.example/client.json", "https://mcplens.example", "https://mcplens.example/",
		"https://user:pw@mcplens.example/c.json", "https://mcplens.example/c.json#x", "https://mcplens.example/a/../c.json",
		"file:///etc/passwd", "https:///c.json", "https://mcplens.example/" + strings.Repeat("a", 3000), "https://mcplens.example/c\x1b[31m.json"} {
		err := oauth.CheckClientMetadataURL(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if strings.ContainsAny(err.Error(), "\x1b") || strings.Contains(err.Error(), "pw@") {
			t.Errorf("%q: the error %q is unsanitized or shows the password", bad, err)
		}
	}
}
