package ui

import (
	"github.com/mcplens/mcplens/model"
)

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
	// rows are the rows of the view: every advertised row ([1]), and only
	// those the policies disagree on ([0]).
	rows [2][]ref
}

// A compareEntry is one cell: what the policy did with the row.
type compareEntry struct {
	text string
	kind int8 // a model.OutcomeKind; -1 when the policy has no outcome for the row
}

// compareOf takes what building the table reads of s now, and returns the
// computation.
func compareOf(s *liveState) func() *compareTable {
	cats := s.snap.Catalogues() // the listed servers', in order
	policies := s.policies
	start := make([]int, len(s.snap.Servers))
	count := make([]int, len(s.snap.Servers))
	n := 0
	for si := range s.snap.Servers {
		start[si] = -1
		if tools, listed := s.toolsOf(si); listed {
			start[si], count[si] = n, len(tools)
			n += len(tools)
		}
	}
	return func() *compareTable {
		t := buildCompare(cats, policies, start, n)
		for si, first := range start {
			for i := range count[si] {
				t.rows[1] = append(t.rows[1], ref{si, i})
				if t.disagree(first + i) {
					t.rows[0] = append(t.rows[0], ref{si, i})
				}
			}
		}
		return t
	}
}

// buildCompare applies every policy, one at a time, and keeps each one's
// cells.
func buildCompare(cats []model.Catalogue, policies []model.Policy, start []int, n int) *compareTable {
	t := &compareTable{start: start, cells: make([][]compareEntry, len(policies))}
	said := map[string]string{} // one copy of each "✗ lost to ..." text
	for i, p := range policies {
		column := make([]compareEntry, n)
		for k := range column {
			column[k].kind = -1
		}
		reg := p.Apply(cats)
		offset := 0 // reg.Servers[c] is cats[c]
		for c, res := range reg.Servers {
			for row := range min(len(cats[c].Tools), len(res.Outcomes)) {
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
			offset += len(cats[c].Tools)
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
