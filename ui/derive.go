package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	live "github.com/mcplens/mcplens/surface"
)

// Two views derive their rows from the whole surface: compare applies every
// policy, findings scans every name, description and schema. On a large
// surface that is a tenth of a second to half a second, too long to spend
// on the goroutine that draws frames and reads keys (and, with the view
// open while servers arrive, spent again after every arrival). So above
// asyncRows rows they are computed by a command, off that goroutine, from a
// snapshot of the surface; the view says it is computing meanwhile, and a
// result for a surface that has changed since is dropped and computed
// again. Below asyncRows they are computed when first drawn, as before.

// asyncRows is the surface size from which derived views are computed in
// the background; asyncBytes (relist.go) is the other bound.
const asyncRows = 5000

// A derivedMsg carries what a derive command computed for the surface of
// generation gen: the compare view's table, or the findings of version
// version (and the snapshot's observed findings they were listed from).
type derivedMsg struct {
	gen      int
	cmp      *compareTable
	version  int
	findings []live.Finding
	observed []model.Finding
	found    bool
}

// rowCount is how many advertised rows the listed servers have.
func (s *surface) rowCount() int {
	n, _ := s.snap.Rows()
	return n
}

// size is the bytes of the listed servers' rows.
func (s *surface) size() int {
	_, n := s.snap.Rows()
	return n
}

// inBackground reports whether derived views of s are computed by derive:
// when it has many rows, or rows that are large (findings scan every
// description and schema: a server listing 6 MB, re-listing ten times a
// second, would have them scanned on every arrival).
func (s *surface) inBackground() bool { return s.rowCount() >= asyncRows || s.size() >= asyncBytes }

// derive returns the command computing what the current view needs and the
// surface lacks, or nil when nothing is missing, a computation for the
// surface as it is now is already running, or the surface is small.
func (m Model) derive() tea.Cmd {
	s := m.surface
	if !s.inBackground() {
		return nil
	}
	gen := s.gen
	switch {
	case m.view == viewCompare && s.cmp == nil && s.deriving.compare != gen:
		s.deriving.compare = gen
		in := s.compareInput()
		return func() tea.Msg { return derivedMsg{gen: gen, cmp: in.build()} }
	case m.view == viewFindings && !s.found && s.deriving.findings != s.version:
		version := s.version
		s.deriving.findings = version
		a, observed := s.findingInput()
		return func() tea.Msg {
			if observed == nil {
				observed = live.Observed(a.Snapshot)
			}
			return derivedMsg{gen: gen, version: version, findings: a.FindingsWith(observed), observed: observed, found: true}
		}
	}
	return nil
}

// adopt keeps what a derive command computed, unless the surface changed
// since it started.
func (s *surface) adopt(msg derivedMsg) {
	if msg.cmp != nil && s.deriving.compare == msg.gen {
		s.deriving.compare = -1
	}
	if msg.found && s.deriving.findings == msg.version {
		s.deriving.findings = -1
	}
	if msg.gen != s.gen {
		return
	}
	if msg.cmp != nil {
		s.cmp = msg.cmp
	}
	if msg.found {
		s.observed, s.observedAt = msg.observed, msg.gen
	}
	if msg.found && msg.version == s.version {
		s.findings, s.found = msg.findings, true
	}
}

// pendingView stands in for a list view whose rows are being computed.
func (m Model) pendingView(head string, height int, what string) string {
	s := m.c.styles
	out := make([]string, 0, height)
	out = append(out, s.ColumnHead.Render(truncate(head, m.c.width, "")))
	out = append(out, s.Muted.Render(truncate(fmt.Sprintf("  %s %s for %d rows…", m.spinner.View(), what, m.surface.rowCount()), m.c.width, "…")))
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
