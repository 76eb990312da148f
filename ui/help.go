package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

// fullHelpView is the help screen: every key, then every policy and what it
// does, then the provider rules checked.
func (m *Model) fullHelpView() string {
	s := m.c.styles
	var b strings.Builder
	b.WriteString(s.Header.Render("mcplens help") + s.Muted.Render("  (? or esc to close)") + "\n\n")
	b.WriteString(m.help.FullHelpView(m.fullHelp()) + "\n\n")
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
	return fit(b.String(), m.c.width, max(1, m.c.height-1))
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
