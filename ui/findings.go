package ui

import (
	"github.com/mcplens/mcplens/model"
	live "github.com/mcplens/mcplens/surface"
)

// findingList is every finding of the active policy's assessment under the
// providers shown: the list check reports, in its order and at its levels,
// secrets masked.
//
// On a large surface the list is computed in the background (derive.go)
// and is empty until it arrives.
func (s *surface) findingList() []live.Finding {
	if !s.found && !s.inBackground() {
		a, observed := s.findingInput()
		if observed == nil {
			observed = live.Observed(a.Snapshot)
			s.observed, s.observedAt = observed, s.gen
		}
		s.findings, s.found = a.FindingsWith(observed), true
	}
	return s.findings
}

// findingInput is the assessment the findings view lists the findings of,
// and the snapshot's observed findings when they are known already: both
// are safe to read on another goroutine.
func (s *surface) findingInput() (*live.Assessment, []model.Finding) {
	a := *s.a
	a.Profiles, a.Lock, a.LockPath = s.profiles, s.lock, s.lockPath
	if s.observedAt == s.gen {
		return &a, s.observed
	}
	return &a, nil
}

// findingsView lists every finding with its level and evidence.
func (m Model) findingsView(height int) string {
	s := m.c.styles
	f := m.surface.findingList()
	sw := max(8, min(16, m.c.width/10))
	tw := max(10, min(32, m.c.width/6))
	head := "  " + cell("LEVEL", 8) + " " + cell("KIND", 15) + " " + cell("SERVER", sw) + " " + cell("TOOL", tw) + " EVIDENCE"
	if !m.surface.found {
		return m.pendingView(head, height, "looking for findings")
	}
	return m.listView(head, len(f), m.scroll[viewFindings], height, func(i int) string {
		x := f[i]
		lvl := s.Muted.Render(cell(x.Level.String(), 8))
		switch x.Level {
		case live.Error:
			lvl = s.ErrorText.Render(cell(x.Level.String(), 8))
		case live.Warning:
			lvl = s.WarnText.Render(cell(x.Level.String(), 8))
		}
		return "  " + lvl + " " + cell(x.Kind, 15) + " " + cell(model.Sanitize(x.Server), sw) + " " +
			cell(model.Sanitize(x.Tool), tw) + " " + model.Sanitize(x.Evidence)
	})
}
