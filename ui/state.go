package ui

import (
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	live "github.com/mcplens/mcplens/surface"
)

// A surface is what the interface shows: the servers as last heard from
// (the snapshot), what the active policy makes of them (the assessment),
// and the lines and caches its views draw from. Servers are read from the
// snapshot, statuses and findings from the assessment: the interface
// decides neither.
type surface struct {
	snap *live.Snapshot
	// a is the assessment of the active policy: its registry (reg) and
	// each server's status and part of it (results).
	a       *live.Assessment
	reg     *model.Registry
	results []*model.ServerResult
	// relists marks, per server, how its newest list differs from the one
	// before (relist.go).
	relists []relisting
	lines   []line
	// rows indexes the selectable lines (tool rows) in lines.
	rows []int

	// Derived views of the same surface, computed when first drawn and
	// dropped whenever the surface or the active policy changes.
	policies   []model.Policy
	byPolicy   map[int]*live.Assessment
	compare    [2][]ref
	compared   [2]bool
	collisions []collisionLine
	collided   bool
	// findings is the findings view's list: the findings of the active
	// policy's assessment under the providers shown and the lock
	// (findings.go). version counts the changes of any of those.
	findings []live.Finding
	found    bool
	version  int
	profiles []model.Profile
	lock     *model.Lock
	lockPath string
	// observed is live.Observed of the snapshot of generation observedAt,
	// the part of the findings no policy changes.
	observed   []model.Finding
	observedAt int

	// cmp is the compare view's cells (compareTable).
	cmp *compareTable
	// gen counts the changes of the surface; deriving says for which gen
	// a background computation of each derived view is running, or -1
	// (derive.go).
	gen      int
	deriving struct{ compare, findings int }
}

// A lineKind tells the servers view how to draw one line.
type lineKind int

const (
	lineServer lineKind = iota
	lineColumns
	lineTool
	lineNote
	lineError
	lineBlank
)

// A line is one line of the servers view, kept as structure so that only
// the visible ones are ever rendered.
type line struct {
	kind   lineKind
	server int
	// outcome indexes the server's outcomes, for lineTool.
	outcome int
	text    string
}

func newSurface(specs []loader.ServerSpec, policies []model.Policy) *surface {
	s := &surface{snap: live.New(specs, nil), policies: policies, relists: make([]relisting, len(specs)), observedAt: -1}
	s.deriving.compare, s.deriving.findings = -1, -1
	return s
}

// apply records a loader event, reporting whether the registry must be
// rebuilt.
func (s *surface) apply(ev loader.Event) bool {
	if !s.snap.Apply(ev) {
		return false
	}
	if i, ok := s.snap.Index(ev.Server); ok {
		s.relisted(i)
	}
	s.invalidate()
	return true
}

// invalidate drops everything derived from the snapshot.
func (s *surface) invalidate() {
	s.byPolicy = nil
	s.cmp = nil
	s.gen++
	s.compared = [2]bool{}
	s.dropFindings()
}

// dropFindings drops the findings view's list: the assessment, the
// providers shown or the lock changed.
func (s *surface) dropFindings() {
	s.version++
	s.found = false
	s.findings = nil
}

// rebuild makes the policy at index i the active one: its assessment is
// computed once per surface change.
func (s *surface) rebuild(i int) {
	if s.byPolicy == nil {
		s.byPolicy = make(map[int]*live.Assessment)
	}
	a, ok := s.byPolicy[i]
	if !ok {
		a = live.Derive(s.snap, live.Options{Policy: s.policies[i]})
		s.byPolicy[i] = a
	}
	s.a, s.reg = a, a.Registry
	s.results = s.results[:0]
	for _, v := range a.Servers {
		s.results = append(s.results, v.Result)
	}
	s.collided = false
	s.dropFindings()
	s.layout()
}

// layout flattens the servers into lines.
func (s *surface) layout() {
	s.lines = s.lines[:0]
	s.rows = s.rows[:0]
	for i := range s.snap.Servers {
		sv := &s.snap.Servers[i]
		if i > 0 {
			s.lines = append(s.lines, line{kind: lineBlank, server: i})
		}
		s.lines = append(s.lines, line{kind: lineServer, server: i})
		for _, f := range sv.Spec.Findings {
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "config: " + f})
		}
		r := s.results[i]
		switch {
		case s.a.Servers[i].Status == live.Failed:
			s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.Err})
			for _, t := range tail(sv.Stderr, 4) {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: "stderr: " + t})
			}
			s.protocolLines(i)
		case r == nil:
			continue
		default:
			if r.Failed {
				s.lines = append(s.lines, line{kind: lineError, server: i, text: s.a.Servers[i].Error})
			}
			if sv.Err != "" {
				s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.Err})
			}
			s.protocolLines(i)
			for _, n := range r.Notes {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: n})
			}
			for _, c := range s.relists[i].diff.Tools {
				if c.Kind == model.ToolRemoved {
					s.lines = append(s.lines, line{kind: lineError, server: i, text: "removed since the previous list: " + c.Wire})
				}
			}
			if len(r.Outcomes) == 0 {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: "advertises no tools"})
				continue
			}
			s.lines = append(s.lines, line{kind: lineColumns, server: i})
			for j := range r.Outcomes {
				s.rows = append(s.rows, len(s.lines))
				s.lines = append(s.lines, line{kind: lineTool, server: i, outcome: j})
			}
		}
	}
}

// tail returns the last n non-empty lines of s.
func tail(s string, n int) []string {
	var out []string
	end := len(s)
	for i := len(s) - 1; i >= -1 && len(out) < n; i-- {
		if i == -1 || s[i] == '\n' {
			if l := s[i+1 : end]; l != "" {
				out = append([]string{l}, out...)
			}
			end = i
		}
	}
	return out
}

// protocolLines notes each protocol fault of server i under its status.
func (s *surface) protocolLines(i int) {
	sv := &s.snap.Servers[i]
	for _, f := range sv.Faults {
		if f.Evidence != sv.Err { // a listing's note is shown already
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "protocol: " + f.Evidence})
		}
	}
}
