package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
)

// View draws the editor in its box: the route, what is wrong, the
// arguments in the mode shown (the JSON with the properties' hints, or
// the form), and the keys.
func (v *invoke) View() string {
	c := v.e.c
	s := c.styles
	san := model.Sanitize
	var lines []string
	lines = append(lines, s.Header.Render("invoke ")+s.RenamedText.Render(san(v.row.Name))+s.Muted.Render(" under "+v.policy))
	switch {
	case v.route.Name == "":
	case v.route.Server == v.row.Server && v.route.Index == v.row.Index:
		lines = append(lines, fmt.Sprintf("route: %s → %s as %s", san(v.route.Name), san(v.route.Server), s.In.Render(san(v.route.Wire))))
	default:
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("%s's %s is unreachable: %s routes to %s as %s",
			san(v.row.Server), san(v.row.Wire), san(v.route.Name), san(v.route.Server), san(v.route.Wire))))
	}
	if v.err != "" {
		lines = append(lines, s.ErrorText.Render(c.text(v.err)))
	}
	for i, p := range v.problems {
		if i == 5 {
			lines = append(lines, s.ErrorText.Render(fmt.Sprintf("  … and %d more", len(v.problems)-i)))
			break
		}
		lines = append(lines, s.ErrorText.Render("  "+truncate(c.text(p.String()), max(20, c.width-12), "…")))
	}
	if p := v.schema.problem(); p != "" {
		lines = append(lines, s.Muted.Render(truncate(c.text(p), max(20, c.width-12), "…")))
	}
	if v.mode == modeForm {
		lines = append(lines, s.Muted.Render("arguments (form):"), v.form.View())
	} else {
		lines = append(lines, s.Muted.Render("arguments (JSON):"), v.editor.View())
		lines = append(lines, v.hintView()...)
	}
	keys := help.New()
	keys.Styles.ShortKey, keys.Styles.ShortDesc, keys.Styles.ShortSeparator = s.Muted, s.Muted, s.Muted
	lines = append(lines, keys.ShortHelpView(v.ShortHelp()))
	return s.Overlay.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

// hintView is the JSON mode's hints: each property's pointer (* when
// required), type, choices and description, one a line, as many as fit.
func (v *invoke) hintView() []string {
	c := v.e.c
	s := c.styles
	n := v.hintLines(c.height)
	var lines []string
	for i, h := range v.hints {
		if i == n {
			lines = append(lines, s.Muted.Render(fmt.Sprintf("… %d more: tab shows the form", len(v.hints)-n)))
			break
		}
		text := h.Pointer
		if h.Required {
			text += "*"
		}
		text += " " + h.Type
		if len(h.Choices) > 0 {
			text += " " + strings.Join(h.Choices, " | ")
		}
		if h.Description != "" {
			text += " · " + h.Description
		}
		lines = append(lines, s.Muted.Render(truncate(model.Sanitize(text), max(20, min(90, c.width-8)), "…")))
	}
	return lines
}

// overlay draws the editor over the screen.
func (v *invoke) overlay() string {
	c := v.e.c
	return lipgloss.Place(c.width, c.height, lipgloss.Center, lipgloss.Center, v.View(),
		lipgloss.WithWhitespaceChars(" "))
}

// editorOverlay is body with the argument editor or the call history
// drawn over it, when one is open.
func (m *Model) editorOverlay(body string) string {
	switch {
	case m.hist.browsing:
		return lipgloss.Place(m.c.width, m.c.height, lipgloss.Center, lipgloss.Center, m.historyView(),
			lipgloss.WithWhitespaceChars(" "))
	case m.invoke != nil:
		return m.invoke.overlay()
	}
	return body
}
