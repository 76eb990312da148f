package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/peak"
)

// maxPeakRSS is what `mcplens check --timeout 8s` may reach, at its peak,
// against a server that floods any one input.
const maxPeakRSS = 300 << 20

// floodConfig writes a config of the hostile server in mode beside one
// that behaves, and returns its path.
func floodConfig(t *testing.T, server, mode string, args ...string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ok":    map[string]any{"command": server, "args": []string{"-mode", "ok"}},
		"flood": map[string]any{"command": server, "args": append([]string{"-mode", mode}, args...)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), mode+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// measure runs the mcplens binary with args and returns its peak RSS,
// exit code and output.
func measure(t *testing.T, lens string, args ...string) (rss int64, code int, out string) {
	t.Helper()
	cmd := exec.Command(lens, args...)
	var b strings.Builder
	cmd.Stdout, cmd.Stderr = &b, &b
	rss, err := peak.Run(cmd)
	if rss == 0 {
		t.Fatalf("mcplens %s: %v", strings.Join(args, " "), err)
	}
	return rss, exitCode(err), b.String()
}

// TestCheckMemoryBounded runs `mcplens check --timeout 8s` against each
// stdio server that floods what mcplens reads and measures its peak RSS:
// under 300 MB, the flooding server failed naming the limit it crossed,
// and the server beside it fine.
func TestCheckMemoryBounded(t *testing.T) {
	lens, server := build(t, ".."), build(t, "../testdata/servers/hostile")
	for _, tt := range []struct {
		name, mode string
		args       []string
		err        string
	}{
		{"stdout without a newline", "no-newline", nil,
			"initialize: a line of stdout is over the 16MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"},
		{"one 200 MB line", "huge-line", nil,
			"listing tools: a line of stdout is over the 16MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"},
		{"one 1 GB line", "huge-line", []string{"-size", "1000000000"},
			"listing tools: a line of stdout is over the 16MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"},
		{"40 pages of 15 MB", "huge-pages", nil,
			"listing tools: tools/list page 5: the listing is over the 64MiB listing limit; raise it with --limit listing=SIZE or MCPLENS_LIMIT_LISTING"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			rss, code, out := measure(t, lens, "check", "--timeout", "8s", floodConfig(t, server, tt.mode, tt.args...))
			t.Logf("%s: peak RSS of check %s", tt.name, peak.MiB(rss))
			if rss > maxPeakRSS {
				t.Errorf("%s: peak RSS %s, want under %s", tt.name, peak.MiB(rss), peak.MiB(maxPeakRSS))
			}
			if code != exitFound || !strings.Contains(out, tt.err) {
				t.Errorf("exit %d, output:\n%s\nwant exit %d naming the limit: %q", code, out, exitFound, tt.err)
			}
			if !strings.Contains(out, "● ok  ok  ") {
				t.Errorf("the server beside the flood is not ok:\n%s", out)
			}
		})
	}
}

// TestCallMemoryBounded runs `mcplens call` on a tool whose result is a
// 500 MB line: the call fails at once naming the line limit (exit 1), the
// answer's start is printed marked as cut, and the peak RSS stays under
// 300 MB. So does an isError answer over the line limit, which is no
// longer shown as a clean result.
func TestCallMemoryBounded(t *testing.T) {
	lens, server := build(t, ".."), build(t, "../testdata/servers/hostile")
	for _, mode := range []string{"huge-result", "huge-error-result"} {
		t.Run(mode, func(t *testing.T) {
			rss, code, out := measure(t, lens, "call", "--timeout", "8s", floodConfig(t, server, mode), "mcp__flood__echo", "--policy", "lionagi")
			t.Logf("%s: peak RSS of call %s", mode, peak.MiB(rss))
			if rss > maxPeakRSS {
				t.Errorf("peak RSS %s, want under %s", peak.MiB(rss), peak.MiB(maxPeakRSS))
			}
			const over = `mcplens call: calling "echo" on flood: a line of stdout is over the 16MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE`
			if code != exitFound || !strings.Contains(out, over) || strings.Contains(out, "result (isError") {
				t.Errorf("exit %d, output:\n%.2000s\nwant exit %d, %q and no result", code, out, exitFound, over)
			}
			var response string
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "← flood ") {
					response = line
				}
			}
			if !strings.HasPrefix(response, `← flood {"jsonrpc":"2.0","id":`) || !strings.Contains(response, "… [cut: 65536 of over ") {
				t.Errorf("response frame %.200q…%q, want its start marked as cut", response, response[max(0, len(response)-60):])
			}
		})
	}
}
