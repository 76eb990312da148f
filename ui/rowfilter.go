package ui

import (
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/mcplens/mcplens/model"
)

// A rowFilter keeps the tool rows whose wire name or registered name
// matches a query, fuzzily (the characters of the query in order, as
// sahilm/fuzzy ranks them): the servers view then lays out only those rows
// and the servers that have one.
//
// Up to findAsyncAbove rows a query is matched as it is typed; above, by a
// command off the goroutine that draws (as compare and findings are
// computed, derive.go), one at a time, the rows of the last query matched
// shown meanwhile.
type rowFilter struct {
	query string
	// The candidates, built once per registry (reg): every row of a
	// listed server, its wire name and its registered name. first[i] is
	// where server i's rows start in them. A computation running reads
	// them: they are replaced, never changed.
	reg          *model.Registry
	refs         []ref
	wires, names []string
	first        []int
	// score is each candidate's best score under the query have, for the
	// registry scored, noMatch when it does not match; nil when there is
	// none. matched lists the matching candidates, which are all a longer
	// query can match.
	score   []int
	matched []int
	have    string
	scored  *model.Registry
	// running is set while a command matches.
	running bool
}

// findAsyncAbove is how many candidate rows a query is matched against
// while it is typed; more are matched by a command.
const findAsyncAbove = 20_000

// noMatch is the score of a row the query does not match (a match's score
// can be below zero).
const noMatch = math.MinInt

// active reports whether a query filters the rows.
func (f *rowFilter) active() bool { return f.query != "" }

// current reports whether the scores are those of the query now.
func (f *rowFilter) current() bool { return f.score != nil && f.have == f.query && f.scored == f.reg }

// keeps reports whether row r is shown: every row until a query has
// been matched against these candidates.
func (f *rowFilter) keeps(r ref) bool {
	if f.score == nil || len(f.score) != len(f.refs) {
		return true
	}
	return f.score[f.first[r.server]+r.row] != noMatch
}

// scoreOf is row r's score under the query.
func (f *rowFilter) scoreOf(r ref) int { return f.score[f.first[r.server]+r.row] }

// candidates lists the rows of the active registry once.
func (s *liveState) candidates() {
	f := &s.filter
	if f.reg == s.reg && f.reg != nil {
		return
	}
	f.reg, f.refs, f.wires, f.names = s.reg, nil, nil, nil
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
}

// subset is some candidates' names as a fuzzy.Source.
type subset struct {
	names []string
	of    []int
}

func (s subset) String(i int) string { return s.names[s.of[i]] }
func (s subset) Len() int            { return len(s.of) }

// A rowMatch is a query to match against candidates: all of them, or
// (of) those a shorter query kept.
type rowMatch struct {
	query        string
	reg          *model.Registry
	wires, names []string
	of           []int
}

// plan is the match the query needs now.
func (s *liveState) plan() rowMatch {
	f := &s.filter
	s.candidates()
	m := rowMatch{query: f.query, reg: f.reg, wires: f.wires, names: f.names, of: f.matched}
	if f.scored != f.reg || f.score == nil || f.have == "" || !strings.HasPrefix(f.query, f.have) {
		m.of = make([]int, len(f.refs))
		for i := range m.of {
			m.of[i] = i
		}
	}
	return m
}

// A foundRowsMsg is a match done: each candidate's score and the
// matching ones.
type foundRowsMsg struct {
	rowMatch
	score, matched []int
}

// run matches: a row's wire name and registered name are each matched,
// the better score kept. It reads only m.
func (m rowMatch) run() foundRowsMsg {
	score := make([]int, len(m.wires))
	for i := range score {
		score[i] = noMatch
	}
	for _, names := range [][]string{m.wires, m.names} {
		for _, f := range fuzzy.FindFromNoSort(m.query, subset{names, m.of}) {
			k := m.of[f.Index]
			score[k] = max(score[k], f.Score)
		}
	}
	matched := make([]int, 0, len(m.of))
	for _, k := range m.of {
		if score[k] != noMatch {
			matched = append(matched, k)
		}
	}
	return foundRowsMsg{rowMatch: m, score: score, matched: matched}
}

// adoptFound keeps a match's result when it is for the candidates shown,
// reporting whether it did.
func (s *liveState) adoptFound(msg foundRowsMsg) bool {
	f := &s.filter
	f.running = false
	if msg.reg != f.reg || !f.active() {
		return false
	}
	f.score, f.matched, f.have, f.scored = msg.score, msg.matched, msg.query, msg.reg
	return true
}

// match brings the scores up to the query: at once up to findAsyncAbove
// candidates, and returns nil; above, it returns the command matching,
// unless one is running (its result starts the next).
func (s *liveState) match() tea.Cmd {
	f := &s.filter
	if !f.active() {
		f.score, f.matched, f.have = nil, nil, ""
		return nil
	}
	s.candidates()
	if f.current() {
		return nil
	}
	if len(f.refs) <= findAsyncAbove {
		s.adoptFound(s.plan().run())
		return nil
	}
	if f.running {
		return nil
	}
	f.running = true
	m := s.plan()
	return func() tea.Msg { return m.run() }
}

// refilter matches a query again after the rows changed (a policy, a
// list), at once when that is cheap; otherwise the next Update's match
// starts the command, the rows of the last match shown meanwhile.
func (s *liveState) refilter() {
	if !s.filter.active() {
		return
	}
	s.candidates()
	if len(s.filter.refs) <= findAsyncAbove {
		s.adoptFound(s.plan().run())
	}
}

// best returns the matching row with the highest score, the first laid
// out among equals, as an index into rows; none until the query has been
// matched.
func (s *liveState) best() (int, bool) {
	if !s.filter.current() {
		return -1, false
	}
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
