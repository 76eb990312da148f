package ui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// A surface with no server (a recording that lists none) draws every
// view, the panes and the reader without a row to select, rather than
// failing.
func TestNoServers(t *testing.T) {
	cfg := &config.Config{Path: "empty"}
	sess := loader.Open(cfg, loader.Options{Timeout: 5 * time.Second})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: cfg.Path, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "j", "e", "esc", "w", "enter", "esc", "/", "x", "esc", "?"} {
		m = press(m, k)
		if got := screen(m); !strings.Contains(got, "mcplens") {
			t.Fatalf("after %q the screen lacks its header:\n%s", k, got)
		}
	}
}
