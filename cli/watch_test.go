package cli

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestWatch runs two real taps (the demo's alpha and beta, each in front
// of its server, driven by mcp-go's client presenting itself as Cursor)
// and watches their feeds: watch prints each initialize with the client's
// profile, each listing, and each call with its verdict: under a policy
// where alpha wins request, the call that reached beta contradicts it. A
// tap whose server fails before listing ends with the server's stderr.
func TestWatch(t *testing.T) {
	bin := build(t, "..")
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir := runtime + "/mcplens"
	var out tapBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); watch(ctx, dir, "lionagi-legacy", []string{"alpha", "beta"}, &out) }()
	defer func() { cancel(); <-done }()

	for _, label := range []string{"alpha", "beta"} {
		cl, cctx := tapClient(t, bin, []string{"XDG_RUNTIME_DIR=" + runtime}, "--name", label, "--", bin, demo.Subcommand, label)
		// The feed gives a reader the lines from when it connects.
		waitUntil(t, label+" tapped", func() bool { return strings.Contains(out.String(), label+" tapped: ") })
		driveDemo(t, cctx, cl, "cursor-vscode", "1.0.0", "request")
	}
	for _, want := range []string{
		"alpha initialize from cursor-vscode 1.0.0 (cursor@",
		"alpha listed 2 tools: request, alpha_status",
		`alpha request {"message":"hi from cursor-vscode"} (`,
		"✓ matches: request routes to alpha's request [lionagi-legacy]",
		"✗ contradicts: reached beta, but the registry routes request to alpha's request [lionagi-legacy]",
	} {
		waitUntil(t, "watch to print "+want, func() bool { return strings.Contains(out.String(), want) })
	}

	broken, kctx := tapClient(t, bin, []string{"XDG_RUNTIME_DIR=" + runtime}, "--name", "broken", "--",
		"sh", "-c", "read line; echo 'boom: missing API_KEY' >&2; exit 3")
	waitUntil(t, "broken tapped", func() bool { return strings.Contains(out.String(), "broken tapped: ") })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	_, _ = broken.Initialize(kctx, init)
	want := "broken: the tap ended before its server listed its tools; stderr: boom: missing API_KEY"
	waitUntil(t, "watch to print "+want, func() bool { return strings.Contains(out.String(), want) })
}

// waitUntil polls cond until it holds or a deadline passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchLive drives two real taps (alpha and beta, mcp-go's client
// presenting itself as Cursor) under the backend mcplens watch's interface
// reads: each tap declares its server, whose listing arrives as Ready; the
// client's calls, one to a name no server listed among them, are observed
// with their answers; a second tap of alpha while the first runs is told
// apart as alpha#2; a tap that ends closes its server, or fails it with its
// stderr when it never listed.
func TestWatchLive(t *testing.T) {
	bin := build(t, "..")
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	live := capture.NewLive(ctx, runtime+"/mcplens")
	var mu sync.Mutex
	var evs []mcpsession.Event
	go func() {
		for ev := range live.Events() {
			mu.Lock()
			evs = append(evs, ev)
			mu.Unlock()
		}
	}()
	seen := func(server string, state mcpsession.State, declared bool) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range evs {
			if ev.Server == server && ev.State == state && !ev.Frames && (ev.Declare != nil) == declared {
				return true
			}
		}
		return false
	}
	env := []string{"XDG_RUNTIME_DIR=" + runtime}
	alpha, actx := tapClient(t, bin, env, "--name", "alpha", "--", bin, demo.Subcommand, "alpha")
	driveDemo(t, actx, alpha, "cursor-vscode", "1.0.0", "request")
	beta, bctx := tapClient(t, bin, env, "--name", "beta", "--", bin, demo.Subcommand, "beta")
	driveDemo(t, bctx, beta, "cursor-vscode", "1.0.0", "request")
	nope := mcp.CallToolRequest{}
	nope.Params.Name = "nope"
	if res, err := beta.CallTool(bctx, nope); err == nil && !res.IsError {
		t.Fatalf("beta answered a call to a tool it does not have: %+v", res)
	}
	for _, s := range []string{"alpha", "beta"} {
		waitUntil(t, s+" declared", func() bool { return seen(s, mcpsession.Connecting, true) })
		waitUntil(t, s+" ready", func() bool { return seen(s, mcpsession.Ready, false) })
	}
	waitUntil(t, "three calls answered", func() bool {
		calls := live.Observed()
		return len(calls) == 3 && calls[0].Answered && calls[1].Answered && calls[2].Answered
	})
	calls := live.Observed()
	if calls[0].Server != "alpha" || calls[1].Server != "beta" || calls[2].Wire != "nope" || !calls[2].IsError {
		t.Errorf("calls %+v", calls)
	}
	if _, p, ok := live.Client(); !ok || p.Name != "cursor" {
		t.Errorf("client profile %s (%v), want cursor's", p.Key(), ok)
	}
	if f := live.FrameLog("beta"); f == nil || f.Len() < 6 {
		t.Errorf("beta's frame log %v", f)
	}

	again, gctx := tapClient(t, bin, env, "--name", "alpha", "--", bin, demo.Subcommand, "alpha")
	driveDemo(t, gctx, again, "cursor-vscode", "1.0.0")
	waitUntil(t, "the second alpha told apart", func() bool { return seen("alpha#2", mcpsession.Ready, false) })
	beta.Close()
	waitUntil(t, "beta's tap closed", func() bool { return seen("beta", mcpsession.Closed, false) })

	// A server that fails on the client's first request: its tap ends
	// before any listing, and its server fails with what it said on stderr.
	broken, kctx := tapClient(t, bin, env, "--name", "broken", "--", "sh", "-c", "read line; echo 'boom: missing API_KEY' >&2; exit 3")
	waitUntil(t, "broken declared", func() bool { return seen("broken", mcpsession.Connecting, true) })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := broken.Initialize(kctx, init); err == nil {
		t.Fatal("the broken server answered initialize")
	}
	waitUntil(t, "broken failed with its stderr", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range evs {
			if ev.Server == "broken" && ev.State == mcpsession.Failed && strings.Contains(ev.Stderr, "boom: missing API_KEY") {
				return true
			}
		}
		return false
	})
}

// A client that declares no capability is said to, where the line used to
// end on an empty "capabilities:".
func TestWatchLineNoCapabilities(t *testing.T) {
	d := capture.NewDecoder()
	var lines []string
	for _, l := range []string{
		`{"format":"mcplens-tap","version":1,"server":"alpha","t":"2026-12-01T14:06:02Z","command":["srv"]}`,
		`{"t":"2026-12-01T14:06:02.1Z","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"bare","version":"1"},"capabilities":{}}}}`,
		`{"t":"2026-12-01T14:06:02.2Z","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"rich","version":"1"},"capabilities":{"roots":{}}}}}`,
	} {
		for _, ob := range d.Line([]byte(l)) {
			if ob.Kind == capture.Initialize {
				lines = append(lines, watchLine(d.Capture(), ob, "lionagi-legacy"))
			}
		}
	}
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "protocol 2025-11-25, no capabilities") || !strings.HasSuffix(lines[1], "capabilities: roots") {
		t.Errorf("initialize lines = %q, want one saying no capabilities, one naming roots", lines)
	}
}
