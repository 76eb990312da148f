package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/mcplens/mcplens/model"
)

// A rowFilter keeps the tool rows whose wire name or registered name
// matches a query, fuzzily (the characters of the query in order, as
// sahilm/fuzzy ranks them): the servers view then lays out only those rows
// and the servers that have one.
type rowFilter struct {
	query string
	// score is each matching row's best score; nil when there is no query.
	score map[ref]int
}

// active reports whether a query filters the rows.
func (f *rowFilter) active() bool { return f.query != "" }

// keeps reports whether row r is shown.
func (f *rowFilter) keeps(r ref) bool {
	if f.score == nil {
		return true
	}
	_, ok := f.score[r]
	return ok
}

// match finds the rows of the active policy that match the query: a row's
// wire name and registered name are each matched, the better score kept.
func (s *surface) match() {
	f := &s.filter
	f.score = nil
	if f.query == "" {
		return
	}
	var wires, names []string
	var refs []ref
	for i, r := range s.results {
		if r == nil {
			continue
		}
		for j, o := range r.Outcomes {
			refs = append(refs, ref{i, j})
			wires = append(wires, o.Wire)
			names = append(names, o.Name)
		}
	}
	f.score = map[ref]int{}
	for _, src := range [][]string{wires, names} {
		for _, m := range fuzzy.Find(f.query, src) {
			r := refs[m.Index]
			if sc, ok := f.score[r]; !ok || m.Score > sc {
				f.score[r] = m.Score
			}
		}
	}
}

// best returns the matching row with the highest score, the first laid
// out among equals, as an index into rows.
func (s *surface) best() (int, bool) {
	at, top := -1, 0
	for k, li := range s.rows {
		l := s.lines[li]
		if l.kind != lineTool {
			continue
		}
		if sc := s.filter.score[ref{l.server, l.outcome}]; at < 0 || sc > top {
			at, top = k, sc
		}
	}
	return at, at >= 0
}

// A finder is the / prompt: while typing, every key goes to it, so that
// a query never switches views, toggles panes or writes a report.
type finder struct {
	input  textinput.Model
	typing bool
}

func newFinder() finder {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "tool name"
	return finder{input: in}
}

// startFind opens the prompt on the servers view, with the query kept so
// far.
func (m *Model) startFind() tea.Cmd {
	m.view = viewServers
	m.find.typing = true
	m.find.input.SetValue(m.surface.filter.query)
	m.find.input.CursorEnd()
	return m.find.input.Focus()
}

// typeFind takes a key while the prompt is open: enter keeps the filter,
// esc clears it, anything else edits the query, which filters at once.
func (m *Model) typeFind(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Keep):
		m.find.typing = false
		m.find.input.Blur()
		return nil
	case key.Matches(msg, k.Cancel):
		m.find.typing = false
		m.find.input.Blur()
		m.setQuery("")
		return nil
	}
	var cmd tea.Cmd
	m.find.input, cmd = m.find.input.Update(msg)
	if q := m.find.input.Value(); q != m.surface.filter.query {
		m.setQuery(q)
	}
	return cmd
}

// setQuery filters the rows by q ("" shows every row) and puts the cursor
// on the best match.
func (m *Model) setQuery(q string) {
	s := m.surface
	s.filter.query = q
	s.match()
	s.layout()
	if at, ok := s.best(); ok && q != "" {
		m.servers.sc.cursor = at
	}
	m.servers.refresh()
}

// findView is the footer's line while a query is typed or kept: the
// prompt or the query, and how many rows match.
func (m *Model) findView() string {
	s := m.c.styles
	f := &m.surface.filter
	count := s.Muted.Render(fmt.Sprintf("  %d of %d rows", len(f.score), m.surface.rowCount()))
	if m.find.typing {
		return m.find.input.View() + count + s.Muted.Render(" · enter keeps · esc clears")
	}
	if !f.active() {
		return ""
	}
	return s.WarnText.Render("/"+model.Sanitize(f.query)) + count + s.Muted.Render(" · n/N next/prev · esc clears")
}
