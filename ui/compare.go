package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	// col is the first policy column shown.
	col int
}

func newCompareView(e *env) compareView {
	return compareView{list: list{e: e}, table: newDerived[*compareTable](), all: true}
}

// rows are the rows shown, nil while the table is computed.
func (v *compareView) rows() []ref {
	if !v.table.ready(v.e.surface.gen) {
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
		v.table.adopt(msg, v.e.surface.gen)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Left):
			v.col = max(0, v.col-1)
		case key.Matches(msg, k.Right):
			v.col = min(len(v.e.policies)-1, v.col+1)
		case key.Matches(msg, k.Disagree):
			v.all = !v.all
			v.sc = scroller{}
		default:
			v.moveKey(msg, len(v.rows()))
		}
	}
	return nil
}

// refresh returns the command applying every policy to the surface as it
// is now, unless the table is there or being computed.
func (v *compareView) refresh() tea.Cmd {
	s := v.e.surface
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
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.NextView, k.Policy, k.Disagree, k.Providers, k.Invoke}
}

func (v *compareView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	help := v.list.FullHelp()
	help[0] = append(help[0], k.Left, k.Right)
	help[2] = append(help[2], k.Disagree)
	return help
}

func (v *compareView) View() string {
	e := v.e
	s := e.c.styles
	rows := v.rows()
	sw := max(6, min(12, v.width/12))
	ww := max(10, min(28, v.width/6))
	first, last, pw := v.columns(sw + ww)
	head := "  " + cell("SERVER", sw) + " " + cell("WIRE NAME", ww)
	for i, p := range e.policies[first:last] {
		i += first
		name := p.Name
		if i == e.policy {
			name = "▸" + name
		}
		head += " " + cell(name, pw)
	}
	var notes []string
	if first > 0 || last < len(e.policies) {
		notes = append(notes, fmt.Sprintf("policies %d-%d of %d, ←/→", first+1, last, len(e.policies)))
	}
	if !v.all {
		notes = append(notes, "only disagreements")
	}
	if len(notes) > 0 {
		note := " (" + strings.Join(notes, " · ") + ")"
		head = cell(head, v.width-textWidth(note)) + note
	}
	if !v.table.ready(e.surface.gen) {
		return e.pendingView(head, v.width, v.height, "applying every policy")
	}
	t := v.table.value
	return v.draw(head, len(rows), func(k int) string {
		r := rows[k]
		wire := "(no name)"
		if t, ok := e.surface.toolAt(r); ok && t.NameOK {
			wire = t.Name
		}
		line := "  " + cell(model.Sanitize(e.surface.label(r.server)), sw) + " " + cell(model.Sanitize(wire), ww)
		for i := first; i < last; i++ {
			c := t.cells[i][t.start[r.server]+r.row]
			if c.kind < 0 {
				line += " " + cell(s.Muted.Render("·"), pw)
				continue
			}
			line += " " + e.c.outcomeStyle(model.OutcomeKind(c.kind)).Render(cell(model.Sanitize(c.text), pw))
		}
		return line
	})
}

// columns picks the policy columns that fit beside fixed columns:
// [first, last) and their width. The window starts at col.
func (v *compareView) columns(fixed int) (first, last, width int) {
	n := len(v.e.policies)
	room := v.width - 3 - fixed
	fit := max(1, min(n, room/(minPolicyColumn+1)))
	first = max(0, min(v.col, n-fit))
	return first, first + fit, max(minPolicyColumn, room/fit-1)
}
