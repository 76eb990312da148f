package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/ui"
)

// offlineModel opens the recordings under testdata/recordings (the demo
// servers alpha and beta through real taps, a real client calling each
// one's request) as `mcplens CAPTURE.jsonl` does, under policy, its
// events read from the offline backend.
func offlineModel(t *testing.T, policy string) tea.Model {
	t.Helper()
	c, err := capture.Read("../testdata/recordings/alpha.jsonl", "../testdata/recordings/beta.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b := capture.NewBackend(c)
	m := ui.New("recordings (offline recording)", c.Specs(), b)
	m.SetPolicy(policy)
	m.SetClient("claude-code@2.1")
	m.SetObserved(c.Calls)
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	for {
		msg := ui.NextEvents(b)
		if ui.Events(msg) == nil {
			break
		}
		tm, _ = tm.Update(msg)
	}
	return ui.Settle(tm)
}

// detailOf moves the cursor down until the detail pane is of head.
func detailOf(t *testing.T, m tea.Model, head string) tea.Model {
	t.Helper()
	for range 20 {
		if _, detail, ok := strings.Cut(screen(m), "DETAIL"); ok && strings.Contains(detail, head) {
			return m
		}
		m = press(m, "j")
	}
	t.Fatalf("no row's detail is of %q:\n%s", head, screen(m))
	return m
}

// TestOfflineObservedCalls: the detail pane of the row a recorded call
// reached says whether the call matches the route the registry shown
// predicts, judged again when the policy changes; the wire pane shows the
// recorded frames.
func TestOfflineObservedCalls(t *testing.T) {
	m := offlineModel(t, "lionagi-legacy")
	m = detailOf(t, m, "beta · request")
	got := screen(m)
	if !strings.Contains(got, "observed: 1 call(s), 1 answered") || !strings.Contains(got, "✗ contradicts reached beta, but the registry routes request to alpha's request") {
		t.Errorf("beta's request does not say its recorded call contradicts the route:\n%s", got)
	}
	golden(t, "offline-observed", steady(got))

	m = detailOf(t, press(m, "k", "k", "k", "k"), "alpha · request")
	if got := screen(m); !strings.Contains(got, "✓ matches request routes to alpha's request") {
		t.Errorf("alpha's request does not say its recorded call matches:\n%s", got)
	}

	// Claude Code's policy routes each server's request apart: both match.
	m = ui.Settle(press(m, "p"))
	for m.(ui.Model).Policy() != "claude-code" {
		m = ui.Settle(press(m, "p"))
	}
	m = detailOf(t, m, "beta · request")
	if got := screen(m); !strings.Contains(got, "✓ matches mcp__beta__request routes to beta's request") {
		t.Errorf("under claude-code beta's call does not match:\n%s", got)
	}

	wire := screen(press(m, "w"))
	for _, want := range []string{"initialize", "tools/list", "tools/call", "request"} {
		if !strings.Contains(wire, want) {
			t.Errorf("the wire pane lacks the recorded %s:\n%s", want, wire)
		}
	}
	golden(t, "offline-wire", steady(wire))
}
