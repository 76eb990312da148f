package editor

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

// View draws the editor in a box that fits the screen: the route, what is
// wrong, the arguments in the mode shown (the JSON with the properties'
// hints, or the form, scrolled to its focused field), and the keys.
func (v *Model) View() string {
	s := v.c.Styles()
	san := model.Sanitize
	text := func(m string) string { return kit.Text(v.c.Redact, m) }
	t := v.target
	inner, room := kit.BoxInner(v.width), kit.BoxRoom(v.height)
	var head []string
	head = append(head, s.Header.Render("invoke ")+s.Name.Render(san(t.Row.Name))+s.Muted.Render(" under "+t.Policy))
	switch {
	case t.Route.Name == "":
	case t.Route.Server == t.Row.Server && t.Route.Index == t.Row.Index:
		head = append(head, fmt.Sprintf("route: %s → %s as %s", san(t.Route.Name), san(t.Route.Server), s.In.Render(san(t.Route.Wire))))
	default:
		head = append(head, s.Warn.Render(fmt.Sprintf("%s's %s is unreachable: %s routes to %s as %s",
			san(t.Row.Server), san(t.Row.Wire), san(t.Route.Name), san(t.Route.Server), san(t.Route.Wire))))
	}
	if v.err != "" {
		head = append(head, s.Error.Render(text(v.err)))
	}
	for i, p := range v.problems {
		if i == 5 {
			head = append(head, s.Error.Render(fmt.Sprintf("  … and %d more", len(v.problems)-i)))
			break
		}
		head = append(head, s.Error.Render("  "+kit.Truncate(text(p.String()), inner-2, "…")))
	}
	if p := v.schema.problem(); p != "" {
		head = append(head, s.Muted.Render(kit.Truncate(text(p), inner, "…")))
	}
	foot := []string{kit.BoxKeys(s.Muted, v.ShortHelp(), inner)}
	// The arguments take what the head and the keys leave, three lines
	// at least: the head gives way first (kit.Box).
	left := max(3, room-len(head)-len(foot)-1)
	var body []string
	if v.mode == modeForm {
		v.form.SetSize(inner, left)
		head = append(head, s.Muted.Render("arguments (form):"))
		body = strings.Split(v.form.View(), "\n")
	} else {
		hints := v.hintView(s, min(v.hintLines(v.height), max(0, left-4)))
		v.editor.SetWidth(max(10, min(90, inner)))
		v.editor.SetHeight(max(3, min(14, left-len(hints))))
		head = append(head, s.Muted.Render("arguments (JSON):"))
		body = append(strings.Split(v.editor.View(), "\n"), hints...)
	}
	return kit.Box(s.Box, head, body, foot, 0, v.width, v.height)
}

// hintView is the JSON mode's hints: each property's pointer (* when
// required), type, choices and description, one a line, as many as fit,
// the config's secrets masked.
func (v *Model) hintView(s Styles, n int) []string {
	width := max(20, min(90, v.width-8))
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
		text = kit.Quote(v.c.Redact, kit.Cut(v.c.Redact, text, 4*width))
		lines = append(lines, s.Muted.Render(kit.Truncate(text, width, "…")))
	}
	return lines
}
