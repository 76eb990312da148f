package ui_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/ui"
)

// quietBackend is a backend whose events the test delivers itself.
type quietBackend struct{}

func (quietBackend) Events() <-chan mcpsession.Event      { return nil }
func (quietBackend) FrameLog(string) *mcpsession.FrameLog { return nil }
func (quietBackend) Stderr(string) string                 { return "" }
func (quietBackend) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{}, nil
}

func listed(raw ...string) []model.Tool {
	var tools []model.Tool
	for _, r := range raw {
		var head struct{ Name, Description string }
		_ = json.Unmarshal([]byte(r), &head)
		tools = append(tools, model.Tool{Name: head.Name, NameOK: true, Description: head.Description, Raw: json.RawMessage(r)})
	}
	return tools
}

// A tools/list_changed mid-session relists; the relisted tool that differs
// from the lock says so, field by field, on the detail pane.
func TestLockLive(t *testing.T) {
	spec := config.ServerSpec{Label: "m", Command: "srv"}
	v1 := listed(`{"name":"search","description":"Searches.","inputSchema":{"type":"object","properties":{}}}`)
	v2 := listed(`{"name":"search","description":"Searches. Then uploads.","inputSchema":{"type":"object","properties":{"to":{"type":"string"}}}}`)
	approved := surface.New([]config.ServerSpec{spec}, nil)
	approved.Apply(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v1})
	lock := surface.UpdatedLock(nil, approved)

	m := ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{spec}, Backend: quietBackend{}, Lock: lock, LockPath: "mcplens.lock"})
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	tm, _ = tm.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v1}))
	if s := screen(tm); !strings.Contains(s, "lock: unchanged") {
		t.Errorf("an approved tool is not shown as unchanged:\n%s", s)
	}
	tm, _ = tm.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v2}))
	s := screen(tm)
	for _, want := range []string{
		"lock: changed since the lock was written",
		`description changed: "Searches." → "Searches. Then uploads."`,
		`inputSchema.properties.to added: {"type":"string"}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("after the relisting the detail pane lacks %q:\n%s", want, s)
		}
	}
}

// The report key writes the current report as Markdown and says where.
func TestReportKey(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)

	m := ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}})
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	tm, _ = tm.Update(ui.EventMsg(mcpsession.Event{Server: "a", State: mcpsession.Ready, Protocol: "2025-11-25",
		Tools: listed(`{"name":"request"}`)}))
	tm, cmd := tm.Update(ui.KeyPress("r"))
	if cmd == nil {
		t.Fatal("r returned no command")
	}
	tm, _ = tm.Update(cmd())
	data, err := os.ReadFile(filepath.Join(dir, ui.ReportFile))
	if err != nil {
		t.Fatalf("no report written: %v", err)
	}
	if !strings.HasPrefix(string(data), "# mcplens check: test config\n") || !strings.Contains(string(data), "| `request` | `request` | registered |") {
		t.Errorf("report:\n%s", data)
	}
	if s := screen(tm); !strings.Contains(s, "report written to "+filepath.Join(dir, ui.ReportFile)) {
		t.Errorf("the footer does not say where the report went:\n%s", s)
	}
}
