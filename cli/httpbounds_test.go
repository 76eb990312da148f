package cli

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/internal/testkit/peak"
)

// The tests below run the mcplens binary against each mode of the hostile
// streamable HTTP server (internal/testkit/hostile), served by this test process
// on loopback beside a well-behaved one, with the default limits, and
// measure mcplens's peak resident memory: the figures of the README's
// "When servers misbehave".

// httpConfig writes a Claude Code config of HTTP servers, label to URL.
func httpConfig(t *testing.T, servers map[string]string) string {
	t.Helper()
	entries := map[string]any{}
	for label, url := range servers {
		typ := "http"
		if strings.Contains(url, "/sse-") {
			typ = "sse"
		}
		entries[label] = map[string]any{"type": typ, "url": url}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": entries})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runPeak runs the mcplens binary with args and returns its output and
// peak RSS.
func runPeak(t *testing.T, args ...string) (out string, rss int64) {
	t.Helper()
	var b bytes.Buffer
	cmd := exec.Command(build(t, ".."), args...)
	cmd.Stdout, cmd.Stderr = &b, &b
	rss, err := peak.Run(cmd)
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("mcplens %s: %v", strings.Join(args, " "), err)
	}
	return b.String(), rss
}

func TestHTTPFloodsBounded(t *testing.T) {
	ts := httptest.NewServer(hostile.HTTP())
	t.Cleanup(ts.Close)
	for _, tt := range []struct {
		mode, want string
	}{
		{"endless-body", "the body of the response to tools/list is over the 16MiB body limit; raise it with --limit body=SIZE or MCPLENS_LIMIT_BODY"},
		{"endless-event", "an event of the response to tools/list is over the 16MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
		{"listen-flood", "an event of the GET stream is over the 16MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
		{"sse-flood", "an event of the GET stream is over the 16MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
		{"gzip-bomb", "the body of the response to tools/list, decompressed, is over the 32MiB inflated limit; raise it with --limit inflated=SIZE or MCPLENS_LIMIT_INFLATED"},
		{"huge-error", "[cut: the body of the HTTP 500 response to tools/list is over the 64KiB error-body limit; raise it with --limit error-body=SIZE or MCPLENS_LIMIT_ERROR_BODY]"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			path := httpConfig(t, map[string]string{"fine": ts.URL + "/ok", "bad": ts.URL + "/" + tt.mode})
			out, rss := runPeak(t, "check", path, "--timeout", "8s")
			t.Logf("mcplens check against %s: peak RSS %s", tt.mode, peak.MiB(rss))
			if rss > maxPeakRSS {
				t.Errorf("peak RSS %s, want under %s", peak.MiB(rss), peak.MiB(maxPeakRSS))
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("the report does not say %q:\n%.3000s", tt.want, out)
			}
			if len(out) > 1<<20 {
				t.Errorf("the report is %d bytes", len(out))
			}
			if !strings.Contains(out, "mcp__fine__big") && !strings.Contains(out, "fine") {
				t.Errorf("the healthy server is not listed:\n%.3000s", out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, "fine") && strings.Contains(line, "failed") {
					t.Errorf("the healthy server failed: %s", line)
				}
			}
		})
	}
}

// TestHTTPCallBounded: `mcplens call` on a tool whose answer over HTTP
// never ends fails that call, naming the limit, and holds little memory.
func TestHTTPCallBounded(t *testing.T) {
	ts := httptest.NewServer(hostile.HTTP())
	t.Cleanup(ts.Close)
	for _, tt := range []struct {
		mode, want string
	}{
		{"endless-result", "the body of the response to tools/call is over the 16MiB body limit; raise it with --limit body=SIZE or MCPLENS_LIMIT_BODY"},
		{"endless-call-event", "an event of the response to tools/call is over the 16MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			path := httpConfig(t, map[string]string{"bad": ts.URL + "/" + tt.mode})
			out, rss := runPeak(t, "call", path, "big", "--timeout", "8s")
			t.Logf("mcplens call against %s: peak RSS %s", tt.mode, peak.MiB(rss))
			if rss > maxPeakRSS {
				t.Errorf("peak RSS %s, want under %s", peak.MiB(rss), peak.MiB(maxPeakRSS))
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("the call's output does not say %q:\n%.3000s", tt.want, out)
			}
		})
	}
}
