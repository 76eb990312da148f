package form

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/kit"
)

// View draws the rows: a mark on the focused one, the title (* when
// required), the value, and under a field its description. With a height,
// only the lines around the focused row are drawn.
func (v *Model) View() string {
	s := v.c.Styles()
	if len(v.rows) == 0 {
		return s.Muted.Render("(no fields)")
	}
	// Only the rows in sight are drawn: a schema can have thousands.
	first, last := 0, len(v.rows)
	if v.height > 0 {
		first = max(0, v.focused-v.height/2)
		last = min(len(v.rows), first+v.height)
	}
	clip := v.clip
	titles := v.titles
	if v.width > 0 {
		// The titles take at most half a narrow line, the input the rest.
		titles = min(titles, max(8, v.width/2-2))
		v.input.SetWidth(max(4, min(40, v.width-titles-5)))
	}
	var lines []string
	at := 0
	for i := first; i < last; i++ {
		r := v.rows[i]
		f := r.field
		mark := "  "
		if i == v.focused {
			mark, at = "▸ ", len(lines)
		}
		title := strings.Repeat("  ", r.depth) + clip(f.Path())
		if f.Required && r.item != f {
			title += "*"
		}
		lines = append(lines, mark+s.Title.Render(kit.Cell(title, titles))+"  "+v.shown(i))
		if f.Description != "" {
			lines = append(lines, "  "+strings.Repeat("  ", r.depth)+s.Muted.Render(clip(f.Description)))
		}
	}
	if v.height > 0 && len(lines) > v.height {
		top := min(max(0, at-v.height/2), len(lines)-v.height)
		lines = lines[top : top+v.height]
	}
	if v.width > 0 {
		for i, l := range lines {
			lines[i] = kit.Truncate(l, v.width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// clip is server text for one line of the form: cut to what the line can
// show, when the form has a width, the config's secrets masked, and
// sanitized.
func (v *Model) clip(text string) string {
	if v.width > 0 {
		text = kit.Cut(v.c.Redact, text, 4*v.width)
	}
	return kit.Quote(v.c.Redact, text)
}

// shown is row i's value as the form draws it.
func (v *Model) shown(i int) string {
	s := v.c.Styles()
	f := v.rows[i].field
	unset := s.Muted.Render("–")
	switch f.Kind {
	case schemaform.Bool:
		switch {
		case !f.Set:
			return unset
		case f.On:
			return "[x]"
		}
		return "[ ]"
	case schemaform.Enum:
		label := f.Shown()
		if label == "" {
			label = "–"
		}
		if f.Choice < 0 {
			return "‹ " + label + " ›"
		}
		return fmt.Sprintf("‹ %s ›  %d/%d", v.clip(label), f.Choice+1, len(f.Options))
	case schemaform.Multi:
		var opts []string
		room := 4 * v.width // what the line can show, when the form has a width
		for j := range f.Options {
			if v.width > 0 && room <= 0 {
				opts = append(opts, "…")
				break
			}
			box := "[ ] "
			if f.Picked[j] {
				box = "[x] "
			}
			o := box + v.clip(f.Option(j))
			if i == v.focused && j == v.at[f] {
				o = "‹" + o + "›"
			}
			opts = append(opts, o)
			room -= len(o) + 1
		}
		return strings.Join(opts, " ")
	case schemaform.Object:
		if !f.Set {
			return s.Muted.Render("– (space adds it)")
		}
		return ""
	case schemaform.Array:
		return s.Muted.Render(itemCount(len(f.Items)))
	}
	if i == v.focused && v.input.Focused() {
		return v.input.View()
	}
	if !f.Present() {
		return unset
	}
	if !inPlace(f) {
		return v.clip(f.Text) + s.Muted.Render("  (tab: edit it as JSON)")
	}
	return v.clip(f.Text)
}
