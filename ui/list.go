package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A scroller is a cursor over n rows and the first row shown. Views that
// are plain lists share it, so that only visible rows are ever rendered.
type scroller struct {
	cursor, offset int
}

// move applies a movement key, reporting whether msg was one.
func (s *scroller) move(msg tea.KeyPressMsg, k KeyMap, n, height int) bool {
	page := max(1, height-1)
	switch {
	case key.Matches(msg, k.Up):
		s.cursor--
	case key.Matches(msg, k.Down):
		s.cursor++
	case key.Matches(msg, k.PageUp):
		s.cursor -= page
	case key.Matches(msg, k.PageDown):
		s.cursor += page
	case key.Matches(msg, k.Top):
		s.cursor = 0
	case key.Matches(msg, k.Bottom):
		s.cursor = n - 1
	default:
		return false
	}
	s.clamp(n, height)
	return true
}

// clamp keeps the cursor on a row and inside the visible window.
func (s *scroller) clamp(n, height int) {
	s.cursor = max(0, min(s.cursor, n-1))
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+height {
		s.offset = s.cursor - height + 1
	}
	s.offset = max(0, min(s.offset, n-height))
}

// listView draws a titled list: a column header, then the visible rows,
// rendered one by one by row, padded to height.
func (m Model) listView(head string, n int, sc scroller, height int, row func(i int) string) string {
	s := m.c.styles
	out := make([]string, 0, height)
	out = append(out, s.ColumnHead.Render(truncate(head, m.c.width, "")))
	body := height - 1
	sc.clamp(n, body)
	for i := sc.offset; i < n && len(out) < height; i++ {
		r := truncate(row(i), m.c.width, "…")
		if i == sc.cursor {
			r = s.painters().selected.Render(r + strings.Repeat(" ", max(0, m.c.width-textWidth(r))))
		}
		out = append(out, r)
	}
	if n == 0 {
		out = append(out, s.Muted.Render("  nothing to show"))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
