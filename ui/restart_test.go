package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/ui"
)

// until feeds m the session's events until the screen holds want.
func until(t *testing.T, m tea.Model, sess *loader.Session, want string) tea.Model {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(screen(m), want) {
		select {
		case ev := <-sess.Events():
			m, _ = m.Update(ui.EventMsg(ev))
		case <-deadline:
			t.Fatalf("%q never showed:\n%s", want, screen(m))
		}
	}
	return m
}

// TestRestartKeys: x restarts the selected server (a new process, the
// others untouched), X disconnects it (its own status, counted in the
// header, its tools out of the registry) and X connects it again; the
// footer says each, and the header's counts stay true throughout.
func TestRestartKeys(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = settle(t, m, cfg, sess)
	alpha, beta := sess.Pid("alpha"), sess.Pid("beta")
	header := func(m tea.Model) string { return strings.SplitN(screen(m), "\n", 2)[0] }
	before := header(m)

	m = press(m, "g") // alpha's row
	m = press(m, "x")
	if got := screen(m); !strings.Contains(got, "restarting alpha") {
		t.Errorf("x said nothing of the restart:\n%s", got)
	}
	m = until(t, m, sess, "alpha  stdio  connecting")
	m = until(t, m, sess, "● alpha")
	if sess.Pid("alpha") == alpha || sess.Pid("beta") != beta {
		t.Errorf("pids after x: alpha %d (was %d), beta %d (was %d): want alpha alone restarted", sess.Pid("alpha"), alpha, sess.Pid("beta"), beta)
	}
	if got := header(m); got != before {
		t.Errorf("the header after a restart is %q, was %q", got, before)
	}

	m = press(m, "X")
	if got := screen(m); !strings.Contains(got, "disconnected alpha") {
		t.Errorf("X said nothing of the disconnect:\n%s", got)
	}
	m = until(t, m, sess, "○ alpha")
	for _, size := range [][2]int{{160, 48}, {80, 24}, {60, 20}} {
		m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		got := screen(m)
		fits(t, got, size[0])
		if h := header(m); !strings.Contains(h, "1 disconnected") && !strings.Contains(h, "1 disc") {
			t.Errorf("at %dx%d the header does not count the disconnected server: %q", size[0], size[1], h)
		}
		golden(t, fmt.Sprintf("restart-disconnected-%dx%d", size[0], size[1]), steady(got))
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if got := strings.SplitN(screen(press(m, "2")), "\n", 2)[1]; strings.Contains(got, "alpha") {
		t.Errorf("the registry still routes to the disconnected alpha:\n%s", got)
	}
	m = press(m, "1", "X") // the cursor stayed on alpha, its status line now
	if got := screen(m); !strings.Contains(got, "connecting alpha") {
		t.Errorf("X on a disconnected server said nothing of connecting it:\n%s", got)
	}
	m = until(t, m, sess, "● alpha")
	if got := header(m); got != before {
		t.Errorf("the header once connected again is %q, was %q", got, before)
	}
}

// A failed server's failure, pinned above the servers, is a row: x on it
// restarts the server, where nothing could select it; the cursor still
// starts on the first tool.
func TestRestartFailedServer(t *testing.T) {
	m, _ := openConfig(t, failingConfig(t), 160, 48)
	if got := screen(m); !strings.Contains(got, "DETAIL") || strings.Contains(got, "no tool selected") {
		t.Fatalf("the cursor does not start on the first tool:\n%s", got)
	}
	m = press(m, "up")
	got := screen(m)
	if !strings.Contains(got, "✗ broken failed: initialize") {
		t.Fatalf("no failure pinned above the servers:\n%s", got)
	}
	m, _ = m.Update(ui.KeyPress("x"))
	if got := screen(m); !strings.Contains(got, "restarting broken") {
		t.Errorf("x on the failure does not restart broken:\n%s", got)
	}
}
