package ui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// TestInvokeEverything invokes server-everything's get-sum (a draft-07
// schema, two required numbers) from the form, after arguments that fail
// its schema were refused with nothing sent.
func TestInvokeEverything(t *testing.T) {
	entry := everything.Entry(t)
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}}}}
	sess := loader.Open(cfg, loader.Options{Timeout: 30 * time.Second})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "everything.json", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	m = settle(t, m, cfg, sess)

	m = press(m, "g")
	for range 30 {
		if m = press(m, "i"); strings.Contains(screen(m), "invoke get-sum") {
			break
		}
		m = press(m, "esc", "down")
	}
	if got := screen(m); !strings.Contains(got, "invoke get-sum") || !strings.Contains(got, `"a": 0`) {
		t.Fatalf("no editor on get-sum with its skeleton:\n%s", got)
	}
	sums := func() int { return calls(sess, "everything", "get-sum") }
	m = ui.SetArguments(m, `{"a": "2"}`)
	m = press(m, "ctrl+s")
	got := screen(m)
	for _, want := range []string{"nothing was sent", "/a: got string, want number", "(root): missing property 'b'"} {
		if !strings.Contains(got, want) {
			t.Errorf("refused arguments: the editor lacks %q:\n%s", want, got)
		}
	}
	if n := sums(); n != 0 {
		t.Fatalf("%d get-sum calls reached server-everything for arguments refused", n)
	}

	backspace := tea.KeyPressMsg{Code: tea.KeyBackspace}
	m = ui.SetArguments(m, `{"a": 0, "b": 0}`)
	m = press(m, "tab")
	m, _ = m.Update(backspace)
	m = press(m, "2", "down")
	m, _ = m.Update(backspace)
	m = press(m, "3", ".", "5")
	m = send(t, m)
	if got := screen(m); !strings.Contains(got, "The sum of 2 and 3.5 is 5.5") || sums() != 1 {
		t.Errorf("get-sum from the form: %d calls, result pane:\n%s", sums(), got)
	}
}
