package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A scroller is the one scroll mechanism of the interface: a cursor over n
// rows and the first line shown. Lists move the cursor and keep it in
// sight (move, show); the wire pane, which has no cursor, moves what is
// shown (scroll). Only visible lines are ever rendered.
type scroller struct {
	cursor, offset int
}

// moved returns where a movement key takes pos, on lines 0 to last, a
// page being page lines; ok is false when msg is not a movement key.
func moved(msg tea.KeyPressMsg, k KeyMap, pos, last, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		pos--
	case key.Matches(msg, k.Down):
		pos++
	case key.Matches(msg, k.PageUp):
		pos -= page
	case key.Matches(msg, k.PageDown):
		pos += page
	case key.Matches(msg, k.Top):
		pos = 0
	case key.Matches(msg, k.Bottom):
		pos = last
	default:
		return pos, false
	}
	return max(0, min(pos, last)), true
}

// isMove reports whether msg is a movement key.
func isMove(msg tea.KeyPressMsg, k KeyMap) bool {
	_, ok := moved(msg, k, 0, 0, 1)
	return ok
}

// move applies a movement key to the cursor over n rows shown height at a
// time, reporting whether msg was one. The caller keeps the cursor in
// sight with show.
func (s *scroller) move(msg tea.KeyPressMsg, k KeyMap, n, height int) bool {
	c, ok := moved(msg, k, s.cursor, n-1, max(1, height-1))
	s.cursor = c
	return ok
}

// scroll applies a movement key to the first of n lines shown height at a
// time, reporting whether msg was one.
func (s *scroller) scroll(msg tea.KeyPressMsg, k KeyMap, n, height int) bool {
	o, ok := moved(msg, k, s.offset, n-height, max(1, height-1))
	s.offset = o
	return ok
}

// show keeps line at of n lines inside a window of height lines.
func (s *scroller) show(at, n, height int) {
	if at < s.offset {
		s.offset = at
	}
	if at >= s.offset+height {
		s.offset = at - height + 1
	}
	s.offset = max(0, min(s.offset, n-height))
}

// listView draws a titled list, width columns wide: a column header, then
// the visible rows, rendered one by one by row, padded to height.
func (c *common) listView(head string, width, height, n int, sc scroller, row func(i int) string) string {
	s := c.styles
	out := make([]string, 0, height)
	out = append(out, s.ColumnHead.Render(truncate(head, width, "")))
	body := height - 1
	sc.cursor = max(0, min(sc.cursor, n-1))
	sc.show(sc.cursor, n, body)
	for i := sc.offset; i < n && len(out) < height; i++ {
		r := truncate(row(i), width, "…")
		if i == sc.cursor {
			r = s.painters().selected.Render(r + strings.Repeat(" ", max(0, width-textWidth(r))))
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

// A list is what the registry, compare, collisions and findings views
// share: a size, a scroller over their rows, the keys of a list.
type list struct {
	e             *env
	width, height int
	sc            scroller
}

func (l *list) SetSize(width, height int) { l.width, l.height = width, height }

// moveKey moves the cursor over n rows, reporting whether msg was a
// movement key.
func (l *list) moveKey(msg tea.Msg, n int) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !l.sc.move(k, l.e.c.keys, n, l.height-1) {
		return false
	}
	l.sc.show(l.sc.cursor, n, l.height-1)
	return true
}

// draw is listView at the list's size.
func (l *list) draw(head string, n int, row func(i int) string) string {
	return l.e.c.listView(head, l.width, l.height, n, l.sc, row)
}

// ShortHelp is the footer of a list view.
func (l *list) ShortHelp() []key.Binding {
	k := l.e.c.keys
	return []key.Binding{k.Invoke, k.NextView, k.Policy, k.Client, k.Wire, k.Providers, k.Up, k.Down}
}

// FullHelp is the help screen's keys for a list view.
func (l *list) FullHelp() [][]key.Binding {
	k := l.e.c.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		append([]key.Binding{k.NextView, k.PrevView}, k.Views...),
		{k.Policy, k.PolicyBack, k.Client, k.ClientBack, k.Protocol, k.Providers, k.Invoke, k.Send, k.Cancel},
		{k.Wire, k.WireServer, k.Logs, k.Stderr, k.Calls, k.Report, k.History, k.Rerun, k.Roots, k.Restart, k.Disconnect},
	}
}
