package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
)

// TestLoginCommands runs the whole round with the commands a user types:
// check finds the server needing login (a warning, an error under
// --fail-on warning), login runs the flow with $BROWSER a script that
// fetches the URL with curl, check then lists the server, auth status
// never shows the token, and logout forgets it.
func TestLoginCommands(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Config{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".mcp.json")
	write(t, cfg, `{"mcpServers":{"prot":{"type":"http","url":"`+as.MCPURL+`"}}}`)
	static := filepath.Join(dir, "static.mcp.json")
	write(t, static, `{"mcpServers":{"static":{"type":"http","url":"`+as.MCPURL+`","headers":{"Authorization":"Bearer from-config"}}}}`)
	browser := filepath.Join(dir, "browser")
	write(t, browser, "#!/bin/sh\nexec curl -sSL -o /dev/null \"$1\"\n")
	if err := os.Chmod(browser, 0o755); err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(dir, "config", "mcplens", "oauth-tokens.json")
	t.Setenv("MCPLENS_TOKENS", tokens)
	t.Setenv("BROWSER", browser)

	cmd := func(f func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := f(args, &out, &errb)
		return code, out.String() + errb.String()
	}
	check := func(args []string, out, errb *bytes.Buffer) int { return runCheck(args, nil, out, errb) }
	login := func(args []string, out, errb *bytes.Buffer) int { return runLogin(args, out, errb) }
	logout := func(args []string, out, errb *bytes.Buffer) int { return runLogout(args, out, errb) }
	auth := func(args []string, out, errb *bytes.Buffer) int { return runAuth(args, out, errb) }

	code, out := cmd(check, cfg)
	if code != exitOK || !strings.Contains(out, "prot  needs login") ||
		!strings.Contains(out, "needs login: run mcplens login "+cfg+" prot") {
		t.Fatalf("check before login: exit %d\n%s\nwant prot needing login, a warning", code, out)
	}
	if _, out := cmd(check, static); !strings.Contains(out, "static  failed") || strings.Contains(out, "needs login") {
		t.Errorf("check: the server with its own Authorization header should fail on its own, not need login:\n%s", out)
	}
	if code, out := cmd(check, cfg, "--fail-on", "warning"); code != exitFound {
		t.Errorf("check --fail-on warning before login: exit %d, want %d\n%s", code, exitFound, out)
	}
	if code, out := cmd(login, static, "static"); code != exitUsage || !strings.Contains(out, "no Authorization header of its own") {
		t.Errorf("login to a server with a header: exit %d\n%s", code, out)
	}

	code, out = cmd(login, cfg, "prot")
	if code != exitOK || !strings.Contains(out, "prot: logged in") || !strings.Contains(out, as.AS.URL+"/authorize?") {
		t.Fatalf("login: exit %d\n%s\nwant logged in, the URL shown", code, out)
	}
	fi, err := os.Stat(tokens)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v; want mode 0600", fi, err)
	}

	code, out = cmd(check, cfg, "--fail-on", "warning", "--format", "json")
	if !strings.Contains(out, `"whoami"`) || strings.Contains(out, "needs login") {
		t.Fatalf("check after login: exit %d\n%s\nwant prot listed", code, out)
	}
	stored, _ := os.ReadFile(tokens)
	for _, secretish := range []string{"at-", "rt-"} {
		i := bytes.Index(stored, []byte(secretish))
		if i < 0 {
			t.Fatalf("no %s token in the store", secretish)
		}
		tok := string(stored[i : i+16])
		if strings.Contains(out, tok) {
			t.Errorf("check's report shows a token")
		}
		if _, st := cmd(auth, "status", cfg); strings.Contains(st, tok) {
			t.Errorf("auth status shows a token")
		}
	}
	if code, out := cmd(auth, "status", cfg); code != exitOK || !strings.Contains(out, "prot\tlogged in (dynamic client)") ||
		strings.Contains(out, "static") {
		t.Errorf("auth status: exit %d\n%s", code, out)
	}

	if _, out := cmd(auth, "status", static); !strings.Contains(out, "static\tAuthorization header from the config") {
		t.Errorf("auth status of a server with a header:\n%s", out)
	}
	if code, out := cmd(logout, cfg); code != exitOK || !strings.Contains(out, "forgot 1 token(s)") {
		t.Errorf("logout: exit %d\n%s", code, out)
	}
	if _, out := cmd(auth, "status", cfg); !strings.Contains(out, "prot\tnot logged in") {
		t.Errorf("auth status after logout:\n%s", out)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
