package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui"
)

// TestReadMore: at 60x20 and 80x24 the gated view's explanation and a
// finding's evidence are cut to their column; e reads each whole, and esc
// closes the reader.
func TestReadMore(t *testing.T) {
	cfg, sess := demoSession(t)
	var base tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	base, _ = base.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	base = settle(t, base, cfg, sess)
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		m, _ := base.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})

		gated := ui.Settle(press(m, "7"))
		const whole = "check --clients all compares every client at once"
		if strings.Contains(screen(gated), whole) {
			t.Fatalf("at %dx%d the explanation is not cut; the test proves nothing", sz[0], sz[1])
		}
		got := screen(press(gated, "e"))
		fits(t, got, sz[0])
		if !strings.Contains(strings.Join(strings.Fields(got), " "), whole) || !strings.Contains(got, "GATED") {
			t.Errorf("at %dx%d e does not read the gated view's explanation whole:\n%s", sz[0], sz[1], got)
		}
		press(gated, "esc")

		found := ui.Settle(press(m, "5"))
		list := ui.FindingList(found)
		at := -1
		for i, f := range list {
			if len(f.Evidence) > sz[0] {
				at = i
				break
			}
		}
		if at < 0 {
			t.Fatalf("the demo has no finding longer than %d columns", sz[0])
		}
		for range at {
			found = press(found, "down")
		}
		got = screen(press(found, "e"))
		fits(t, got, sz[0])
		flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		if !strings.Contains(got, "FINDING") || !strings.Contains(flat(got), flat(list[at].Evidence)) {
			t.Errorf("at %dx%d e does not read the finding's evidence %q whole:\n%s", sz[0], sz[1], list[at].Evidence, got)
		}
		press(found, "esc", "1")
	}
}
