package ui_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcplens/mcplens/ui"
)

// TestProgramEndToEnd runs the interface as a real Bubble Tea program (its
// own Init, event pump and commands) over the real demo servers: the rows
// arrive by themselves, p switches policy, q ends the program.
func TestProgramEndToEnd(t *testing.T) {
	cfg, sess := demoSession(t)
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess}), teatest.WithInitialTermSize(150, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("dropped: name taken by alpha")
	tm.Send(ui.KeyPress("p"))
	waitFor("displaced by beta")
	tm.Send(ui.KeyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if m, ok := tm.FinalModel(t).(ui.Model); !ok || m.Policy() != "lionagi-legacy-update" {
		t.Errorf("final model policy = %v, want lionagi-legacy-update", tm.FinalModel(t))
	}
}
