package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui/kit"
)

// A scroller is the one scroll mechanism of the interface (kit.Scroller,
// whose Move, Scroll and Show its methods are): a cursor over n rows and
// the first line shown.
type scroller struct {
	cursor, offset int
}

// kit returns s as the kit's Scroller, and put takes it back.
func (s *scroller) kit() kit.Scroller  { return kit.Scroller{Cursor: s.cursor, Offset: s.offset} }
func (s *scroller) put(k kit.Scroller) { s.cursor, s.offset = k.Cursor, k.Offset }

// moved returns where a movement key takes pos (kit.Moved).
func moved(msg tea.KeyPressMsg, k KeyMap, pos, last, page int) (int, bool) {
	return kit.Moved(msg, k.nav(), pos, last, page)
}

// nav are the movement keys of k, as the components under ui take them.
func (k KeyMap) nav() kit.Nav {
	return kit.Nav{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}
}

// isMove reports whether msg is a movement key.
func isMove(msg tea.KeyPressMsg, k KeyMap) bool {
	_, ok := moved(msg, k, 0, 0, 1)
	return ok
}

// move applies a movement key to the cursor (kit.Scroller.Move).
func (s *scroller) move(msg tea.KeyPressMsg, k KeyMap, n, height int) bool {
	ks := s.kit()
	ok := ks.Move(msg, k.nav(), n, height)
	s.put(ks)
	return ok
}

// scroll applies a movement key to the first line shown
// (kit.Scroller.Scroll).
func (s *scroller) scroll(msg tea.KeyPressMsg, k KeyMap, n, height int) bool {
	ks := s.kit()
	ok := ks.Scroll(msg, k.nav(), n, height)
	s.put(ks)
	return ok
}

// show keeps line at of n lines inside a window of height lines
// (kit.Scroller.Show).
func (s *scroller) show(at, n, height int) {
	ks := s.kit()
	ks.Show(at, n, height)
	s.put(ks)
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
		{k.Policy, k.PolicyBack, k.Client, k.ClientBack, k.Protocol, k.Providers, k.Invoke, k.App, k.Send, k.Cancel},
		{k.Wire, k.WireServer, k.Logs, k.Stderr, k.Tasks, k.Calls, k.Report, k.History, k.Rerun, k.Roots, k.Restart, k.Disconnect, k.Audit},
	}
}
