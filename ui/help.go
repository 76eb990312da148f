package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

// helpContent is the help screen: every key, then every policy and what it
// does, then the provider rules checked. The groups of keys are laid side
// by side as many as the width holds, the rest below: none is cut off.
func (m *Model) helpContent() string {
	s := m.c.styles
	var b strings.Builder
	b.WriteString(s.Header.Render("mcplens help") + s.Muted.Render("  (? or esc to close · ↑/↓ pgup/pgdn g/G scroll)") + "\n\n")
	b.WriteString(m.keyColumns() + "\n\n")
	who, why := m.client, m.clientWhy
	if who == "" {
		who, why = "mcplens", "mcplens connects as itself; c and C switch to a client's profile"
	}
	b.WriteString(s.Section.Render("client") + "  " + s.PolicyName.Render(model.Sanitize(who)))
	if why != "" {
		b.WriteString(s.Muted.Render(" · " + model.Sanitize(why)))
	}
	b.WriteString("\n\n")
	b.WriteString(s.Section.Render("naming policies") + s.Muted.Render("  (p cycles; the active one is marked)") + "\n")
	width := 0
	for _, p := range m.policies {
		width = max(width, len(p.Name))
	}
	for i, p := range m.policies {
		mark := "  "
		if i == m.policy {
			mark = "▸ "
		}
		b.WriteString(mark + s.PolicyName.Render(cell(p.Name, width)) + "  " + s.Text.Render(p.Summary) + "\n")
	}
	b.WriteString("\n" + s.Section.Render("provider checks") + "\n")
	width = 0
	for _, p := range m.profiles {
		width = max(width, len(p.Name))
	}
	for _, p := range m.profiles {
		b.WriteString("  " + s.Text.Render(cell(p.Name, width)) + "  " + s.Muted.Render(model.Sanitize(p.Rule)) + "\n")
	}
	b.WriteString("\n" + s.Section.Render("outcomes") + "\n" + s.Muted.Render(legend()))
	return b.String()
}

// keyColumns lays the groups of keys out in columns, a new row of columns
// whenever the next would pass the width.
func (m *Model) keyColumns() string {
	h := m.help
	h.SetWidth(0)
	const gap = "    "
	var rows, row []string
	width := 0
	for _, g := range m.fullHelp() {
		col := h.FullHelpView([][]key.Binding{g})
		w := lipgloss.Width(col)
		if len(row) > 0 && width+len(gap)+w > m.c.width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, width = nil, 0
		}
		if len(row) > 0 {
			row = append(row, gap)
			width += len(gap)
		}
		row = append(row, col)
		width += w
	}
	rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	return strings.Join(rows, "\n\n")
}

// helpPort is the help screen's viewport at the screen's size, holding
// the help as it is now: the footer's line is left out of its height.
func (m *Model) helpPort() *viewport.Model {
	m.helpScroll.SetWidth(m.c.width)
	m.helpScroll.SetHeight(max(1, m.c.height-1))
	m.helpScroll.SetContent(ansi.Wrap(m.helpContent(), m.c.width, ""))
	return &m.helpScroll
}

// openHelp shows the help screen from its top.
func (m *Model) openHelp() {
	m.full = true
	m.helpScroll.GotoTop()
}

// helpKey takes a key on the help screen: ? or esc closes it, q quits,
// the movement keys scroll it.
func (m *Model) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Help, k.Cancel):
		m.full = false
	case key.Matches(msg, k.Quit):
		return tea.Quit
	default:
		return m.scrollHelp(msg)
	}
	return nil
}

// scrollHelp takes a key on the help screen: the movement keys scroll it.
func (m *Model) scrollHelp(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	p := m.helpPort()
	switch {
	case key.Matches(msg, k.Top):
		p.GotoTop()
	case key.Matches(msg, k.Bottom):
		p.GotoBottom()
	default:
		var cmd tea.Cmd
		*p, cmd = p.Update(msg)
		return cmd
	}
	return nil
}

// fullHelpView draws the help screen where it is scrolled to.
func (m *Model) fullHelpView() string {
	return fit(m.helpPort().View(), m.c.width, max(1, m.c.height-1))
}

// fit cuts s to w columns and exactly h lines.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
