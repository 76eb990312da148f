package ui_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// stderrEnv makes the asker write, before it serves, more stderr than the
// loader keeps, a secret of its config and terminal escapes.
const stderrEnv = "MCPLENS_TEST_STDERR"

// stderrToken is a secret of the chatty asker's config.
const stderrToken = "sk-asker-0123456789abcdef"

// chatter writes the asker's stderr: 600 numbered lines (more than the
// 8 KiB kept), then the token and escapes.
func chatter() {
	for i := range 600 {
		fmt.Fprintf(os.Stderr, "starting, line %03d of the asker's stderr\n", i)
	}
	fmt.Fprintf(os.Stderr, "token %s \x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\n", os.Getenv("ASKER_API_KEY"))
}

// TestStderrPane: E opens the selected server's stderr, its last lines
// within the loader's bound (the dropped bytes said), the config's secret
// masked and escapes shown escaped; what the server writes later shows
// while the pane is open; it fits 60x20, 80x24 and 160x48.
func TestStderrPane(t *testing.T) {
	vscode, _ := model.ClientNamed("vscode")
	cfg := &config.Config{Servers: []config.ServerSpec{{
		Label: "asker", Command: os.Args[0], Env: []config.EnvVar{
			{Key: askerEnv, Value: "1"}, {Key: stderrEnv, Value: "1"}, {Key: "ASKER_API_KEY", Value: stderrToken}},
	}}}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Handshake: vscode.Handshake})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "asker.json", Servers: cfg.Servers, Backend: sess})
	m = settle(t, m, cfg, sess)
	m = press(m, "E")
	for _, sz := range boxSizes {
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		got := screen(m)
		fits(t, got, sz[0])
		for _, want := range []string{"STDERR asker", "line 599", `\x1b[31mred`, "E stderr pane"} {
			if sz[0] < 80 && want == "E stderr pane" {
				continue // the footer's keys give way at 60 columns
			}
			if !strings.Contains(got, want) {
				t.Errorf("at %dx%d the pane lacks %q:\n%s", sz[0], sz[1], want, got)
			}
		}
		if raw := m.View().Content; strings.Contains(raw, stderrToken) || strings.Contains(raw, "\x1b[31mred") || strings.Contains(raw, "\x1b]8;;") {
			t.Errorf("at %dx%d the pane shows the token or sends the server's escapes", sz[0], sz[1])
		}
		golden(t, fmt.Sprintf("stderr-pane-%dx%d", sz[0], sz[1]), steady(got))
		top := screen(press(m, "g"))
		if !strings.Contains(top, "earlier bytes dropped]") || strings.Contains(top, "line 000") {
			t.Errorf("at %dx%d the top of the pane does not say the older bytes were dropped:\n%s", sz[0], sz[1], top)
		}
		m = press(m, "G")
	}
	if res, err := sess.Call(t.Context(), "asker", "shout", nil); err != nil || res.IsError {
		t.Fatalf("shout: %v %+v", err, res)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(screen(m), "shouted after the start") {
		if time.Now().After(deadline) {
			t.Fatalf("what the server wrote later never showed:\n%s", screen(m))
		}
		m, _ = m.Update(spinner.TickMsg{Time: time.Now()})
		time.Sleep(10 * time.Millisecond)
	}
	if got := screen(press(m, "E")); strings.Contains(got, "STDERR") {
		t.Errorf("E again did not close the pane:\n%s", got)
	}
}
