package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader/demo"
)

// TestWatch runs two real taps (the demo's alpha and beta, each in front
// of its server, driven by mcp-go's client presenting itself as Cursor)
// and watches their feeds: watch prints each initialize with the client's
// profile, each listing, and each call with its verdict: under a policy
// where alpha wins request, the call that reached beta contradicts it.
func TestWatch(t *testing.T) {
	bin := build(t, ".")
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir := runtime + "/mcplens"
	var out tapBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); watch(ctx, dir, "lionagi-legacy", &out) }()
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
