package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// countingServer is an MCP server over streamable HTTP with a tool "add"
// taking the integers a and b; calls counts the tools/call requests that
// reached it.
func countingServer(t *testing.T) (url string, calls func() int) {
	t.Helper()
	srv := server.NewMCPServer("adder", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("add", mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("got %v", req.GetArguments())), nil
		})
	handler := server.NewStreamableHTTPServer(srv)
	var mu sync.Mutex
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			mu.Lock()
			n++
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// TestCallValidates: arguments that break the tool's input schema are
// refused with each violation's JSON pointer, exit 2, and nothing reaches
// the server; --no-validate sends them.
func TestCallValidates(t *testing.T) {
	url, calls := countingServer(t)
	code, out, errb := runCalled(t, "", "add", "--url", url, "--args", `{"a":"one"}`)
	if code != exitUsage || !strings.Contains(errb, "nothing was sent") || !strings.Contains(errb, "  /a: ") || !strings.Contains(errb, "(root): ") {
		t.Errorf("exit %d, want %d with /a and the missing b named:\n%s---\n%s", code, exitUsage, out, errb)
	}
	if n := calls(); n != 0 || strings.Contains(out, "→ ") {
		t.Errorf("%d tools/call reached the server, frames printed:\n%s; want none", n, out)
	}
	code, out, errb = runCalled(t, "", "add", "--url", url, "--args", `{"a":"one"}`, "--no-validate")
	if n := calls(); n != 1 || !strings.Contains(out, "→ 127-0-0-1 ") {
		t.Errorf("--no-validate: exit %d, %d tools/call sent, want 1:\n%s---\n%s", code, n, out, errb)
	}
	if code, out, errb := runCalled(t, "", "add", "--url", url, "--arg", "a=1", "--arg", "b=2"); code != exitOK || !strings.Contains(out, "got map[a:1 b:2]") {
		t.Errorf("valid arguments: exit %d:\n%s---\n%s", code, out, errb)
	}
}

// TestCallReplay: --replay makes the calls of a history file again, in
// order, each on its server; a record of a server the config has not is
// refused before anything starts.
func TestCallReplay(t *testing.T) {
	url, calls := countingServer(t)
	cfg := writeConfig(t, fmt.Sprintf(`"adder": {"url": %q}`, url))
	dir := t.TempDir()
	file := filepath.Join(dir, "calls.jsonl")
	lines := `{"time":"2026-01-02T03:04:05Z","server":"adder","tool":"add","arguments":{"a":1,"b":2},"latencyMs":3}
{"time":"2026-01-02T03:04:06Z","server":"adder","tool":"add","arguments":{"a":40,"b":2},"latencyMs":3}
`
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errb := runCalled(t, "", cfg, "--replay", file, "--config-format", "cursor")
	if code != exitOK || calls() != 2 {
		t.Fatalf("exit %d, %d calls; want 0 and 2:\n%s---\n%s", code, calls(), out, errb)
	}
	first, second := strings.Index(out, "got map[a:1 b:2]"), strings.Index(out, "got map[a:40 b:2]")
	if first < 0 || second < first || !strings.Contains(out, "call 2 of 2 from "+file) {
		t.Errorf("the replayed calls are not both there in order:\n%s", out)
	}
	other := filepath.Join(dir, "other.jsonl")
	if err := os.WriteFile(other, []byte(strings.ReplaceAll(lines, `"adder"`, `"gone"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errb := runCalled(t, "", cfg, "--replay", other); code != exitUsage || !strings.Contains(errb, "[gone]") {
		t.Errorf("replaying calls of a server not in the config: exit %d, %s; want a usage error naming gone", code, errb)
	}
	if code, _, _ := runCalled(t, "", cfg, "add", "--replay", file); code != exitUsage {
		t.Errorf("NAME with --replay: exit %d, want %d", code, exitUsage)
	}
}
