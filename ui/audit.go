package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// An Auditor audits one server of the config, by its label, against the
// specification (mcplens audit's engine, probe.Run, with the run's
// client, limits and guard); ctx ends it early.
type Auditor func(ctx context.Context, server string) audit.Result

// auditing is the root's state of audits: the one running, and the
// findings shown.
type auditing struct {
	auditor Auditor
	// running is the label of the server being audited, "" for none.
	running string
	// shown is the audit view, open over the body when set.
	shown *auditView
}

// auditDoneMsg brings an audit's result.
type auditDoneMsg struct{ result audit.Result }

// auditKey audits the selected row's server in the background.
func (m *Model) auditKey() tea.Cmd {
	r, ok := m.selected()
	i := r.server
	if m.view == viewServers {
		i, ok = m.servers.server()
	}
	switch {
	case m.auditing.auditor == nil:
		m.say("these servers are not mcplens's to audit (a recording)")
		return nil
	case m.auditing.running != "":
		m.say("auditing " + model.Sanitize(m.auditing.running) + " already")
		return nil
	case !ok || i < 0 || i >= len(m.live.snap.Servers):
		m.say("no server selected")
		return nil
	}
	label := m.live.label(i)
	m.auditing.running = label
	m.say("auditing " + model.Sanitize(label) + " against the specification (a second connection; no tool is called)")
	run := m.auditing.auditor
	return func() tea.Msg { return auditDoneMsg{run(context.Background(), label)} }
}

// auditDone shows an audit's findings.
func (m *Model) auditDone(msg auditDoneMsg) {
	m.auditing.running = ""
	m.auditing.shown = &auditView{e: m.env, r: msg.result}
}

// updateAudit hands a key to the audit view: enter reads the selected
// finding's evidence, esc closes the view.
func (m *Model) updateAudit(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	v := m.auditing.shown
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Cancel):
		m.auditing.shown = nil
	case key.Matches(msg, k.Reader.Open):
		if f, ok := v.finding(); ok {
			m.reader = evidenceReader(m.env, v.r.Server, f)
		}
	default:
		v.Update(msg)
	}
	return nil
}

// An auditView lists one server's audit: a line on the audit, then each
// finding (level, check, subject, message, specification section).
type auditView struct {
	e             *env
	r             audit.Result
	cursor, top   int
	width, height int
}

func (v *auditView) SetSize(width, height int) { v.width, v.height = width, height }

func (v *auditView) finding() (audit.Finding, bool) {
	if v.cursor < 0 || v.cursor >= len(v.r.Findings) {
		return audit.Finding{}, false
	}
	return v.r.Findings[v.cursor], true
}

func (v *auditView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := v.e.c.keys
	last := len(v.r.Findings) - 1
	switch {
	case key.Matches(k, keys.Up):
		v.cursor = max(0, v.cursor-1)
	case key.Matches(k, keys.Down):
		v.cursor = max(0, min(last, v.cursor+1))
	case key.Matches(k, keys.Top):
		v.cursor = 0
	case key.Matches(k, keys.Bottom):
		v.cursor = max(0, last)
	}
	return nil
}

// View draws the findings, two lines each, the selected one marked.
func (v *auditView) View() string {
	c := v.e.c
	s := c.styles
	r := v.r
	head := fmt.Sprintf("AUDIT %s · %s · asked %s, answered %s · %d finding(s), %d check(s) passed, %d not applicable",
		c.quote(r.Server), r.Transport, r.Asked, orDash(c.quote(r.Revision)), len(r.Findings), len(r.Passed), len(r.Skipped))
	lines := []string{s.PaneTitle.Render(ansi.Truncate(head, v.width, "…"))}
	if len(r.Findings) == 0 {
		lines = append(lines, s.OKText.Render("no finding: the server passed every check that applies"))
	}
	room := max(1, (v.height-1)/2)
	if v.cursor < v.top {
		v.top = v.cursor
	}
	if v.cursor >= v.top+room {
		v.top = v.cursor - room + 1
	}
	for i := v.top; i < len(r.Findings) && i < v.top+room; i++ {
		f := r.Findings[i]
		style := s.WarnText
		if f.Level == audit.Error {
			style = s.ErrorText
		}
		subject := ""
		if f.Subject != "" {
			subject = " [" + c.quote(f.Subject) + "]"
		}
		first := ansi.Truncate(fmt.Sprintf("%-7s %s%s: %s", f.Level, f.Check, subject, c.text(f.Message)), v.width-2, "…")
		second := ansi.Truncate(fmt.Sprintf("        spec %s · %d frame(s) of evidence", f.Section, len(f.Evidence)), v.width-2, "…")
		mark := "  "
		if i == v.cursor {
			mark = "▸ "
			first = s.Selected.Render(first)
		}
		lines = append(lines, mark+style.Render(first), "  "+s.Muted.Render(second))
	}
	for len(lines) < v.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(1, v.height)], "\n")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (v *auditView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Reader.Open, k.Up, k.Down, k.Cancel}
}

func (v *auditView) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// evidenceReader reads a finding in full: what it says, then each frame
// of its evidence as it crossed the wire (JSON pretty-printed, an HTTP
// exchange as text).
func evidenceReader(e *env, server string, f audit.Finding) *readerView {
	c := e.c
	s := c.styles
	title := s.PaneTitle.Render("AUDIT") + " " + c.quote(server) + " · " + f.Check
	var clip strings.Builder
	r := newReader(e, title, func() []string {
		lines := []string{
			fmt.Sprintf("%s %s: %s", f.Level, f.Check, c.text(f.Message)),
			s.Muted.Render("specification: " + f.Section),
		}
		if f.Subject != "" {
			lines = append(lines, s.Muted.Render("on: "+c.quote(f.Subject)))
		}
		if len(f.Evidence) == 0 {
			lines = append(lines, "", s.Muted.Render("(no frame: the evidence is what did not happen)"))
		}
		for _, fr := range f.Evidence {
			lines = append(lines, "", evidenceHead(c, fr))
			if fr.Truncated() {
				lines = append(lines, s.WarnText.Render(fmt.Sprintf("… [cut: %d of %d bytes kept]", len(fr.Bytes), fr.Size)))
			}
			if len(fr.Bytes) > 0 && fr.Bytes[0] == '{' && !fr.Junk && !fr.Truncated() {
				lines = append(lines, c.jsonLines(fr.Bytes)...)
			} else {
				lines = append(lines, c.textLines(string(fr.Bytes))...)
			}
		}
		return lines
	})
	for _, fr := range f.Evidence {
		clip.Write(fr.Bytes)
		clip.WriteString("\n")
	}
	r.Clip, r.ClipName = c.redact.Text(clip.String()), "the evidence"
	return r
}

// evidenceHead names one frame of evidence: its way, time and size.
func evidenceHead(c common, f mcpsession.Frame) string {
	arrow := "→ sent"
	if f.Dir == mcpsession.In {
		arrow = "← received"
	}
	head := fmt.Sprintf("%s · %s · %s", arrow, f.At.Format("15:04:05.000"), humanSize(int64(f.Size)))
	if f.Junk {
		head += " · not JSON-RPC"
	}
	if f.Problem != "" {
		head += " · " + c.text(f.Problem)
	}
	return c.styles.PaneTitle.Render(head)
}
