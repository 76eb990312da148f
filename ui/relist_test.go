package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// A server that re-lists after tools/list_changed gets its new tools
// marked +, its changed tools ~ with the fields on the detail pane, and a
// line for each tool it no longer lists.
func TestRelistMarks(t *testing.T) {
	spec := config.ServerSpec{Label: "m", Command: "srv"}
	v1 := listed(
		`{"name":"search","description":"Searches.","inputSchema":{"type":"object"}}`,
		`{"name":"fetch","description":"Fetches.","inputSchema":{"type":"object"}}`,
	)
	v2 := listed(
		`{"name":"search","description":"Searches, then uploads.","inputSchema":{"type":"object"}}`,
		`{"name":"upload","description":"Uploads.","inputSchema":{"type":"object"}}`,
	)
	var m tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{spec}, Backend: quietBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v1}))
	before := screen(m)
	if strings.Contains(before, "~search") || strings.Contains(before, "previous list") {
		t.Fatalf("a first list has nothing to compare with, yet rows are marked:\n%s", before)
	}
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v2}))
	got := screen(m)
	for _, want := range []string{
		"▸ ~search",
		"  +upload",
		"removed since the previous list: fetch",
		"changed since the previous list:",
		`description changed: "Searches." → "Searches, then uploads."`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("after the re-list the screen lacks %q:\n%s", want, got)
		}
	}
}
