package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
)

// TestLoginHostileAuthorizationEndpoint: mcplens login against an
// authorization server whose metadata names an ms-msdt: or file: endpoint
// fails with the reason, and $BROWSER (a real script) never runs.
func TestLoginHostileAuthorizationEndpoint(t *testing.T) {
	b := browsertest.New(t)
	for _, tc := range []struct{ endpoint, reason string }{
		{"ms-msdt://localhost/x", `not opened in a browser: its scheme "ms-msdt" is neither https nor http to a loopback host`},
		{"file:///etc/shadow", "authorization_endpoint"},
	} {
		as := oauthtest.Start(t, oauthtest.Config{AuthorizationEndpoint: tc.endpoint})
		dir := t.TempDir()
		cfg := filepath.Join(dir, ".mcp.json")
		write(t, cfg, `{"mcpServers":{"prot":{"type":"http","url":"`+as.MCPURL+`"}}}`)
		t.Setenv("MCPLENS_TOKENS", filepath.Join(dir, "tokens.json"))
		var out, errb bytes.Buffer
		code := runLogin([]string{cfg, "prot"}, &out, &errb)
		if code != exitFound || !strings.Contains(errb.String(), tc.reason) || strings.Contains(out.String(), "visit") {
			t.Errorf("login with authorization_endpoint %s: exit %d\nstdout: %s\nstderr: %s\nwant exit %d, the reason %q, no URL to visit",
				tc.endpoint, code, out.String(), errb.String(), exitFound, tc.reason)
		}
	}
	if calls := b.Calls(); len(calls) > 0 {
		t.Errorf("$BROWSER ran: %q", calls)
	}
}

// TestLoginSharedTokenFolder: MCPLENS_TOKENS in a world-writable sticky
// folder (as /tmp): login keeps the token there, 0600, and leaves the
// folder's mode as it was.
func TestLoginSharedTokenFolder(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{})
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".mcp.json")
	write(t, cfg, `{"mcpServers":{"prot":{"type":"http","url":"`+as.MCPURL+`"}}}`)
	browser := filepath.Join(dir, "browser")
	write(t, browser, "#!/bin/sh\nexec curl -sSL -o /dev/null \"$1\"\n")
	if err := os.Chmod(browser, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", browser)
	tokens := filepath.Join(shared, "t.json")
	t.Setenv("MCPLENS_TOKENS", tokens)
	var out, errb bytes.Buffer
	if code := runLogin([]string{cfg, "prot"}, &out, &errb); code != exitOK {
		t.Fatalf("login: exit %d\n%s%s", code, out.String(), errb.String())
	}
	for path, want := range map[string]fs.FileMode{shared: 0o777 | fs.ModeSticky, tokens: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (fs.ModePerm | fs.ModeSticky); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
	}
}
