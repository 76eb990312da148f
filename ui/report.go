package ui

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
)

// ReportFile is where the report key writes the current report, in the
// working directory, as Markdown.
const ReportFile = "mcplens-report.md"

// pinning is the interface's lock file (--lock) and the report key's last
// word.
type pinning struct {
	lock *model.Lock
	path string
	// status is the footer's note on the last report written, until a
	// key or its time clears it (status.go); lockNote is its note on the
	// lock, which stays.
	status, lockNote string
	// confirming is set while the footer asks whether to replace a file
	// at ReportFile that this run did not write.
	confirming bool
	// wrote is set once this run wrote ReportFile: r then replaces it
	// without asking.
	wrote bool
}

// setLock makes the interface compare each server's tools with l, read
// from path: a changed tool's detail pane says what changed, field by
// field, and the comparison follows every relisting. A lock of an older
// version, which may hold secrets in clear, is read and the footer says
// to rewrite it.
func (m *Model) setLock(path string, l *model.Lock) {
	m.pins.lock, m.pins.path = l, path
	m.live.lock, m.live.lockPath = l, path
	m.live.dropFindings()
	if l != nil && l.Outdated() {
		m.pins.lockNote = m.c.styles.WarnText.Render(model.Sanitize(surface.OutdatedLock(path, l, false)))
	}
}

// setConfigFindings gives the findings view, and the report, what the
// config file says as a whole (config.Config.Findings).
func (m *Model) setConfigFindings(fs []string) {
	m.live.snap.File = fs
	m.live.invalidate()
	m.live.rebuild(m.policy)
}

// reportWrittenMsg says where the report went, or why it did not.
type reportWrittenMsg struct {
	path string
	err  error
	// refused is set when the file at path was left alone because
	// mcplens did not write it: the footer asks before replacing it.
	refused *safefile.RefusedError
}

// Report returns the check report of what the interface holds now: every
// server as last heard from, the active policy and provider checks, and
// the lock comparison when there is a lock.
func (m Model) Report() *report.Report {
	s := m.live
	o := surface.Options{
		Policy:   m.activePolicy(),
		Profiles: m.profiles,
		Lock:     m.pins.lock,
		LockPath: m.pins.path,
		Registry: s.reg,
		Gated:    s.sights.gated,
	}
	if s.observedAt == s.gen {
		o.Observed = s.observed // the findings view's, as shown
	}
	r := report.Build(m.title, surface.Assess(s.snap, o))
	r.Client, r.ClientSource = m.client, m.clientWhy
	return r
}

// reportHeader starts every report the report key writes: a file at
// ReportFile that starts so is a report of an earlier run, which r
// replaces only after asking.
const reportHeader = "# mcplens check: "

// reportKey writes the current report to ReportFile: over the one this
// run wrote without asking, over anything else only after a yes.
func (m *Model) reportKey() tea.Cmd {
	return writeReport(m.Report(), ReportFile, false, m.pins.wrote)
}

// writeReport returns the command that writes r to path as Markdown,
// through safefile.Write: never through a link at path, never over a file
// this run did not write (ours) unless replace is set (the user said yes).
func writeReport(r *report.Report, path string, replace, ours bool) tea.Cmd {
	return func() tea.Msg {
		var b bytes.Buffer
		err := report.Write(&b, r, "markdown")
		earlier := false
		if err == nil {
			mine := func(content []byte) bool {
				earlier = bytes.HasPrefix(content, []byte(reportHeader))
				return ours && earlier
			}
			err = safefile.Write(path, b.Bytes(), safefile.Options{Mine: mine, Force: replace, Perm: 0o644})
		}
		msg := reportWrittenMsg{path: path, err: err}
		if refused := (*safefile.RefusedError)(nil); errors.As(err, &refused) && refused.Forcible {
			if earlier {
				refused.Reason = "holds the report of an earlier run"
			}
			msg.refused, msg.err = refused, nil
		}
		if abs, aerr := filepath.Abs(path); aerr == nil {
			msg.path = abs
		}
		return msg
	}
}

// reportWritten records where the report went, for the footer, or asks
// whether to replace the file that was in the way.
func (m *Model) reportWritten(msg reportWrittenMsg) {
	st := m.c.styles
	switch {
	case msg.refused != nil:
		m.pins.confirming = true
		m.pins.status = st.WarnText.Render(fmt.Sprintf("%s %s: overwrite %s? y/n",
			model.Sanitize(ReportFile), msg.refused.Reason, model.Sanitize(ReportFile)))
	case msg.err != nil:
		m.say(st.ErrorText.Render(model.Sanitize(fmt.Sprintf("report not written: %v", msg.err))))
	default:
		m.pins.wrote = true
		m.say(st.OKText.Render("report written to " + model.Sanitize(msg.path)))
	}
}

// confirmReport answers the footer's question about replacing the file at
// ReportFile: yes writes the report in its place (a link is replaced, its
// target left alone), any other key leaves it.
func (m *Model) confirmReport(msg tea.KeyPressMsg) tea.Cmd {
	m.pins.confirming = false
	if key.Matches(msg, m.c.keys.Yes) {
		m.pins.status = ""
		return writeReport(m.Report(), ReportFile, true, true)
	}
	m.say(m.c.styles.Muted.Render("report not written: " + model.Sanitize(ReportFile) + " left as it was"))
	return nil
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
