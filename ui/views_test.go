package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui"
)

// TestViewsGolden draws the registry, compare, collisions and findings
// views of the demo at a fixed size, as goldens.
func TestViewsGolden(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m = settle(t, m, cfg, sess)

	tests := []struct {
		name string
		keys []string
		want []string
	}{
		{"registry", []string{"2"}, []string{"REGISTERED NAME", "request", "alpha_status"}},
		{"compare", []string{"3"}, []string{"WIRE NAME", "lionagi-legacy", "✗ lost to alpha", "↷ displaced by beta", "mcp__beta__request"}},
		{"compare-disagreements", []string{"3", "d"}, []string{"only disagreements", "request"}},
		{"compare-scrolled", []string{"3", "l", "l", "l"}, []string{"policies 4-"}},
		{"collisions", []string{"4"}, []string{"same wire name", "won", "lost", "dropped: name taken by alpha"}},
		{"findings", []string{"5"}, []string{"SEVERITY", "EVIDENCE", "tool-lost"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := screen(ui.Settle(press(m, tt.keys...)))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s view lacks %q:\n%s", tt.name, w, got)
				}
			}
			golden(t, "view-"+tt.name, got)
		})
	}
}

// TestProviderKeyChangesColumns checks v swaps the provider columns and
// the header without touching the registry.
func TestProviderKeyChangesColumns(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m = settle(t, m, cfg, sess)
	before := screen(m)
	if !strings.Contains(before, "providers: openai anthropic gemini") {
		t.Fatalf("default providers not in header:\n%s", before)
	}
	after := screen(press(m, "v"))
	if !strings.Contains(after, "providers: portable") || !strings.Contains(after, "portable") {
		t.Errorf("v did not switch to the portable profile:\n%s", after)
	}
	// gamma's dotted name passes gemini but not portable: the row's verdicts change.
	if strings.Count(after, "✗") == strings.Count(before, "✗") && strings.Count(after, "✓") == strings.Count(before, "✓") {
		t.Errorf("provider columns did not change after v")
	}
}

// TestWirePane checks w shows the frames both ways for every server and s
// narrows them to one server.
func TestWirePane(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	m = settle(t, m, cfg, sess)
	m = press(m, "w")
	got := screen(m)
	for _, w := range []string{"WIRE all servers", `alpha → {"jsonrpc":"2.0","id":1,"method":"initialize"`, `gamma ← {"jsonrpc":"2.0","id":"list-1","result":{"tools":[`} {
		if !strings.Contains(got, w) {
			t.Errorf("wire pane lacks %q:\n%s", w, got)
		}
	}
	got = screen(press(m, "s", "s"))
	if !strings.Contains(got, "WIRE beta") || strings.Contains(got, "alpha →") {
		t.Errorf("s s should show beta's frames only:\n%s", got)
	}
}
