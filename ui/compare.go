package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

// minPolicyColumn is the narrowest a policy column of the compare view gets
// before columns scroll sideways.
const minPolicyColumn = 22

// A compareView shows one row per advertised tool and one column per
// policy: the registered name, or what happened instead. Its table is
// computed by a command (derive.go).
type compareView struct {
	list
	table derived[*compareTable]
	// all shows every row, not only those the policies disagree on.
	all bool
	// col is the first policy column shown after the active one.
	col int
	// open is set while the selected row's full cells are shown; top is
	// the first of their lines shown (pgup/pgdn scroll them).
	open bool
	top  int
}

func newCompareView(e *env) compareView {
	return compareView{list: list{e: e}, table: newDerived[*compareTable](), all: true}
}

// rows are the rows shown, nil while the table is computed.
func (v *compareView) rows() []ref {
	if !v.table.ready(v.e.live.gen) {
		return nil
	}
	if v.all {
		return v.table.value.rows[1]
	}
	return v.table.value.rows[0]
}

func (v *compareView) Update(msg tea.Msg) tea.Cmd {
	k := v.e.c.keys
	switch msg := msg.(type) {
	case derivedMsg[*compareTable]:
		v.table.adopt(msg, v.e.live.gen)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Left):
			v.col = max(0, v.col-1)
		case key.Matches(msg, k.Right):
			v.col = min(len(v.e.policies)-2, v.col+1)
		case key.Matches(msg, k.OpenCell):
			v.open, v.top = !v.open, 0
		case v.open && key.Matches(msg, k.PageDown):
			v.top += max(1, v.height/3)
		case v.open && key.Matches(msg, k.PageUp):
			v.top = max(0, v.top-max(1, v.height/3))
		case key.Matches(msg, k.Cancel):
			v.open = false
		case key.Matches(msg, k.Disagree):
			v.all = !v.all
			v.sc = scroller{}
		case key.Matches(msg, k.NextServer):
			v.jumpServer(1)
		case key.Matches(msg, k.PrevServer):
			v.jumpServer(-1)
		default:
			v.moveKey(msg, len(v.rows()))
			v.top = 0
		}
	}
	return nil
}

// jumpServer moves the cursor to the first row of the next (1) or
// previous (-1) server; [ inside a server goes to its first row first.
func (v *compareView) jumpServer(step int) {
	rows := v.rows()
	c := v.sc.cursor
	if c >= len(rows) {
		return
	}
	first := func(k int) int {
		for k > 0 && rows[k-1].server == rows[k].server {
			k--
		}
		return k
	}
	if step < 0 && first(c) != c {
		v.sc.cursor = first(c)
		return
	}
	for k := c + step; k >= 0 && k < len(rows); k += step {
		if rows[k].server != rows[c].server {
			v.sc.cursor = first(k)
			return
		}
	}
}

// refresh returns the command applying every policy to the surface as it
// is now, unless the table is there or being computed.
func (v *compareView) refresh() tea.Cmd {
	s := v.e.live
	return v.table.need(s.gen, func() func() *compareTable { return compareOf(s) })
}

func (v *compareView) selected() (ref, bool) {
	rows := v.rows()
	if c := v.sc.cursor; c < len(rows) {
		return rows[c], true
	}
	return ref{}, false
}

func (v *compareView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.OpenCell, k.NextView, k.Policy, k.Disagree, k.Providers}
}

func (v *compareView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	help := v.list.FullHelp()
	help[0] = append(help[0], k.Left, k.Right, k.OpenCell, k.NextServer)
	help[2] = append(help[2], k.Disagree)
	return help
}

// takes reports whether the view takes msg before the root: enter opens
// the selected row's full cells, enter or esc closes them.
func (v *compareView) takes(msg tea.KeyPressMsg) bool {
	k := v.e.c.keys
	return key.Matches(msg, k.OpenCell) || (v.open && key.Matches(msg, k.Cancel))
}

// order is the policies in the order of the columns: the active one
// first, then the others as declared.
func (v *compareView) order() []int {
	out := []int{v.e.policy}
	for i := range v.e.policies {
		if i != v.e.policy {
			out = append(out, i)
		}
	}
	return out
}

func (v *compareView) View() string {
	e := v.e
	s := e.c.styles
	rows := v.rows()
	box := ""
	height := v.height
	if r, ok := v.selected(); ok && v.open {
		box = v.cellsView(r)
		height = max(2, height-lipgloss.Height(box))
	}
	sw := max(6, min(14, v.width/10))
	ww := max(10, min(28, v.width/6))
	order := v.order()
	first, last, pw := v.columns(sw + ww)
	shown := append([]int{order[0]}, order[1+first:1+last]...)
	head := "  " + cell("SERVER", sw) + " " + cell("WIRE NAME", ww)
	for _, i := range shown {
		name := e.policies[i].Name
		if i == e.policy {
			name = "▸" + name
		}
		head += " " + cell(name, pw)
	}
	notes := []string{"enter: full cells", "~ in a name too long for its column is the row's server"}
	if n := len(order) - 1; last-first < n {
		notes = append(notes, fmt.Sprintf("policies %d-%d of %d besides the active one, ←/→", first+1, last, n))
	}
	if !v.all {
		notes = append(notes, "only disagreements")
	}
	note := s.Muted.Render(truncate("  "+strings.Join(notes, " · "), v.width, "…"))
	if !v.table.ready(e.live.gen) {
		return note + "\n" + e.pendingView(head, v.width, height-1, "applying every policy")
	}
	t := v.table.value
	table := e.c.listView(head, v.width, height-1, len(rows), v.sc, func(k int) string {
		r := rows[k]
		wire := "(no name)"
		if t, ok := e.live.toolAt(r); ok && t.NameOK {
			wire = t.Name
		}
		label := e.live.label(r.server)
		line := "  " + cell(model.Sanitize(label), sw) + " " + cell(model.Sanitize(wire), ww)
		for _, i := range shown {
			c := t.cells[i][t.start[r.server]+r.row]
			if c.kind < 0 {
				line += " " + cell(s.Muted.Render("·"), pw)
				continue
			}
			text := c.text
			if k := model.OutcomeKind(c.kind); (k == model.Registered || k == model.Renamed) && textWidth(text) > pw {
				text = unprefixed(text, label)
			}
			line += " " + e.c.outcomeStyle(model.OutcomeKind(c.kind)).Render(cell(model.Sanitize(text), pw))
		}
		return line
	})
	if box != "" {
		return note + "\n" + table + "\n" + box
	}
	return note + "\n" + table
}

// unprefixed writes the row's server label inside a registered name as
// ~, for a name too wide for its column: the server column says it
// already, and a column of mcp__everything-01__… names hides what differs. A label a policy
// sanitized (anything but letters, digits, _ and - made _) is found too.
func unprefixed(name, label string) string {
	if label == "" {
		return name
	}
	if i := strings.Index(name, label); i >= 0 {
		return name[:i] + "~" + name[i+len(label):]
	}
	safe := []byte(label)
	for i, b := range safe {
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-') {
			safe[i] = '_'
		}
	}
	if i := strings.Index(name, string(safe)); i >= 0 {
		return name[:i] + "~" + name[i+len(safe):]
	}
	return name
}

// cellsView is the box enter opens under the table: the selected row's
// server and wire name, then every policy's cell in full, wrapped.
func (v *compareView) cellsView(r ref) string {
	e := v.e
	s := e.c.styles
	t := v.table.value
	wire := "(no name)"
	if tool, ok := e.live.toolAt(r); ok && tool.NameOK {
		wire = tool.Name
	}
	w := max(10, v.width-4)
	lines := []string{s.PaneTitle.Render(truncate(model.Sanitize(e.live.label(r.server))+" · "+model.Sanitize(wire), w, "…")) +
		s.Muted.Render("  (enter or esc closes)")}
	width := 0
	for _, p := range e.policies {
		width = max(width, textWidth(p.Name))
	}
	for _, i := range v.order() {
		c := t.cells[i][t.start[r.server]+r.row]
		text := "·"
		if c.kind >= 0 {
			text = model.Sanitize(c.text)
		}
		name := cell(e.policies[i].Name, width)
		for k, part := range strings.Split(ansi.Wrap(text, max(8, w-width-2), "_.-"), "\n") {
			if k > 0 {
				name = strings.Repeat(" ", width)
			}
			lines = append(lines, s.PolicyName.Render(name)+"  "+e.c.outcomeStyle(model.OutcomeKind(c.kind)).Render(part))
		}
	}
	if most := max(3, v.height-5); len(lines) > most {
		// The title stays; the cells scroll under it, marks saying what
		// is hidden and how to see it.
		body, n := lines[1:], most-1
		v.top = max(0, min(v.top, len(body)-n))
		shown := slices.Clone(body[v.top : v.top+n])
		if v.top > 0 {
			shown[0] = s.Muted.Render(fmt.Sprintf("↑ %d more (pgup)", v.top+1))
		}
		if below := len(body) - v.top - n; below > 0 {
			shown[n-1] = s.Muted.Render(fmt.Sprintf("↓ %d more (pgdn)", below+1))
		}
		lines = append(lines[:1], shown...)
	}
	return s.Overlay.Width(v.width).Render(strings.Join(lines, "\n"))
}

// columns picks the policy columns besides the active one that fit beside
// fixed columns and it: [first, last) of the others, and the width of
// every column. The window starts at col.
func (v *compareView) columns(fixed int) (first, last, width int) {
	n := len(v.e.policies) - 1
	room := v.width - 3 - fixed
	fit := max(1, min(n+1, room/(minPolicyColumn+1)))
	first = max(0, min(v.col, n-(fit-1)))
	return first, first + fit - 1, max(minPolicyColumn, room/fit-1)
}
