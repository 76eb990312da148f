package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
)

// ReportFile is where the report key writes the current report, in the
// working directory, as Markdown.
const ReportFile = "mcplens-report.md"

// pinning is the interface's lock file (--lock) and the report key's last
// word.
type pinning struct {
	lock *model.Lock
	path string
	// status is the footer's note on the last report written.
	status string
}

// SetLock makes the interface compare each server's tools with l, read
// from path: a changed tool's detail pane says what changed, field by
// field, and the comparison follows every relisting.
func (m *Model) SetLock(path string, l *model.Lock) {
	m.pins.lock, m.pins.path = l, path
}

// SetConfigFindings gives the findings view, and the report, what the
// config file says as a whole (loader.Config.Findings).
func (m *Model) SetConfigFindings(fs []string) {
	m.surface.fileFindings = fs
	m.surface.invalidate()
}

// reportWrittenMsg says where the report went, or why it did not.
type reportWrittenMsg struct {
	path string
	err  error
}

// Report returns the check report of what the interface holds now: every
// server as last heard from, the active policy and provider checks, and
// the lock comparison when there is a lock.
func (m Model) Report() *report.Report {
	in := report.Input{
		Config:         m.title,
		Policy:         m.activePolicy(),
		Profiles:       m.profiles,
		Servers:        m.surface.states(),
		Lock:           m.pins.lock,
		LockPath:       m.pins.path,
		Redact:         m.surface.redact,
		ConfigFindings: m.surface.fileFindings,
	}
	for i, sv := range m.surface.servers {
		in.Servers[i].Transport = report.TransportOf(sv.spec)
	}
	if m.surface.found {
		in.Findings = m.surface.findings // the findings view's list, as shown
	}
	return report.Build(in)
}

// writeReport returns the command that writes r to path as Markdown.
func writeReport(r *report.Report, path string) tea.Cmd {
	return func() tea.Msg {
		var b bytes.Buffer
		err := report.Write(&b, r, "markdown")
		if err == nil {
			err = os.WriteFile(path, b.Bytes(), 0o644)
		}
		if abs, aerr := filepath.Abs(path); aerr == nil {
			path = abs
		}
		return reportWrittenMsg{path: path, err: err}
	}
}

// reportWritten records where the report went, for the footer.
func (m *Model) reportWritten(msg reportWrittenMsg) {
	if msg.err != nil {
		m.pins.status = m.c.styles.ErrorText.Render(fmt.Sprintf("report not written: %v", msg.err))
		return
	}
	m.pins.status = m.c.styles.OKText.Render("report written to " + model.Sanitize(msg.path))
}

// lockChange returns how the tool t of server differs from its pin, when
// there is a lock: ok is false without a lock, for a server the lock does
// not pin, and for an unchanged tool. Only the one tool is hashed, so the
// detail pane can ask on every draw.
func (m Model) lockChange(server string, t model.Tool) (model.ToolChange, bool) {
	if m.pins.lock == nil || !t.NameOK {
		return model.ToolChange{}, false
	}
	old, pinned := m.pins.lock.Servers[server]
	if !pinned {
		return model.ToolChange{}, false
	}
	cur, err := model.PinTool(t)
	if err != nil {
		return model.ToolChange{}, false
	}
	before := model.ServerPin{Tools: map[string]model.ToolPin{}}
	if p, ok := old.Tools[t.Name]; ok {
		before.Tools[t.Name] = p
	}
	d := model.Diff(before, model.ServerPin{Tools: map[string]model.ToolPin{t.Name: cur}})
	return d.Tool(t.Name)
}

// lockLines are the detail pane's lines on the selected tool's pin.
func (m Model) lockLines(server string, t model.Tool) []string {
	s := m.c.styles
	if m.pins.lock == nil || !t.NameOK {
		return nil
	}
	if _, pinned := m.pins.lock.Servers[server]; !pinned {
		return []string{s.WarnText.Render("lock: server " + model.Sanitize(server) + " is not in the lock")}
	}
	c, changed := m.lockChange(server, t)
	switch {
	case !changed:
		return []string{s.Muted.Render("lock: unchanged")}
	case c.Kind == model.ToolAdded:
		return []string{s.ErrorText.Render("lock: not in the lock (added since it was written)")}
	}
	lines := []string{s.ErrorText.Render("lock: changed since the lock was written")}
	for _, f := range c.Fields {
		lines = append(lines, "  "+model.Sanitize(f.String()))
	}
	return lines
}
