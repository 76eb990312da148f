package oauth_test

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
	"github.com/mcplens/mcplens/oauth"
)

// TestTokenFolderModes: the folders the store makes are 0700 and the file
// 0600; a folder that was there keeps its mode, a world-writable sticky
// one (as /tmp) included.
func TestTokenFolderModes(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{})
	made := filepath.Join(t.TempDir(), "cfg", "mcplens")
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		path  string
		modes map[string]fs.FileMode // path → mode (permissions and sticky bit)
	}{
		{"folders made", filepath.Join(made, "oauth-tokens.json"), map[string]fs.FileMode{
			filepath.Dir(made): 0o700, made: 0o700, filepath.Join(made, "oauth-tokens.json"): 0o600}},
		{"a shared 1777 folder", filepath.Join(shared, "t.json"), map[string]fs.FileMode{
			shared: 0o777 | fs.ModeSticky, filepath.Join(shared, "t.json"): 0o600}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := oauth.NewStore(tc.path)
			if err := login(t, spec(as, nil), oauth.Options{Store: store}); err != nil {
				t.Fatal(err)
			}
			for path, want := range tc.modes {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode() & (fs.ModePerm | fs.ModeSticky); got != want {
					t.Errorf("%s: mode %v, want %v", path, got, want)
				}
			}
		})
	}
}

// TestLoginSlowTokenEndpoint: a token endpoint that never answers fails
// the login at the token step within the request bound, as a timeout.
func TestLoginSlowTokenEndpoint(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{StallToken: true})
	err := login(t, spec(as, nil), oauth.Options{Store: newStore(t), RequestTimeout: 300 * time.Millisecond})
	var se *oauth.StepError
	var ne net.Error
	if !errors.As(err, &se) || se.Step != oauth.StepToken || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Login with a stalled token endpoint = %v; want a timeout at the token step", err)
	}
	if !strings.Contains(err.Error(), "no answer within 300ms") {
		t.Errorf("the error should name the bound: %v", err)
	}
	if errors.Is(err, context.DeadlineExceeded) && !ne.Timeout() {
		t.Errorf("the login's own deadline ended it, not the request's bound: %v", err)
	}
}

// TestLoginPublicServerLoopbackMetadata: a server taken for a public one
// whose challenge names resource metadata on this machine, by address or
// by a name that resolves here (the dialer's check), is refused: the
// metadata server is never reached. The same server at its true, loopback,
// address logs in.
func TestLoginPublicServerLoopbackMetadata(t *testing.T) {
	var reached atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(target.Close)
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	for _, tc := range []struct{ name, metadata, want string }{
		{"by address", "http://127.0.0.1:" + port + "/.well-known/oauth-protected-resource", "refusing to request http://127.0.0.1:" + port},
		{"by name, at dial time", "http://localhost:" + port + "/.well-known/oauth-protected-resource", "refusing to connect to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.Start(t, oauthtest.Config{ResourceMetadata: tc.metadata})
			err := login(t, spec(as, nil), oauth.AsPublicServer(oauth.Options{Store: newStore(t)}))
			var se *oauth.StepError
			if !errors.As(err, &se) || se.Step != oauth.StepDiscovery || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "a loopback address, and the server is at a public address") {
				t.Errorf("Login = %v; want discovery refused: %q", err, tc.want)
			}
			if n := reached.Load(); n != 0 {
				t.Errorf("the loopback metadata server was reached %d times", n)
			}
		})
	}
	t.Run("a loopback server", func(t *testing.T) {
		as := oauthtest.Start(t, oauthtest.Config{})
		if err := login(t, spec(as, nil), oauth.Options{Store: newStore(t)}); err != nil {
			t.Errorf("Login of a server on this machine with its metadata here: %v", err)
		}
	})
}

// TestLoginHostileAuthorizationEndpoint: an authorization endpoint the
// opener refuses fails the login at the authorization step with the
// reason; it is neither shown to visit nor handed to $BROWSER (a real
// script).
func TestLoginHostileAuthorizationEndpoint(t *testing.T) {
	b := browsertest.New(t)
	for _, tc := range []struct{ endpoint, reason string }{
		{"ms-msdt://localhost/x", `scheme "ms-msdt"`},
		{"file:///etc/shadow", ""}, // the SDK refuses it first, as not https
		{"smb://host/share/x.exe", ""},
		{"http://example.com/authorize", ""},
		{"https://user:pw@example.com/authorize", "user information"},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			as := oauthtest.Start(t, oauthtest.Config{AuthorizationEndpoint: tc.endpoint})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var shown []string
			err := oauth.Login(ctx, spec(as, nil), oauth.Options{Store: newStore(t), Show: func(u string) { shown = append(shown, u) }})
			if err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("Login = %v; want a refusal saying %q", err, tc.reason)
			}
			if len(shown) > 0 {
				t.Errorf("the URL was shown to visit: %q", shown)
			}
		})
	}
	if calls := b.Calls(); len(calls) > 0 {
		t.Errorf("$BROWSER ran: %q", calls)
	}
}
