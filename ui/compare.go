package ui

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// minPolicyColumn is the narrowest a policy column of the compare view gets
// before columns scroll sideways.
const minPolicyColumn = 22

// compareRows lists the rows of the compare view: every advertised row, or
// with all false only those the policies disagree on (live under some,
// not under others). It is nil while the table is computed in the
// background (derive.go).
func (s *surface) compareRows(all bool) []ref {
	k := 0
	if all {
		k = 1
	}
	if s.compared[k] {
		return s.compare[k]
	}
	t := s.compareTable()
	if t == nil {
		return nil
	}
	var rows []ref
	for si, sv := range s.snap.Servers {
		if t.start[si] < 0 {
			continue
		}
		for i := range sv.Tools {
			if all || t.disagree(t.start[si]+i) {
				rows = append(rows, ref{si, i})
			}
		}
	}
	s.compare[k], s.compared[k] = rows, true
	return rows
}

// A compareTable is what the compare view shows of every policy: for each
// policy and each listed row, the few words of its cell. It is kept instead
// of the policies' registries, which at 20,000 rows held some 25 MB between
// them: each is dropped once its column is filled.
type compareTable struct {
	// start is where server i's rows begin in a column, -1 when the
	// server is not listed.
	start []int
	// cells holds one column per policy.
	cells [][]compareEntry
}

// A compareEntry is one cell: what the policy did with the row.
type compareEntry struct {
	text string
	kind int8 // a model.OutcomeKind; -1 when the policy has no outcome for the row
}

// compareTable returns the table, computing it now on a small surface; on
// a large one it is nil until derive's command delivers it.
func (s *surface) compareTable() *compareTable {
	if s.cmp == nil && !s.inBackground() {
		s.cmp = s.compareInput().build()
	}
	return s.cmp
}

// A compareInput is what building the compare table reads: a snapshot of
// the surface, safe to build from on another goroutine.
type compareInput struct {
	cats     []model.Catalogue // the listed servers', in order
	start    []int
	policies []model.Policy
}

func (s *surface) compareInput() compareInput {
	in := compareInput{cats: s.snap.Catalogues(), start: make([]int, len(s.snap.Servers)), policies: s.policies}
	n := 0
	for si, sv := range s.snap.Servers {
		in.start[si] = -1
		if sv.Listed {
			in.start[si] = n
			n += len(sv.Tools)
		}
	}
	return in
}

// build applies every policy, one at a time, and keeps each one's cells.
func (in compareInput) build() *compareTable {
	n := 0
	for _, c := range in.cats {
		n += len(c.Tools)
	}
	t := &compareTable{start: in.start, cells: make([][]compareEntry, len(in.policies))}
	said := map[string]string{} // one copy of each "✗ lost to ..." text
	for i, p := range in.policies {
		column := make([]compareEntry, n)
		for k := range column {
			column[k].kind = -1
		}
		reg := p.Apply(in.cats)
		offset := 0 // reg.Servers[c] is in.cats[c]
		for c, res := range reg.Servers {
			for row := range min(len(in.cats[c].Tools), len(res.Outcomes)) {
				o := &res.Outcomes[row]
				text := o.Name
				if !o.Live() {
					text = compareCell(*o)
					if same, ok := said[text]; ok {
						text = same
					} else {
						said[text] = text
					}
				}
				column[offset+row] = compareEntry{text: text, kind: int8(o.Kind)}
			}
			offset += len(in.cats[c].Tools)
		}
		t.cells[i] = column
	}
	return t
}

// disagree reports whether some policy keeps row k and another loses it.
func (t *compareTable) disagree(k int) bool {
	live, lost := false, false
	for _, column := range t.cells {
		if kind := model.OutcomeKind(column[k].kind); kind == model.Registered || kind == model.Renamed {
			live = true
		} else {
			lost = true
		}
	}
	return live && lost
}

// compareView shows one row per advertised tool and one column per
// policy: the registered name, or what happened instead.
func (m Model) compareView(height int) string {
	s := m.c.styles
	rows := m.surface.compareRows(m.compareAll)
	sw := max(6, min(12, m.c.width/12))
	ww := max(10, min(28, m.c.width/6))
	first, last, pw := m.compareColumns(sw + ww)
	head := "  " + cell("SERVER", sw) + " " + cell("WIRE NAME", ww)
	for i, p := range m.policies[first:last] {
		i += first
		name := p.Name
		if i == m.policy {
			name = "▸" + name
		}
		head += " " + cell(name, pw)
	}
	var notes []string
	if first > 0 || last < len(m.policies) {
		notes = append(notes, fmt.Sprintf("policies %d-%d of %d, ←/→", first+1, last, len(m.policies)))
	}
	if !m.compareAll {
		notes = append(notes, "only disagreements")
	}
	if len(notes) > 0 {
		note := " (" + strings.Join(notes, " · ") + ")"
		head = cell(head, m.c.width-textWidth(note)) + note
	}
	if m.surface.cmp == nil {
		return m.pendingView(head, height, "applying every policy")
	}
	return m.listView(head, len(rows), m.scroll[viewCompare], height, func(k int) string {
		r := rows[k]
		sv := m.surface.snap.Servers[r.server]
		wire := "(no name)"
		if t := sv.Tools[r.row]; t.NameOK {
			wire = t.Name
		}
		line := "  " + cell(model.Sanitize(sv.Label()), sw) + " " + cell(model.Sanitize(wire), ww)
		t := m.surface.compareTable()
		for i := first; i < last; i++ {
			e := t.cells[i][t.start[r.server]+r.row]
			if e.kind < 0 {
				line += " " + cell(s.Muted.Render("·"), pw)
				continue
			}
			line += " " + m.outcomeStyle(model.OutcomeKind(e.kind)).Render(cell(model.Sanitize(e.text), pw))
		}
		return line
	})
}

// compareCell is an outcome in a few characters: the name when the row is
// live, else what happened to it.
func compareCell(o model.Outcome) string {
	switch o.Kind {
	case model.Registered, model.Renamed:
		return o.Name
	case model.Displaced:
		return "↷ displaced by " + o.By
	}
	if o.By != "" {
		return "✗ lost to " + o.By
	}
	return "✗ dropped"
}

// compareColumns picks the policy columns that fit beside fixed columns:
// [first, last) and their width. The window starts at compareCol.
func (m Model) compareColumns(fixed int) (first, last, width int) {
	n := len(m.policies)
	room := m.c.width - 3 - fixed
	fit := max(1, min(n, room/(minPolicyColumn+1)))
	first = max(0, min(m.compareCol, n-fit))
	return first, first + fit, max(minPolicyColumn, room/fit-1)
}
