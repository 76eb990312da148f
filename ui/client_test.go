package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// TestHeaderNamesClient: the header names the client profile the servers
// were connected as, and no client when mcplens connected as itself.
func TestHeaderNamesClient(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}}
	m := ui.New("cfg.json", specs, benchBackend{events: make(chan loader.Event)})
	m.SetPolicy("vscode")
	if got := screen(tea.Model(m)); strings.Contains(got, "client:") {
		t.Errorf("header names a client without one:\n%s", got)
	}
	m.SetClient("vscode@1.105")
	if got := screen(tea.Model(m)); !strings.Contains(got, "cfg.json · client: vscode@1.105 · policy: vscode (") {
		t.Errorf("header does not name the client:\n%s", got)
	}
}
