package ui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/audit"
	auditprobe "github.com/mcplens/mcplens/audit/probe"
	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// TestAuditKey: A audits the selected server (a server answering an
// unknown method with the wrong code), the audit view lists the finding,
// enter reads its evidence frames in the reader, esc goes back and esc
// closes the view.
func TestAuditKey(t *testing.T) {
	spec := auditee.Stdio(t, "wrong-code")
	cfg := &config.Config{Path: "audit.json", Servers: []config.ServerSpec{spec}}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	t.Cleanup(func() { sess.Close() })
	model := ui.New(ui.Options{Title: "audit config", Servers: cfg.Servers, Backend: sess, Auditor: func(ctx context.Context, label string) audit.Result {
		if label != spec.Label {
			t.Errorf("audited %q, want %q", label, spec.Label)
		}
		return auditprobe.Run(ctx, spec, auditprobe.Options{Grace: 500 * time.Millisecond})
	}})
	var m tea.Model = model
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = settle(t, m, cfg, sess)

	m = press(m, "g")
	m, cmd := m.Update(ui.KeyPress("A"))
	if got := screen(m); !strings.Contains(got, "auditing auditee") {
		t.Errorf("A said nothing of the audit:\n%s", got)
	}
	for _, msg := range ui.Run(cmd) {
		m, _ = m.Update(msg)
	}
	got := screen(m)
	if !strings.Contains(got, "AUDIT auditee") || !strings.Contains(got, "jsonrpc.unknown-method") || !strings.Contains(got, "basic#responses") {
		t.Fatalf("the audit view does not show the finding:\n%s", got)
	}
	fits(t, got, 120)

	m = press(m, "enter")
	if got := screen(m); !strings.Contains(got, "-32600") || !strings.Contains(got, "mcplens/audit-unknown-method") || !strings.Contains(got, "→ sent") {
		t.Fatalf("enter did not read the evidence frames:\n%s", got)
	}
	m = press(m, "esc")
	if got := screen(m); !strings.Contains(got, "AUDIT auditee") {
		t.Fatalf("esc from the evidence did not go back to the audit view:\n%s", got)
	}
	m = press(m, "esc")
	if got := screen(m); strings.Contains(got, "AUDIT auditee") {
		t.Fatalf("esc did not close the audit view:\n%s", got)
	}
}

// TestAuditKeyWithoutAuditor: a backend mcplens cannot audit through (a
// recording) says so.
func TestAuditKeyWithoutAuditor(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = settle(t, m, cfg, sess)
	if got := screen(press(m, "g", "A")); !strings.Contains(got, "not mcplens's to audit") {
		t.Errorf("A without an auditor said nothing:\n%s", got)
	}
}
