package ui

import (
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
)

// findingList is what the servers' own text gives away: lookalike names,
// references to other servers, invisible or control characters; then what
// the config says of each server and how it broke the protocol. It is the
// list every report gives (report.Findings), secrets masked.
//
// On a large surface the list is computed in the background (derive.go)
// and is empty until it arrives.
func (s *surface) findingList() []model.Finding {
	if !s.found && !s.inBackground() {
		s.findings, s.found = report.Findings(s.fileFindings, s.states(), s.redact), true
	}
	return s.findings
}

// findingsView lists every finding with its severity and evidence.
func (m Model) findingsView(height int) string {
	s := m.c.styles
	f := m.surface.findingList()
	sw := max(8, min(16, m.c.width/10))
	tw := max(10, min(32, m.c.width/6))
	head := "  " + cell("SEVERITY", 8) + " " + cell("KIND", 15) + " " + cell("SERVER", sw) + " " + cell("TOOL", tw) + " EVIDENCE"
	if !m.surface.found {
		return m.pendingView(head, height, "looking for findings")
	}
	return m.listView(head, len(f), m.scroll[viewFindings], height, func(i int) string {
		x := f[i]
		sev := s.WarnText.Render(cell("warning", 8))
		if x.Severity == model.Fail {
			sev = s.ErrorText.Render(cell("error", 8))
		}
		return "  " + sev + " " + cell(x.Kind, 15) + " " + cell(model.Sanitize(x.Server), sw) + " " +
			cell(model.Sanitize(x.Tool), tw) + " " + model.Sanitize(x.Evidence)
	})
}
