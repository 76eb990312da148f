package ui_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// In the log pane, s cycles through the servers, one at a time, then all
// of them, as it does in the wire pane; L asks only the server shown.
func TestLogPaneOneServer(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 1, 2, 3, 4, s, 0, time.Local) }
	specs := []config.ServerSpec{{Label: "api", Command: "srv"}, {Label: "db", Command: "srv"}}
	var asked []string
	b := logBackend{asked: &asked, msgs: map[string][]loader.LogMessage{
		"api": {{At: at(1), Server: "api", Level: "info", Data: `"from api"`}},
		"db":  {{At: at(2), Server: "db", Level: "info", Data: `"from db"`}},
	}}
	var m tea.Model = ui.New(ui.Options{Title: "logs", Servers: specs, Backend: b})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	for _, label := range []string{"api", "db"} {
		m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: label, State: mcpsession.Ready, ServerName: label, Facts: mcpsession.ServerFacts{Capabilities: []string{"tools", "logging"}}}))
	}
	m = press(m, "m")
	for _, tt := range []struct{ scope, shows, hides string }{
		{"all servers · 2 messages", "from db", ""},
		{"api · 1 messages", "from api", "from db"},
		{"db · 1 messages", "from db", "from api"},
		{"all servers · 2 messages", "from api", ""},
	} {
		s := screen(m)
		if !strings.Contains(s, tt.scope) || !strings.Contains(s, tt.shows) || tt.hides != "" && strings.Contains(s, tt.hides) {
			t.Errorf("log pane, want %q showing %q and not %q:\n%s", tt.scope, tt.shows, tt.hides, s)
		}
		m = press(m, "s")
	}
	m = press(m, "s") // the loop ends on api: now db
	m, cmd := m.Update(ui.KeyPress("M"))
	if cmd == nil {
		t.Fatal("L sent no logging/setLevel")
	}
	m, _ = m.Update(cmd())
	if !slices.Equal(asked, []string{"db=debug"}) {
		t.Errorf("asked %q, want db alone, the server shown", asked)
	}
	_ = m
}
