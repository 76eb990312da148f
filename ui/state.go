package ui

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A liveState is what the interface shows: the servers as last heard from
// (the snapshot), what the active policy makes of them (the assessment),
// and the lines the servers view draws. Servers are read from the
// snapshot, statuses and findings from the assessment: the interface
// decides neither. It is rebuilt, never patched, whenever either changes.
type liveState struct {
	snap *surface.Snapshot
	// a is the assessment of the active policy: its registry (reg) and
	// each server's status and part of it (results).
	a       *surface.Assessment
	reg     *model.Registry
	results []*model.ServerResult
	// relists marks, per server, how its newest list differs from the one
	// before (relist.go).
	relists []relisting
	lines   []line
	// logins are the logins L started, by server label (login.go).
	logins map[string]*loginState
	// stepUps are the servers that refused a call for want of scope, by
	// label: what they said (login.go).
	stepUps map[string]string
	// rows indexes the selectable lines in lines: the tool rows, and the
	// status line of a folded or a disconnected server.
	rows []int
	// laidOut counts the layouts: a view that keeps a place in rows finds
	// it again after one (serversView.follow).
	laidOut int
	// filter is the / query and the rows it keeps (search.go); folded
	// are the servers space folded, by index.
	filter rowFilter
	folded map[int]bool
	// sights are the snapshots of each client connected as (gated.go).
	sights sightings
	// widest is the widest wire name, registered name and outcome of the
	// rows laid out, in bytes, for the columns (cells.go).
	widest struct{ wire, name, outcome int }

	// The assessment of each policy, computed once per change of the
	// snapshot.
	policies []model.Policy
	byPolicy map[int]*surface.Assessment

	// What the findings view lists besides the assessment: the providers
	// shown and the lock.
	profiles []model.Profile
	lock     *model.Lock
	lockPath string
	// observed is surface.Observed of the snapshot of generation observedAt,
	// the part of the findings no policy changes (findings.go).
	observed   []model.Finding
	observedAt int

	// gen counts the changes of the snapshot: what a view derives from it
	// is for one generation (derive.go). version counts the changes of
	// anything the findings depend on: the snapshot, the active policy,
	// the providers shown, the lock.
	gen, version int
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
	lineURL // a login's URL: sanitized, not masked, so it can be copied (login.go)
	// lineFailure is a failed server's label and error, pinned above
	// the servers.
	lineFailure
	// lineIncomplete names the incomplete servers, and apart those the
	// policy failed, above the servers.
	lineIncomplete
)

// A line is one line of the servers view, kept as structure so that only
// the visible ones are ever rendered.
type line struct {
	kind   lineKind
	server int
	// outcome indexes the server's outcomes, for lineTool.
	outcome int
	text    string
	// top marks the failures laid out above the servers.
	top bool
	// status is the status a lineIncomplete names the servers of.
	status surface.Status
}

func newLiveState(specs []config.ServerSpec, policies []model.Policy) *liveState {
	return &liveState{snap: surface.New(specs, nil), policies: policies, relists: make([]relisting, len(specs)), observedAt: -1}
}

// apply records a loader event, reporting whether the registry must be
// rebuilt.
func (s *liveState) apply(ev mcpsession.Event) bool {
	if !s.snap.Apply(ev) {
		return false
	}
	for len(s.relists) < len(s.snap.Servers) { // a server the event declared
		s.relists = append(s.relists, relisting{})
	}
	if i, ok := s.snap.Index(ev.Server); ok {
		s.relisted(i)
	}
	if ev.State == mcpsession.Connecting {
		delete(s.logins, ev.Server) // a login's news ends when the server connects again
	}
	s.invalidate()
	return true
}

// invalidate drops everything derived from the snapshot.
func (s *liveState) invalidate() {
	s.byPolicy = nil
	s.gen++
	s.version++
}

// dropFindings says that what the findings depend on besides the snapshot
// changed: the providers shown or the lock.
func (s *liveState) dropFindings() { s.version++ }

// rebuild makes the policy at index i the active one: its assessment is
// computed once per surface change.
func (s *liveState) rebuild(i int) {
	if s.byPolicy == nil {
		s.byPolicy = make(map[int]*surface.Assessment)
	}
	a, ok := s.byPolicy[i]
	if !ok {
		a = surface.Derive(s.snap, surface.Options{Policy: s.policies[i]})
		s.byPolicy[i] = a
	}
	s.a, s.reg = a, a.Registry
	s.results = s.results[:0]
	for _, v := range a.Servers {
		s.results = append(s.results, v.Result)
	}
	s.version++
	s.refilter()
	s.layout()
}

// layout flattens the servers into lines, in the config's order, under
// the failures: each failed server's error and stderr first, which would
// otherwise wait below every healthy server's table. A folded server is its
// status line alone, which is then a row itself (space unfolds it); a query
// (search.go) keeps the matching rows and the servers that have one.
func (s *liveState) layout() {
	s.laidOut++
	s.lines = s.lines[:0]
	s.rows = s.rows[:0]
	s.widest = struct{ wire, name, outcome int }{}
	if !s.filter.active() {
		s.failures()
	}
	for i := range s.snap.Servers {
		sv := &s.snap.Servers[i]
		r := s.results[i]
		if s.filter.active() {
			s.matchedLines(i)
			continue
		}
		if len(s.lines) > 0 {
			s.lines = append(s.lines, line{kind: lineBlank, server: i})
		}
		if s.folded[i] && r != nil && len(r.Outcomes) > 0 {
			s.rows = append(s.rows, len(s.lines))
			s.lines = append(s.lines, line{kind: lineServer, server: i})
			continue
		}
		s.lines = append(s.lines, line{kind: lineServer, server: i})
		for _, f := range sv.Spec.Findings {
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "config: " + f})
		}
		s.stepUpLines(i)
		switch {
		case s.a.Servers[i].Status == surface.NeedsLogin:
			s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.Err})
			s.loginLines(i)
		case s.a.Servers[i].Status == surface.Failed:
			s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.Err})
			for _, t := range tail(sv.Stderr, 4) {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: "stderr: " + t})
			}
			s.protocolLines(i)
		case s.a.Servers[i].Status == surface.Disconnected:
			// Its status line is a row: X, on it, connects it again.
			s.rows = append(s.rows, len(s.lines)-1-len(sv.Spec.Findings))
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
				s.toolLine(i, j)
			}
		}
	}
}

// toolLine lays out row j of server i, and measures its cells for the
// widest (bytes stand for columns: a name is mostly ASCII, and a wider
// guess only costs space).
func (s *liveState) toolLine(i, j int) {
	s.rows = append(s.rows, len(s.lines))
	s.lines = append(s.lines, line{kind: lineTool, server: i, outcome: j})
	o := &s.results[i].Outcomes[j]
	w := &s.widest
	w.wire = max(w.wire, len(o.Wire))
	w.name = max(w.name, len(o.Name))
	w.outcome = max(w.outcome, outcomeWidth(o))
}

// failures lays out, at the top, each failed server's failure: its label
// and error, then the tail of its stderr; then one line naming the
// incomplete servers. Each one's own place in the config's order says it
// again.
func (s *liveState) failures() {
	for _, st := range []surface.Status{surface.PolicyFailed, surface.Incomplete} {
		var names []string
		for i := range s.snap.Servers {
			if s.a.Servers[i].Status == st {
				names = append(names, model.Sanitize(s.label(i)))
			}
		}
		if len(names) > 0 {
			s.lines = append(s.lines, line{kind: lineIncomplete, top: true, status: st,
				text: fmt.Sprintf("%d %s: %s", len(names), st, strings.Join(names, ", "))})
		}
	}
	for i := range s.snap.Servers {
		if s.a.Servers[i].Status != surface.Failed {
			continue
		}
		sv := &s.snap.Servers[i]
		// A row: x restarts the server, X connects it again.
		s.rows = append(s.rows, len(s.lines))
		s.lines = append(s.lines, line{kind: lineFailure, server: i, text: sv.Err, top: true})
		for _, t := range tail(sv.Stderr, 4) {
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "stderr: " + t, top: true})
		}
	}
}

// matchedLines lays out server i under a query: its status line, the
// column heads and the rows that match, or nothing when none does.
func (s *liveState) matchedLines(i int) {
	r := s.results[i]
	if r == nil {
		return
	}
	var kept []int
	for j := range r.Outcomes {
		if s.filter.keeps(ref{i, j}) {
			kept = append(kept, j)
		}
	}
	if len(kept) == 0 {
		return
	}
	if len(s.lines) > 0 {
		s.lines = append(s.lines, line{kind: lineBlank, server: i})
	}
	s.lines = append(s.lines, line{kind: lineServer, server: i}, line{kind: lineColumns, server: i})
	for _, j := range kept {
		s.toolLine(i, j)
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
func (s *liveState) protocolLines(i int) {
	sv := &s.snap.Servers[i]
	for _, f := range sv.Faults {
		if f.Evidence != sv.Err { // a listing's note is shown already
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "protocol: " + f.Evidence})
		}
	}
}
