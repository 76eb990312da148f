package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	live "github.com/mcplens/mcplens/surface"
)

// headerView names the config, the active policy and what it does, and the
// provider profiles checked.
func (m Model) headerView() string {
	s := m.c.styles
	p := m.activePolicy()
	names := make([]string, len(m.profiles))
	for i, pr := range m.profiles {
		names[i] = pr.Name
	}
	h := s.Header.Render("mcplens") + s.HeaderMuted.Render(" · "+model.Sanitize(m.title)+" · policy: ") +
		s.PolicyName.Render(p.Name) + s.HeaderMuted.Render(" ("+p.Summary+") · providers: "+strings.Join(names, " "))
	return truncate(h, m.c.width, "…") + "\n" + m.tabsView()
}

// tabsView names every view, the current one marked, with its number key.
func (m Model) tabsView() string {
	s := m.c.styles
	var tabs []string
	for v := view(0); v < viewCount; v++ {
		label := strconv.Itoa(int(v)+1) + " " + v.String()
		if v == m.view {
			tabs = append(tabs, s.Selected.Render(" "+label+" "))
		} else {
			tabs = append(tabs, s.Muted.Render(" "+label+" "))
		}
	}
	return truncate(strings.Join(tabs, " "), m.c.width, "…")
}

// columns is the width of each column of a tool table.
type columns struct {
	wire, name, outcome, profile int
}

func (m Model) columns() columns {
	prof := 0
	for _, p := range m.profiles {
		prof = max(prof, textWidth(p.Name))
	}
	rest := m.c.width - 3 - len(m.profiles)*(prof+1) - 3
	c := columns{profile: prof}
	c.wire = clamp(rest*28/100, 10, 40)
	c.name = clamp(rest*36/100, 12, 56)
	c.outcome = max(8, rest-c.wire-c.name)
	return c
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// cell fits s into exactly w columns.
func cell(s string, w int) string {
	s = truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-textWidth(s)))
}

// tableView draws the visible part of the per-server tables.
func (m Model) tableView() string {
	h := m.tableHeight()
	lines := m.surface.lines
	out := make([]string, 0, h)
	sel := -1
	if len(m.surface.rows) > 0 {
		sel = m.surface.rows[m.scroll[viewServers].cursor]
	}
	cols := m.columns()
	for i := m.offset; i < len(lines) && len(out) < h; i++ {
		out = append(out, m.lineView(lines[i], cols, i == sel))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

func (m Model) lineView(l line, cols columns, selected bool) string {
	s := m.c.styles
	switch l.kind {
	case lineServer:
		return truncate(m.serverLine(l.server), m.c.width, "…")
	case lineColumns:
		row := "   " + cell("WIRE NAME", cols.wire) + " " + cell("REGISTERED AS", cols.name) + " " +
			cell("OUTCOME", cols.outcome)
		for _, p := range m.profiles {
			row += " " + cell(p.Name, cols.profile)
		}
		return s.ColumnHead.Render(truncate(row, m.c.width, ""))
	case lineTool:
		return m.toolLine(l, cols, selected)
	case lineError:
		return truncate("  "+s.ErrorText.Render(m.c.text(l.text)), m.c.width, "…")
	case lineNote:
		return truncate("  "+s.Muted.Render(m.c.text(l.text)), m.c.width, "…")
	}
	return ""
}

// serverLine is a server's status line: icon, label, transport, state,
// protocol and the advertised/registered counts.
func (m Model) serverLine(i int) string {
	s := m.c.styles
	sv := &m.surface.snap.Servers[i]
	r := m.surface.results[i]
	icon, state := m.spinner.View(), s.Muted.Render("connecting"+countdown(sv.Deadline))
	switch m.surface.a.Servers[i].Status {
	case live.Failed:
		icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed")
	case live.Closed:
		icon, state = s.Muted.Render("·"), s.Muted.Render("closed")
	case live.Incomplete:
		icon, state = s.WarnText.Render("▲"), s.WarnText.Render("incomplete")
		if r.Failed {
			icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed by policy")
		}
	case live.OK:
		icon, state = s.OKText.Render("●"), s.OKText.Render("ok")
	}
	transport := sv.Spec.Transport
	if transport == "" {
		transport = loader.TransportStdio
	}
	parts := []string{icon + " " + s.Section.Render(model.Sanitize(sv.Label())), s.Muted.Render(transport), state}
	if r != nil {
		if sv.Protocol != "" {
			parts = append(parts, s.Muted.Render(sv.Protocol))
		}
		parts = append(parts, fmt.Sprintf("advertised %d · registered %d", r.Advertised, r.Registered))
		if len(r.Missing) > 0 {
			parts = append(parts, s.WarnText.Render(fmt.Sprintf("missing %d", len(r.Missing))))
		}
		if sv.Info() != "" {
			parts = append(parts, s.Muted.Render(m.c.quote(sv.Info())))
		}
	}
	return strings.Join(parts, "  ")
}

func (m Model) toolLine(l line, cols columns, selected bool) string {
	s := m.c.styles
	o, _, ok := m.surface.outcomeAt(ref{l.server, l.outcome})
	if !ok {
		return ""
	}
	wire := o.Wire
	if wire == "" {
		wire = "(no name)"
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	marker += m.changeMark(l.server, o)
	outcome, style := outcomeText(o), m.outcomeStyle(o.Kind)
	row := marker + cell(model.Sanitize(wire), cols.wire) + " " +
		style.Render(cell(model.Sanitize(o.Name), cols.name)) + " " +
		style.Render(cell(model.Sanitize(outcome), cols.outcome))
	for _, p := range m.profiles {
		row += " " + cell(m.checkMark(p, o), cols.profile)
	}
	row = truncate(row, m.c.width, "…")
	if selected {
		row = s.painters().selected.Render(row + strings.Repeat(" ", max(0, m.c.width-textWidth(row))))
	}
	return row
}

// outcomeText is the one-line form of an outcome.
func outcomeText(o model.Outcome) string {
	switch o.Kind {
	case model.Registered:
		return "registered"
	case model.Renamed:
		return "renamed"
	case model.Displaced:
		return "displaced by " + o.By
	case model.Filtered:
		return o.Reason // "filtered by config: ..."
	}
	return "dropped: " + o.Reason
}

// countdown is " 17s" while a connect has time left before its deadline.
func countdown(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	return fmt.Sprintf(" %ds", int(max(0, time.Until(deadline).Seconds()+0.5)))
}

func (m Model) outcomeStyle(k model.OutcomeKind) painter {
	p := m.c.styles.painters()
	switch k {
	case model.Registered:
		return p.ok
	case model.Renamed:
		return p.renamed
	case model.Displaced:
		return p.warn
	case model.Filtered:
		return p.muted
	}
	return p.bad
}

// checkMark is a provider profile's verdict on a row's registered name.
func (m Model) checkMark(p model.Profile, o model.Outcome) string {
	marks := m.c.styles.painters()
	if o.Name == "" {
		return marks.unnamed
	}
	switch p.Check(o).Severity {
	case model.Pass:
		return marks.pass
	case model.Warn:
		return marks.warned
	}
	return marks.failed
}

// changeMark flags a row whose tool is new or changed since the server's
// previous list (+, ~), or differs from the lock (≠); a space otherwise.
func (m Model) changeMark(server int, o model.Outcome) string {
	s := m.c.styles
	sv := &m.surface.snap.Servers[server]
	if c, ok := m.surface.relists[server].diff.Tool(o.Wire); ok {
		if c.Kind == model.ToolAdded {
			return s.OKText.Render("+")
		}
		return s.WarnText.Render("~")
	}
	if o.Wire != "" && m.pins.lock != nil && o.Index < len(sv.Tools) {
		if c, ok := m.lockChange(sv.Label(), sv.Tools[o.Index]); ok && c.Kind != model.ToolRemoved {
			return s.ErrorText.Render("≠")
		}
	}
	return " "
}
