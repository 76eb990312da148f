package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

// View draws the editor in a box that fits the screen: the route, what is
// wrong, the arguments in the mode shown (the JSON with the properties'
// hints, or the form, scrolled to its focused field), and the keys.
func (v *invoke) View() string {
	c := v.e.c
	s := c.styles
	san := model.Sanitize
	inner, room := kit.BoxInner(c.width), kit.BoxRoom(c.height)
	var head []string
	head = append(head, s.Header.Render("invoke ")+s.RenamedText.Render(san(v.row.Name))+s.Muted.Render(" under "+v.policy))
	switch {
	case v.route.Name == "":
	case v.route.Server == v.row.Server && v.route.Index == v.row.Index:
		head = append(head, fmt.Sprintf("route: %s → %s as %s", san(v.route.Name), san(v.route.Server), s.In.Render(san(v.route.Wire))))
	default:
		head = append(head, s.WarnText.Render(fmt.Sprintf("%s's %s is unreachable: %s routes to %s as %s",
			san(v.row.Server), san(v.row.Wire), san(v.route.Name), san(v.route.Server), san(v.route.Wire))))
	}
	if v.err != "" {
		head = append(head, s.ErrorText.Render(c.text(v.err)))
	}
	for i, p := range v.problems {
		if i == 5 {
			head = append(head, s.ErrorText.Render(fmt.Sprintf("  … and %d more", len(v.problems)-i)))
			break
		}
		head = append(head, s.ErrorText.Render("  "+truncate(c.text(p.String()), inner-2, "…")))
	}
	if p := v.schema.problem(); p != "" {
		head = append(head, s.Muted.Render(truncate(c.text(p), inner, "…")))
	}
	foot := []string{kit.BoxKeys(s.Muted, v.ShortHelp(), inner)}
	// The arguments take what the head and the keys leave, three lines
	// at least: the head gives way first (box).
	left := max(3, room-len(head)-len(foot)-1)
	var body []string
	if v.mode == modeForm {
		v.form.SetSize(inner, left)
		head = append(head, s.Muted.Render("arguments (form):"))
		body = strings.Split(v.form.View(), "\n")
	} else {
		hints := v.hintView(min(v.hintLines(c.height), max(0, left-4)))
		v.editor.SetWidth(max(10, min(90, inner)))
		v.editor.SetHeight(max(3, min(14, left-len(hints))))
		head = append(head, s.Muted.Render("arguments (JSON):"))
		body = append(strings.Split(v.editor.View(), "\n"), hints...)
	}
	return kit.Box(s.box(), head, body, foot, 0, c.width, c.height)
}

// hintView is the JSON mode's hints: each property's pointer (* when
// required), type, choices and description, one a line, as many as fit.
func (v *invoke) hintView(n int) []string {
	c := v.e.c
	s := c.styles
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
