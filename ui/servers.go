package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A serversView is the per-server tables: each server's status line, its
// notes, then one row per advertised tool. Its cursor moves over the tool
// rows (surface.rows); its offset is the first line shown.
type serversView struct {
	list
	// lockChange is how a tool differs from the lock (Model.lockChange).
	lockChange func(server string, t model.Tool) (model.ToolChange, bool)
	// chosen is the line the user chose (picked once a key moved the
	// cursor), and seen the layout the cursor indexes: after another
	// layout (a query typed or cleared, a server failing above, a fold)
	// the cursor goes back to that line, or to the nearest line of its
	// server still shown. Until the user picks, the cursor stays at the top.
	chosen line
	picked bool
	seen   int
}

func (v *serversView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, v.e.c.keys.Login) {
		return v.e.startLogin(v.selected())
	}
	keys := v.e.c.keys
	switch {
	case key.Matches(k, keys.NextServer):
		v.jumpServer(1)
	case key.Matches(k, keys.PrevServer):
		v.jumpServer(-1)
	case key.Matches(k, keys.NextMatch):
		v.nextMatch(1)
	case key.Matches(k, keys.PrevMatch):
		v.nextMatch(-1)
	case key.Matches(k, keys.Collapse):
		v.fold()
	case v.sc.move(k, keys, len(v.e.live.rows), v.height-1):
	default:
		return nil
	}
	v.picked = true
	v.follow()
	return nil
}

// jumpServer moves the cursor to the first row of the next (step 1) or
// previous (-1) server that has one, in the order laid out.
func (v *serversView) jumpServer(step int) {
	s := v.e.live
	if len(s.rows) == 0 {
		return
	}
	cur := s.lines[s.rows[v.sc.cursor]].server
	first := v.firstRowOf(v.sc.cursor)
	if step < 0 && first != v.sc.cursor {
		v.sc.cursor = first // back to the top of this server first
		return
	}
	for k := v.sc.cursor + step; k >= 0 && k < len(s.rows); k += step {
		if srv := s.lines[s.rows[k]].server; srv != cur {
			v.sc.cursor = v.firstRowOf(k)
			return
		}
	}
}

// firstRowOf returns the first row of the server of row k.
func (v *serversView) firstRowOf(k int) int {
	s := v.e.live
	srv := s.lines[s.rows[k]].server
	for k > 0 && s.lines[s.rows[k-1]].server == srv {
		k--
	}
	return k
}

// nextMatch moves to the next (1) or previous (-1) row a query kept,
// round the end; every row shown is one.
func (v *serversView) nextMatch(step int) {
	n := len(v.e.live.rows)
	if !v.e.live.filter.active() || n == 0 {
		return
	}
	v.sc.cursor = (v.sc.cursor + step + n) % n
}

// fold folds the server of the selected row to its status line, or
// unfolds the folded server selected. Under a query nothing folds.
func (v *serversView) fold() {
	s := v.e.live
	if len(s.rows) == 0 || s.filter.active() {
		return
	}
	srv := s.lines[s.rows[v.sc.cursor]].server
	if s.folded == nil {
		s.folded = map[int]bool{}
	}
	s.folded[srv] = !s.folded[srv]
	s.layout()
	for k, li := range s.rows {
		if s.lines[li].server == srv {
			v.moveTo(k)
			return
		}
	}
}

// ShortHelp is the footer of the servers view: a list's keys, and finding
// and jumping first, since they are what a long surface needs; L first
// while a server needs a login.
func (v *serversView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	keys := append([]key.Binding{k.Invoke, k.Search, k.NextServer, k.Collapse}, v.list.ShortHelp()[1:]...)
	if v.e.needsLogin() {
		keys = append([]key.Binding{k.Login}, keys...)
	}
	return keys
}

// FullHelp is the help screen's keys for the servers view.
func (v *serversView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	help := v.list.FullHelp()
	help[0] = append(help[0], k.NextServer, k.Collapse, k.Search, k.NextMatch)
	return help
}

// refresh keeps the cursor on a row of the surface as laid out now.
func (v *serversView) refresh() tea.Cmd {
	v.follow()
	return nil
}

func (v *serversView) SetSize(width, height int) {
	v.list.SetSize(width, height)
	v.follow()
}

// follow keeps the cursor on a row, and the selected row, and its
// server's header when it fits, inside the visible part of the view,
// below the header pinned to its top (pinned).
func (v *serversView) follow() {
	s := v.e.live
	if v.seen != s.laidOut {
		v.seen = s.laidOut
		if k, ok := v.nearest(v.chosen); ok && v.picked {
			v.sc.cursor = k
		} else if !v.picked {
			v.sc.cursor = v.firstTool() // the failures pinned above are rows too, but not where a user starts
		}
	}
	v.sc.cursor = max(0, min(v.sc.cursor, len(s.rows)-1))
	if len(s.rows) == 0 {
		v.sc.offset = 0
		return
	}
	v.chosen = s.lines[s.rows[v.sc.cursor]]
	if v.height <= 0 {
		v.sc.offset = 0
		return
	}
	at, before := s.rows[v.sc.cursor], v.sc.offset
	v.sc.show(at, len(s.lines), v.height)
	if at < before {
		for v.sc.offset > 0 && at-v.sc.offset < 2 && s.lines[v.sc.offset-1].kind != lineBlank {
			v.sc.offset--
		}
	}
	for range 4 {
		p := v.pinned(v.sc.offset)
		if at < v.sc.offset+v.height-p {
			break
		}
		v.sc.offset = at - (v.height - p) + 1
	}
}

// firstTool is the first row that is a tool, else the first row.
func (v *serversView) firstTool() int {
	s := v.e.live
	for k, li := range s.rows {
		if s.lines[li].kind == lineTool {
			return k
		}
	}
	return 0
}

// moveTo puts the cursor on row k of the layout as it is now.
func (v *serversView) moveTo(k int) {
	v.sc.cursor, v.seen, v.picked = k, v.e.live.laidOut, true
	v.follow()
}

// nearest returns the row showing want, or else the nearest row of want's
// server: the tool row closest to it, or the server's folded status line.
func (v *serversView) nearest(want line) (int, bool) {
	s := v.e.live
	at, gap := -1, 0
	for k, li := range s.rows {
		l := s.lines[li]
		if l.server != want.server {
			continue
		}
		d := abs(l.outcome - want.outcome)
		if l.kind != want.kind {
			d = 1 << 30 // a status line only where no tool row of the server is shown
		}
		if at < 0 || d < gap {
			at, gap = k, d
		}
	}
	return at, at >= 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// pinned is how many lines of the server whose block the view starts in,
// offset lines down, stay at its top: its status line, and its column
// heads once its first row has scrolled away. None when its status line
// is in sight, or the view is too short to spare them.
func (v *serversView) pinned(offset int) int {
	s := v.e.live
	if offset <= 0 || offset >= len(s.lines) || v.height < 6 {
		return 0
	}
	l := s.lines[offset]
	if l.kind == lineServer || l.kind == lineBlank || l.top {
		return 0
	}
	if l.kind == lineTool {
		return 2
	}
	return 1
}

// server is the server of the line under the cursor: a tool row's, or a
// status line's (a folded or disconnected server).
func (v *serversView) server() (int, bool) {
	s := v.e.live
	if len(s.rows) == 0 {
		return 0, false
	}
	return s.lines[s.rows[v.sc.cursor]].server, true
}

func (v *serversView) selected() (ref, bool) {
	s := v.e.live
	if len(s.rows) == 0 {
		return ref{}, false
	}
	l := s.lines[s.rows[v.sc.cursor]]
	if l.kind != lineTool {
		return ref{}, false
	}
	return ref{l.server, l.outcome}, true
}

// View draws the visible part of the per-server tables.
func (v *serversView) View() string {
	s := v.e.live
	out := make([]string, 0, v.height)
	sel := -1
	if len(s.rows) > 0 {
		sel = s.rows[v.sc.cursor]
	}
	cols := v.e.columns(v.width)
	if p := v.pinned(v.sc.offset); p > 0 {
		srv := s.lines[v.sc.offset].server
		out = append(out, v.lineView(line{kind: lineServer, server: srv}, cols, false))
		if p > 1 {
			out = append(out, v.lineView(line{kind: lineColumns, server: srv}, cols, false))
		}
	}
	for i := v.sc.offset; i < len(s.lines) && len(out) < v.height; i++ {
		out = append(out, v.lineView(s.lines[i], cols, i == sel))
	}
	if len(s.snap.Servers) == 0 {
		out = append(out, v.e.c.styles.Muted.Render(v.e.noServers()))
	}
	for len(out) < v.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

func (v *serversView) lineView(l line, cols columns, selected bool) string {
	e := v.e
	s := e.c.styles
	switch l.kind {
	case lineServer:
		line := truncate(v.serverLine(l.server), v.width, "…")
		if selected {
			line = s.painters().selected.Render(line + strings.Repeat(" ", max(0, v.width-textWidth(line))))
		}
		return line
	case lineColumns:
		row := "   " + cell("WIRE NAME", cols.wire) + " " + cell("REGISTERED AS", cols.name) + " " +
			cell("OUTCOME", cols.outcome)
		row += e.checksHead(cols)
		return s.ColumnHead.Render(truncate(row, v.width, ""))
	case lineTool:
		return v.toolLine(l, cols, selected)
	case lineError:
		return truncate("  "+s.ErrorText.Render(e.c.text(l.text)), v.width, "…")
	case lineIncomplete:
		if l.status == surface.PolicyFailed {
			return truncate(s.ErrorText.Render("✗ "+l.text), v.width, "…")
		}
		return truncate(s.WarnText.Render("▲ "+l.text), v.width, "…")
	case lineFailure:
		line := truncate(s.ErrorText.Render("✗ "+model.Sanitize(e.live.label(l.server))+" failed: ")+
			s.ErrorText.Render(e.c.text(l.text)), v.width, "…")
		if selected {
			line = s.painters().selected.Render(line + strings.Repeat(" ", max(0, v.width-textWidth(line))))
		}
		return line
	case lineNote:
		return truncate("  "+s.Muted.Render(e.c.text(l.text)), v.width, "…")
	case lineURL:
		return truncate("    "+s.Muted.Render(model.Sanitize(l.text)), v.width, "…")
	}
	return ""
}

func (v *serversView) toolLine(l line, cols columns, selected bool) string {
	e := v.e
	o, _, ok := e.live.outcomeAt(ref{l.server, l.outcome})
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
	marker += v.changeMark(l.server, o)
	outcome, style := outcomeText(o), e.c.outcomeStyle(o.Kind)
	row := marker + cellMid(model.Sanitize(wire), cols.wire) + " " +
		style.Render(cellMid(model.Sanitize(o.Name), cols.name)) + " " +
		style.Render(cell(model.Sanitize(outcome), cols.outcome))
	row += e.checks(cols, o)
	row = truncate(row, v.width, "…")
	if selected {
		row = e.c.styles.painters().selected.Render(row + strings.Repeat(" ", max(0, v.width-textWidth(row))))
	}
	return row
}

// changeMark flags a row whose tool is new or changed since the server's
// previous list (+, ~), or differs from the lock (≠); a space otherwise.
func (v *serversView) changeMark(server int, o model.Outcome) string {
	s := v.e.c.styles
	if c, ok := v.e.live.relistedOf(server).Tool(o.Wire); ok {
		if c.Kind == model.ToolAdded {
			return s.OKText.Render(markAdded)
		}
		return s.WarnText.Render(markChanged)
	}
	if o.Wire == "" || v.e.pins.lock == nil {
		return " "
	}
	if t, ok := v.e.live.toolAt(ref{server, o.Index}); ok {
		if c, ok := v.lockChange(v.e.live.label(server), t); ok && c.Kind != model.ToolRemoved {
			return s.ErrorText.Render(markLocked)
		}
	}
	return " "
}
