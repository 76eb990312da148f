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
// not under others).
func (s *surface) compareRows(all bool) []ref {
	k := 0
	if all {
		k = 1
	}
	if s.compared[k] {
		return s.compare[k]
	}
	var rows []ref
	for si, sv := range s.servers {
		if !sv.listed {
			continue
		}
		for i := range sv.tools {
			r := ref{si, i}
			if all || s.disagree(r) {
				rows = append(rows, r)
			}
		}
	}
	s.compare[k], s.compared[k] = rows, true
	return rows
}

// disagree reports whether some policy keeps the row and another loses it.
func (s *surface) disagree(r ref) bool {
	live, lost := false, false
	for i := range s.policies {
		if o, ok := s.policyOutcome(i, r); ok && o.Live() {
			live = true
		} else {
			lost = true
		}
	}
	return live && lost
}

// policyOutcome is the outcome of row r under the policy at index i.
func (s *surface) policyOutcome(i int, r ref) (model.Outcome, bool) {
	res := s.resultsOf(i)[r.server]
	if res == nil || r.row >= len(res.Outcomes) {
		return model.Outcome{}, false
	}
	return res.Outcomes[r.row], true
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
	return m.listView(head, len(rows), m.scroll[viewCompare], height, func(k int) string {
		r := rows[k]
		sv := m.surface.servers[r.server]
		wire := "(no name)"
		if t := sv.tools[r.row]; t.NameOK {
			wire = t.Name
		}
		line := "  " + cell(model.Sanitize(sv.spec.Label), sw) + " " + cell(model.Sanitize(wire), ww)
		for i := first; i < last; i++ {
			o, ok := m.surface.policyOutcome(i, r)
			if !ok {
				line += " " + cell(s.Muted.Render("·"), pw)
				continue
			}
			line += " " + m.outcomeStyle(o.Kind).Render(cell(model.Sanitize(compareCell(o)), pw))
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
