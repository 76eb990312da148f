package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// writeConfig writes a Cursor config holding servers (JSON members) and
// returns its path.
func writeConfig(t *testing.T, servers string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+servers+`}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCallMasksSecrets: what call prints quotes no secret of the config,
// whether a server that failed to connect quotes its URL with a token in
// the query, a call fails with a body that echoes the configured
// X-Api-Key, or a result echoes it.
func TestCallMasksSecrets(t *testing.T) {
	mcpSrv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(true))
	for _, name := range []string{"echo", "whoami"} {
		mcpSrv.AddTool(mcp.NewTool(name), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	}
	handler := server.NewStreamableHTTPServer(mcpSrv)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct{ Name string }
		}
		_ = json.Unmarshal(body, &req)
		switch {
		case req.Method == "tools/call" && req.Params.Name == "whoami":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"you sent %s"}]}}`, req.ID, r.Header.Get("X-Api-Key"))
			return
		case req.Method == "tools/call":
			http.Error(w, "rejected "+r.Header.Get("X-Api-Key"), http.StatusInternalServerError)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler.ServeHTTP(w, r)
	}))
	defer echo.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // the connect error quotes the URL

	cfg := writeConfig(t, fmt.Sprintf(`
		"echo": {"url": %q, "headers": {"X-Api-Key": "HEADERVALUE77"}},
		"gone": {"url": %q}`, echo.URL+"/mcp", gone.URL+"/mcp?token=QTOKEN43"))
	for _, tt := range []struct {
		name, tool, want string
		code             int
	}{
		{"call fails", "echo", "rejected ****", exitFound},
		{"no such tool", "nosuch", "/mcp?token=****", exitUsage},
		{"result echoes", "whoami", "you sent ****", exitOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := runCalled(t, "", cfg, tt.tool, "--config-format", "cursor", "--timeout", "20s")
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, out, errb)
			}
			for _, secret := range []string{"HEADERVALUE77", "QTOKEN43"} {
				if strings.Contains(out+errb, secret) {
					t.Errorf("call prints the secret %s:\nstdout:\n%s\nstderr:\n%s", secret, out, errb)
				}
			}
			if !strings.Contains(out+errb, tt.want) {
				t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tt.want, out, errb)
			}
		})
	}
}

// TestCheckListsProtocolAndConfigFindings runs check on a config whose
// servers write junk on stdout, answer ids nobody asked for, and start
// with an unset ${env:...} and a key the client does not read: every
// format lists those findings, at warning, and --fail-on warning fails.
func TestCheckListsProtocolAndConfigFindings(t *testing.T) {
	bin := build(t, "../testdata/servers/hostile")
	os.Unsetenv("MCPLENS_TEST_UNSET")
	cfg := writeConfig(t, fmt.Sprintf(`
		"junk": {"command": %[1]q, "args": ["-mode", "junk"]},
		"stray": {"command": %[1]q, "args": ["-mode", "stray"]},
		"envy": {"command": %[1]q, "args": ["-mode", "ok", "-token", "${env:MCPLENS_TEST_UNSET}"], "bogus": true}`, bin))
	base := []string{cfg, "--config-format", "cursor", "--policy", "qwen", "--providers", "openai"}

	code, out, errb := runChecked(t, append(base, "--format", "json", "--fail-on", "warning")...)
	if code != exitFound {
		t.Errorf("--fail-on warning: exit %d, want %d\n%s%s", code, exitFound, out, errb)
	}
	var r struct {
		Findings []struct{ Level, Kind, Server, Evidence string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, out)
	}
	found := map[string]int{}
	for _, f := range r.Findings {
		found[f.Kind+" "+f.Server]++
		if (f.Kind == "protocol" || f.Kind == "config") && f.Level != "warning" {
			t.Errorf("%s finding on %s at %s, want warning", f.Kind, f.Server, f.Level)
		}
	}
	for _, want := range []string{"protocol junk", "protocol stray", "config envy"} {
		if found[want] == 0 {
			t.Errorf("the JSON report has no %q finding: %v", want, r.Findings)
		}
	}
	for _, format := range []string{"text", "markdown"} {
		_, out, _ := runChecked(t, append(base, "--format", format, "--fail-on", "never")...)
		for _, want := range []string{"hostile banner", "9999", "bogus", "MCPLENS\\_TEST\\_UNSET"} {
			if format == "text" {
				want = strings.ReplaceAll(want, `\_`, "_")
			}
			if !strings.Contains(out, want) {
				t.Errorf("the %s report does not list the finding on %q:\n%s", format, want, out)
			}
		}
	}
}
