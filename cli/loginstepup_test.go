package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
)

// TestCallLoginStepUp: call --login on a server that lets initialize
// through, challenges tools/list with scope mcp:basic and refuses the call
// with a 403 insufficient_scope for mcp:write: the first login follows the
// tools/list challenge, the second asks the union and the call is sent
// again and succeeds; no token reaches stdout or stderr.
func TestCallLoginStepUp(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{Open: []string{"initialize", "notifications/initialized"},
		Scopes: []string{"mcp:basic"}, MethodScopes: map[string]string{"tools/call": "mcp:write"}})
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".mcp.json")
	write(t, cfg, `{"mcpServers":{"prot":{"type":"http","url":"`+as.MCPURL+`"}}}`)
	browser := filepath.Join(dir, "browser")
	write(t, browser, "#!/bin/sh\nexec curl -sSL -o /dev/null \"$1\"\n")
	if err := os.Chmod(browser, 0o755); err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(dir, "tokens.json")
	t.Setenv("MCPLENS_TOKENS", tokens)
	t.Setenv("BROWSER", browser)

	code, stdout, stderr := runCalled(t, "", cfg, "whoami", "--login")
	if code != exitOK || !strings.Contains(stdout, "authorized") {
		log, _, _, _, _ := as.Snapshot()
		t.Fatalf("call --login: exit %d\nstdout:\n%s\nstderr:\n%s\nserver log: %q", code, stdout, stderr, log)
	}
	if n, _, _ := as.Counts(); n != 2 || strings.Count(stderr, as.AS.URL+"/authorize?") != 2 {
		t.Errorf("%d authorizations, stderr:\n%s\nwant two URLs shown: the first login and the step-up", n, stderr)
	}
	stored, _ := os.ReadFile(tokens)
	for _, prefix := range []string{"at-", "rt-"} {
		i := strings.Index(string(stored), prefix)
		if i < 0 {
			t.Fatalf("no %s token in the store", prefix)
		}
		if tok := string(stored[i : i+16]); strings.Contains(stdout+stderr, tok) {
			t.Errorf("call's output shows a token")
		}
	}
	if code, _, stderr := runCalled(t, "", cfg, "whoami"); code != exitOK {
		t.Errorf("call without --login after the step-up: exit %d\n%s", code, stderr)
	}
}

// TestClientMetadataURLRefused: login, check and call refuse a
// --client-metadata-url that cannot name a client ID metadata document,
// as a usage error, before anything connects.
func TestClientMetadataURLRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".mcp.json")
	write(t, cfg, `{"mcpServers":{"prot":{"type":"http","url":"http://127.0.0.1:9/mcp"}}}`)
	bad := "http://mcplens.example/client.json"
	var out, errb strings.Builder
	if code := runLogin([]string{cfg, "--client-metadata-url", bad}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "not an https URL") {
		t.Errorf("login: exit %d\n%s", code, errb.String())
	}
	if code, _, stderr := runChecked(t, cfg, "--login", "--client-metadata-url", bad); code != exitUsage || !strings.Contains(stderr, "--client-metadata-url") {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCalled(t, "", cfg, "whoami", "--login", "--client-metadata-url", bad); code != exitUsage || !strings.Contains(stderr, "--client-metadata-url") {
		t.Errorf("call: exit %d\n%s", code, stderr)
	}
}
