package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// protocolBackend is a reconnectBackend that also takes a forced revision.
type protocolBackend struct {
	reconnectBackend
	forced *[]string
}

func (b protocolBackend) SetProtocol(revision string) { *b.forced = append(*b.forced, revision) }

// TestProtocolCycles: V forces the next protocol revision on every server
// (the profile's own first, then each revision, newest first), connects
// them again as the client they were connected as, and the header names
// the forced revision; after the last it is the profile's own again.
func TestProtocolCycles(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}, {Label: "beta"}}
	var asked, forced []string
	b := protocolBackend{reconnectBackend{benchBackend{events: make(chan mcpsession.Event)}, map[string]bool{"alpha": true, "beta": true}, &asked}, &forced}
	var m tea.Model = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: b})
	m, _ = m.Update(ui.KeyPress("V"))
	got := screen(m)
	if !strings.Contains(got, "protocol: 2026-07-28 (forced)") {
		t.Errorf("after V the header does not name the forced revision:\n%s", got)
	}
	if len(forced) != 1 || forced[0] != model.Revision20260728 || len(asked) != 2 || asked[0] != "alpha as mcplens" {
		t.Errorf("after V: forced %q, reconnects %q; want 2026-07-28 forced and both servers reconnected as mcplens", forced, asked)
	}
	for range len(model.Revisions()) {
		m, _ = m.Update(ui.KeyPress("V"))
	}
	if got := screen(m); strings.Contains(got, "(forced)") || forced[len(forced)-1] != "" {
		t.Errorf("after a whole cycle the revision is still forced (%q):\n%s", forced, got)
	}
	var mm tea.Model = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: b, Protocol: model.Revision20251125})
	mm, _ = mm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if got := screen(mm); !strings.Contains(got, "protocol: 2025-11-25 (forced)") {
		t.Errorf("Options.Protocol does not show in the header:\n%s", got)
	}
}
