package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/loader/demo"
)

// recordDemo runs the demo server label through `mcplens tap`, driven by
// mcp-go's client as clientInfo name@version (driveDemo), and returns the
// recording's path.
func recordDemo(t *testing.T, bin, dir, label, name, version string, calls ...string) string {
	t.Helper()
	rec := filepath.Join(dir, label+".jsonl")
	cl, ctx := tapClient(t, bin, nil, "--name", label, "--record", rec, "--feed=false", "--", bin, demo.Subcommand, label)
	driveDemo(t, ctx, cl, name, version, calls...)
	cl.Close()
	return rec
}

// tapClient starts `mcplens tap ARGS...` (with env added) under mcp-go's
// client, and returns it, unstarted, with a context for its requests.
func tapClient(t *testing.T, bin string, env []string, args ...string) (*client.Client, context.Context) {
	t.Helper()
	tr := transport.NewStdio(bin, env, append([]string{"tap"}, args...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cl := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	t.Cleanup(func() { cl.Close() })
	return cl, ctx
}

// driveDemo initializes cl as clientInfo name@version, lists the tools and
// calls each of calls once with a message naming the client.
func driveDemo(t *testing.T, ctx context.Context, cl *client.Client, name, version string, calls ...string) {
	t.Helper()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: version}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, wire := range calls {
		req := mcp.CallToolRequest{}
		req.Params.Name = wire
		req.Params.Arguments = map[string]any{"message": "hi from " + name}
		if _, err := cl.CallTool(ctx, req); err != nil {
			t.Fatalf("calling %s: %v", wire, err)
		}
	}
}

// TestOfflineRecording records a real client (mcp-go's, presenting itself
// as Claude Code) calling alpha's and beta's request through two taps, then
// opens the recordings offline: the client's profile is recognised, and
// under a policy where alpha wins the name, the call that reached beta
// contradicts the predicted route.
func TestOfflineRecording(t *testing.T) {
	bin := build(t, "..")
	dir := t.TempDir()
	alpha := recordDemo(t, bin, dir, "alpha", "claude-code", "2.1.0", "request")
	beta := recordDemo(t, bin, dir, "beta", "claude-code", "2.1.0", "request")

	var out, errb bytes.Buffer
	code := runOffline([]string{alpha, beta, "--policy", "lionagi-legacy"}, false, nil, &out, &errb)
	if code != exitFound {
		t.Errorf("runOffline = %d, want %d (a contradicting call); stderr %s", code, exitFound, errb.String())
	}
	for _, want := range []string{
		"claude-code@2.1",
		"alpha request {\"message\":\"hi from claude-code\"}",
		"✓ matches: request routes to alpha's request",
		"✗ contradicts: reached beta, but the registry routes request to alpha's request",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("offline report lacks %q:\n%s", want, out.String())
		}
	}

	// Under the client's own policy (claude-code: mcp__server__tool) both
	// calls have a route.
	out.Reset()
	if !isCapture([]string{"--fail-on", "never", alpha, beta}) {
		t.Error("isCapture misses recordings after a flag's value")
	}
	runOffline([]string{"--fail-on", "never", alpha, beta}, false, nil, &out, &errb)
	if n := strings.Count(out.String(), "✓ matches"); n != 2 {
		t.Errorf("under the recorded client's policy %d calls match, want 2:\n%s", n, out.String())
	}
	// The same recordings as HAR: an entry per request, its answer.
	var har bytes.Buffer
	if code := runTap([]string{"har", alpha, beta}, nil, nil, &har, &errb); code != 0 {
		t.Fatalf("tap har = %d: %s", code, errb.String())
	}
	var h struct {
		Log struct {
			Version string
			Entries []struct {
				Request struct {
					URL      string
					PostData struct{ Text string }
				}
				Response struct {
					Status  int
					Content struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(har.Bytes(), &h); err != nil {
		t.Fatalf("tap har wrote %v: %s", err, har.String())
	}
	calls := 0
	for _, e := range h.Log.Entries {
		if strings.Contains(e.Request.PostData.Text, `"tools/call"`) {
			calls++
			if e.Response.Status != 200 || !strings.Contains(e.Response.Content.Text, "hi from claude-code") || !strings.HasPrefix(e.Request.URL, "mcp+stdio://") {
				rec, _ := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(e.Request.URL, "mcp+stdio://")+".jsonl"))
				t.Errorf("HAR entry of a call: %+v\nrecording:\n%s", e, rec)
			}
		}
	}
	if h.Log.Version != "1.2" || len(h.Log.Entries) < 6 || calls != 2 {
		t.Errorf("HAR version %q, %d entries, %d calls; want 1.2, at least 6, 2", h.Log.Version, len(h.Log.Entries), calls)
	}
	if !isCapture([]string{alpha}) || isCapture([]string{filepath.Join("..", "testdata", "configs")}) {
		t.Error("isCapture does not tell a recording from a config")
	}
}

// TestInspectorThroughTap has the official Inspector's CLI, a client
// written by others, list and call the demo's alpha through `mcplens tap`:
// it gets the server's answer, and the recording, opened offline, shows
// its clientInfo and its call.
func TestInspectorThroughTap(t *testing.T) {
	inspector := everything.Inspector(t)
	bin := build(t, "..")
	rec := filepath.Join(t.TempDir(), "alpha.jsonl")
	cmd := exec.Command(inspector, "--cli", bin, "tap", "--name", "alpha", "--record", rec, "--feed=false", "--",
		bin, demo.Subcommand, "alpha", "--method", "tools/call", "--tool-name", "request", "--tool-arg", "message=hi")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `alpha received tool \"request\"`) {
		t.Fatalf("inspector --cli through the tap: %v\n%s", err, out)
	}
	var report, errb bytes.Buffer
	runOffline([]string{"--fail-on", "never", rec}, false, nil, &report, &errb)
	for _, want := range []string{"client inspector-cli 2.12.0 (no profile)", `alpha request {"message":"hi"}`, "✓ matches"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("offline report lacks %q:\n%s%s", want, report.String(), errb.String())
		}
	}
}
