package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
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
	return ansi.Truncate(h, m.c.width, "…") + "\n" + m.tabsView()
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
	return ansi.Truncate(strings.Join(tabs, " "), m.c.width, "…")
}

// columns is the width of each column of a tool table.
type columns struct {
	wire, name, outcome, profile int
}

func (m Model) columns() columns {
	prof := 0
	for _, p := range m.profiles {
		prof = max(prof, lipgloss.Width(p.Name))
	}
	rest := m.c.width - 2 - len(m.profiles)*(prof+1) - 3
	c := columns{profile: prof}
	c.wire = clamp(rest*28/100, 10, 40)
	c.name = clamp(rest*36/100, 12, 56)
	c.outcome = max(8, rest-c.wire-c.name)
	return c
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// cell fits s into exactly w columns.
func cell(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-lipgloss.Width(s)))
}

// tableView draws the visible part of the per-server tables.
func (m Model) tableView() string {
	h := m.tableHeight()
	lines := m.surface.lines
	out := make([]string, 0, h)
	sel := -1
	if len(m.surface.rows) > 0 {
		sel = m.surface.rows[m.cursor]
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
		return ansi.Truncate(m.serverLine(l.server), m.c.width, "…")
	case lineColumns:
		row := "  " + cell("WIRE NAME", cols.wire) + " " + cell("REGISTERED AS", cols.name) + " " +
			cell("OUTCOME", cols.outcome)
		for _, p := range m.profiles {
			row += " " + cell(p.Name, cols.profile)
		}
		return s.ColumnHead.Render(ansi.Truncate(row, m.c.width, ""))
	case lineTool:
		return m.toolLine(l, cols, selected)
	case lineError:
		return ansi.Truncate("  "+s.ErrorText.Render(model.Sanitize(l.text)), m.c.width, "…")
	case lineNote:
		return ansi.Truncate("  "+s.Muted.Render(model.Sanitize(l.text)), m.c.width, "…")
	}
	return ""
}

// serverLine is a server's status line: icon, label, transport, state,
// protocol and the advertised/registered counts.
func (m Model) serverLine(i int) string {
	s := m.c.styles
	sv := m.surface.servers[i]
	r := m.surface.results[i]
	icon, state := m.spinner.View(), s.Muted.Render("connecting")
	switch {
	case sv.state == loader.Failed:
		icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed")
	case r == nil:
	case r.Failed:
		icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed by policy")
	case r.Registered < r.Advertised:
		icon, state = s.WarnText.Render("▲"), s.WarnText.Render("incomplete")
	default:
		icon, state = s.OKText.Render("●"), s.OKText.Render("ok")
	}
	parts := []string{icon + " " + s.Section.Render(model.Sanitize(sv.spec.Label)), s.Muted.Render("stdio"), state}
	if r != nil {
		if sv.protocol != "" {
			parts = append(parts, s.Muted.Render(sv.protocol))
		}
		parts = append(parts, fmt.Sprintf("advertised %d · registered %d", r.Advertised, r.Registered))
		if len(r.Missing) > 0 {
			parts = append(parts, s.WarnText.Render(fmt.Sprintf("missing %d", len(r.Missing))))
		}
		if sv.info != "" {
			parts = append(parts, s.Muted.Render(model.Sanitize(sv.info)))
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
	outcome, style := outcomeText(o), m.outcomeStyle(o.Kind)
	row := marker + cell(model.Sanitize(wire), cols.wire) + " " +
		style.Render(cell(model.Sanitize(o.Name), cols.name)) + " " +
		style.Render(cell(model.Sanitize(outcome), cols.outcome))
	for _, p := range m.profiles {
		row += " " + cell(m.checkMark(p, o), cols.profile)
	}
	row = ansi.Truncate(row, m.c.width, "…")
	if selected {
		row = s.Selected.Render(row + strings.Repeat(" ", max(0, m.c.width-lipgloss.Width(row))))
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
	}
	return "dropped: " + o.Reason
}

func (m Model) outcomeStyle(k model.OutcomeKind) lipgloss.Style {
	s := m.c.styles
	switch k {
	case model.Registered:
		return s.OKText
	case model.Renamed:
		return s.RenamedText
	case model.Displaced:
		return s.WarnText
	}
	return s.ErrorText
}

// checkMark is a provider profile's verdict on a row's registered name.
func (m Model) checkMark(p model.Profile, o model.Outcome) string {
	s := m.c.styles
	if o.Name == "" {
		return s.Muted.Render("·")
	}
	switch p.Check(o).Severity {
	case model.Pass:
		return s.OKText.Render("✓")
	case model.Warn:
		return s.WarnText.Render("!")
	}
	return s.ErrorText.Render("✗")
}
