package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
)

// A findingsView lists what the servers' own text gives away: lookalike
// names, references to other servers, invisible or control characters;
// then what the config says of each server and how it broke the protocol.
// It is the list every report gives (report.Findings), secrets masked,
// computed by a command (derive.go).
type findingsView struct {
	list
	found derived[[]model.Finding]
}

func newFindingsView(e *env) findingsView {
	return findingsView{list: list{e: e}, found: newDerived[[]model.Finding]()}
}

// findingsOf takes what report.Findings reads of s now, and returns the
// computation.
func findingsOf(s *surface) func() []model.Finding {
	file, states, red := s.fileFindings, s.states(), s.redact
	return func() []model.Finding { return report.Findings(file, states, red) }
}

// shown returns the list the view shows, when it is that of the surface
// as it is now.
func (v *findingsView) shown() ([]model.Finding, bool) {
	if !v.found.ready(v.e.surface.gen) {
		return nil, false
	}
	return v.found.value, true
}

func (v *findingsView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case derivedMsg[[]model.Finding]:
		v.found.adopt(msg, v.e.surface.gen)
		return v.refresh()
	}
	f, _ := v.shown()
	v.moveKey(msg, len(f))
	return nil
}

// refresh returns the command looking for the findings of the surface as
// it is now, unless they are there or being looked for.
func (v *findingsView) refresh() tea.Cmd {
	s := v.e.surface
	return v.found.need(s.gen, func() func() []model.Finding { return findingsOf(s) })
}

func (v *findingsView) selected() (ref, bool) {
	f, _ := v.shown()
	if c := v.sc.cursor; c < len(f) && f[c].Tool != "" {
		return v.e.surface.refOfWire(f[c].Server, f[c].Tool)
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
		sev := s.WarnText.Render(cell("warning", 8))
		if x.Severity == model.Fail {
			sev = s.ErrorText.Render(cell("error", 8))
		}
		return "  " + sev + " " + cell(x.Kind, 15) + " " + cell(model.Sanitize(x.Server), sw) + " " +
			cell(model.Sanitize(x.Tool), tw) + " " + model.Sanitize(x.Evidence)
	})
}
