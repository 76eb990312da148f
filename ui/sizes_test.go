package ui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui"
)

// TestSizesGolden draws every view of the demo at 80x24, 120x40 and
// 200x60, as goldens: at each size the footer keeps help and quit, and no
// line is wider than the terminal.
func TestSizesGolden(t *testing.T) {
	cfg, sess := demoSession(t)
	var base tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	base, _ = base.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	base = settle(t, base, cfg, sess)

	views := []struct {
		name string
		keys []string
	}{
		{"servers", nil},
		{"servers-find", []string{"/", "r", "e", "q", "enter"}},
		{"registry", []string{"2"}},
		{"compare", []string{"3"}},
		{"compare-cells", []string{"3", "j", "j", "enter"}},
		{"collisions", []string{"4"}},
		{"findings", []string{"5"}},
		{"gated", []string{"7"}},
		{"help", []string{"?"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, v := range views {
			name := fmt.Sprintf("size-%dx%d-%s", size[0], size[1], v.name)
			t.Run(name, func(t *testing.T) {
				m, _ := base.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				m = ui.Settle(press(m, v.keys...))
				got := screen(m)
				press(m, "esc", "esc") // the query is the surface's, which every copy shares
				lines := strings.Split(got, "\n")
				if len(lines) != size[1] {
					t.Errorf("%d lines, want %d:\n%s", len(lines), size[1], got)
				}
				fits(t, got, size[0])
				if last := lines[len(lines)-1]; !strings.Contains(last, "? help") || !strings.Contains(last, "q quit") {
					t.Errorf("the footer lacks help or quit: %q", last)
				}
				golden(t, name, got)
			})
		}
	}
}
