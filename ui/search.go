package ui

import (
	"fmt"
	"math"
	"strings"

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
	// The candidates, built once per registry (reg): every row of a
	// listed server, its wire name and its registered name. first[i] is
	// where server i's rows start in them.
	reg          *model.Registry
	refs         []ref
	wires, names []string
	first        []int
	// score is each candidate's best score, noMatch when it does not match;
	// nil when there is no query. matched lists the matching candidates,
	// which are all a longer query can match.
	score   []int
	matched []int
}

// active reports whether a query filters the rows.
func (f *rowFilter) active() bool { return f.query != "" }

// keeps reports whether row r is shown.
func (f *rowFilter) keeps(r ref) bool {
	if f.score == nil {
		return true
	}
	return f.score[f.first[r.server]+r.row] != noMatch
}

// noMatch is the score of a row the query does not match (a match's score
// can be below zero).
const noMatch = math.MinInt

// scoreOf is row r's score under the query.
func (f *rowFilter) scoreOf(r ref) int { return f.score[f.first[r.server]+r.row] }

// candidates lists the rows of the active registry once.
func (s *surface) candidates() {
	f := &s.filter
	if f.reg == s.reg && f.reg != nil {
		return
	}
	f.reg, f.refs, f.wires, f.names = s.reg, f.refs[:0], f.wires[:0], f.names[:0]
	f.first = make([]int, len(s.results))
	for i, r := range s.results {
		f.first[i] = len(f.refs)
		if r == nil {
			continue
		}
		for j, o := range r.Outcomes {
			f.refs = append(f.refs, ref{i, j})
			f.wires = append(f.wires, o.Wire)
			f.names = append(f.names, o.Name)
		}
	}
	f.matched = nil
}

// subset is some candidates' names as a fuzzy.Source.
type subset struct {
	names []string
	of    []int
}

func (s subset) String(i int) string { return s.names[s.of[i]] }
func (s subset) Len() int            { return len(s.of) }

// match finds the rows of the active policy that match the query: a row's
// wire name and registered name are each matched, the better score kept.
// A query that extends the one before is matched against the rows that
// one kept only.
func (s *surface) match(previous string) {
	f := &s.filter
	if f.query == "" {
		f.score, f.matched = nil, nil
		return
	}
	stale := f.reg != s.reg
	s.candidates()
	of := f.matched
	if stale || f.score == nil || previous == "" || !strings.HasPrefix(f.query, previous) {
		of = make([]int, len(f.refs))
		for i := range of {
			of[i] = i
		}
	}
	if len(f.score) != len(f.refs) {
		f.score = make([]int, len(f.refs))
	}
	for i := range f.score {
		f.score[i] = noMatch
	}
	for _, names := range [][]string{f.wires, f.names} {
		for _, m := range fuzzy.FindFromNoSort(f.query, subset{names, of}) {
			k := of[m.Index]
			f.score[k] = max(f.score[k], m.Score)
		}
	}
	f.matched = make([]int, 0, len(of))
	for _, k := range of {
		if f.score[k] != noMatch {
			f.matched = append(f.matched, k)
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
		if sc := s.filter.scoreOf(ref{l.server, l.outcome}); at < 0 || sc > top {
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
	previous := s.filter.query
	s.filter.query = q
	s.match(previous)
	s.layout()
	if q == "" {
		m.servers.refresh()
		return
	}
	if at, ok := s.best(); ok {
		m.servers.sc.cursor = at
	}
	m.servers.refresh()
}

// findView is the footer's line while a query is typed or kept: the
// prompt or the query, and how many rows match.
func (m *Model) findView() string {
	s := m.c.styles
	f := &m.surface.filter
	count := s.Muted.Render(fmt.Sprintf("  %d of %d rows", len(f.matched), m.surface.rowCount()))
	if m.find.typing {
		return m.find.input.View() + count + s.Muted.Render(" · enter keeps · esc clears")
	}
	if !f.active() {
		return ""
	}
	return s.WarnText.Render("/"+model.Sanitize(f.query)) + count + s.Muted.Render(" · n/N next/prev · esc clears")
}
