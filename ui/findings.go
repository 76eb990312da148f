package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A findingsView lists every finding of the active policy's assessment
// under the providers shown and the lock: the list check reports, in its
// order and at its severities, secrets masked. It is computed by a command
// (derive.go), for the surface's version (surface.version), which counts
// the changes of all it depends on.
type findingsView struct {
	list
	found derived[foundList]
}

// A foundList is the findings view's list, and the snapshot's observed
// findings it was made from (surface.Observed), which no policy changes.
type foundList struct {
	list     []surface.Finding
	observed []model.Finding
	gen      int // the snapshot's generation observed is for
}

func newFindingsView(e *env) findingsView {
	return findingsView{list: list{e: e}, found: newDerived[foundList]()}
}

// findingsOf takes what the findings of s read now, and returns the
// computation; the observed findings are looked for again only when the
// snapshot changed.
func findingsOf(s *liveState) func() foundList {
	a := *s.a
	a.Profiles, a.Lock, a.LockPath, a.Gated = s.profiles, s.lock, s.lockPath, s.sights.gated
	observed, gen := s.observed, s.gen
	if s.observedAt != gen {
		observed = nil
	}
	return func() foundList {
		if observed == nil {
			observed = surface.Observed(a.Snapshot)
		}
		return foundList{list: a.FindingsWith(observed), observed: observed, gen: gen}
	}
}

// shown returns the list the view shows, when it is that of the surface
// as it is now.
func (v *findingsView) shown() ([]surface.Finding, bool) {
	if !v.found.ready(v.e.live.version) {
		return nil, false
	}
	return v.found.value.list, true
}

func (v *findingsView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case derivedMsg[foundList]:
		s := v.e.live
		if msg.value.gen == s.gen {
			s.observed, s.observedAt = msg.value.observed, msg.value.gen
		}
		v.found.adopt(msg, s.version)
		return v.refresh()
	}
	f, _ := v.shown()
	v.moveKey(msg, len(f))
	return nil
}

// refresh returns the command looking for the findings of the surface as
// it is now, unless they are there or being looked for.
func (v *findingsView) refresh() tea.Cmd {
	s := v.e.live
	return v.found.need(s.version, func() func() foundList { return findingsOf(s) })
}

func (v *findingsView) selected() (ref, bool) {
	f, _ := v.shown()
	if c := v.sc.cursor; c < len(f) && f[c].Tool != "" {
		return v.e.live.refOfWire(f[c].Server, f[c].Tool)
	}
	return ref{}, false
}

func (v *findingsView) View() string {
	e := v.e
	s := e.c.styles
	sw := max(8, min(16, v.width/10))
	tw := max(10, min(32, v.width/6))
	head := "  " + cell("SEVERITY", 8) + " " + cell("KIND", 15) + " " + cell("SERVER", sw) + " " + cell("TOOL", tw) + " EVIDENCE"
	f, ok := v.shown()
	if !ok {
		return e.pendingView(head, v.width, v.height, "looking for findings")
	}
	return v.draw(head, len(f), func(i int) string {
		x := f[i]
		sev := s.Muted.Render(cell(x.Severity.String(), 8))
		switch x.Severity {
		case surface.Error:
			sev = s.ErrorText.Render(cell(x.Severity.String(), 8))
		case surface.Warning:
			sev = s.WarnText.Render(cell(x.Severity.String(), 8))
		}
		return "  " + sev + " " + cell(x.Kind, 15) + " " + cell(model.Sanitize(x.Server), sw) + " " +
			cell(model.Sanitize(x.Tool), tw) + " " + model.Sanitize(x.Evidence)
	})
}
