package ui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// pressRun sends a key and runs the command it returns, if any, feeding
// its message back.
func pressRun(t *testing.T, tm tea.Model, k string) tea.Model {
	t.Helper()
	tm, cmd := tm.Update(ui.KeyPress(k))
	if cmd != nil {
		if msg := cmd(); msg != nil {
			tm, _ = tm.Update(msg)
		}
	}
	return tm
}

// The report key does not write through a link at mcplens-report.md (a
// cloned repository can ship one pointing anywhere): it asks, and a yes
// replaces the link, never its target.
func TestReportKeyDoesNotFollowALink(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	target := filepath.Join(dir, "precious")
	const precious = "not a report\n"
	if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, ui.ReportFile); err != nil {
		t.Fatal(err)
	}

	var tm tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	tm = pressRun(t, tm, "r")
	if s := screen(tm); !strings.Contains(s, ui.ReportFile+" is a symbolic link: overwrite "+ui.ReportFile+"? y/n") {
		t.Errorf("r on a link does not ask:\n%s", s)
	}
	tm = pressRun(t, tm, "n")
	if s := screen(tm); !strings.Contains(s, "report not written") {
		t.Errorf("after no the footer does not say the report was not written:\n%s", s)
	}
	if fi, err := os.Lstat(ui.ReportFile); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after no the link is gone: %v %v", fi, err)
	}

	tm = pressRun(t, tm, "r")
	tm = pressRun(t, tm, "y")
	if s := screen(tm); !strings.Contains(s, "report written to "+filepath.Join(dir, ui.ReportFile)) {
		t.Errorf("after yes the footer does not say where the report went:\n%s", s)
	}
	if b, _ := os.ReadFile(target); string(b) != precious {
		t.Errorf("the link's target was written: %q", b)
	}
	fi, err := os.Lstat(ui.ReportFile)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("after yes %s is %v (%v), want the report", ui.ReportFile, fi, err)
	}

	// The report mcplens wrote is its own: r replaces it without asking.
	tm = pressRun(t, tm, "r")
	if s := screen(tm); !strings.Contains(s, "report written to ") {
		t.Errorf("r over mcplens's own report asks or fails:\n%s", s)
	}
}

// A file at mcplens-report.md that mcplens did not write is not replaced
// without a yes.
func TestReportKeyAsksBeforeReplacing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const notes = "# my notes\n"
	if err := os.WriteFile(ui.ReportFile, []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	var tm tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	tm = pressRun(t, tm, "r")
	if s := screen(tm); !strings.Contains(s, ui.ReportFile+" was not written by mcplens: overwrite "+ui.ReportFile+"? y/n") {
		t.Errorf("r over another file does not ask:\n%s", s)
	}
	pressRun(t, tm, "q")
	if b, _ := os.ReadFile(ui.ReportFile); string(b) != notes {
		t.Errorf("the file was replaced without a yes: %q", b)
	}
}

// A version 1 lock is read, and the footer says to rewrite it.
func TestOutdatedLockFooter(t *testing.T) {
	l, err := model.ParseLock([]byte(`{"version":1,"servers":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}, Lock: l, LockPath: "old.lock"})
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	if s := screen(tm); !strings.Contains(s, "lock old.lock is version 1 (it may hold secrets in clear); rewrite it with --update-lock") {
		t.Errorf("the footer does not say the lock is outdated:\n%s", s)
	}
}
