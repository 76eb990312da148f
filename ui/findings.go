package ui

import (
	"github.com/mcplens/mcplens/model"
)

// findingList is what the servers' own text gives away: lookalike names,
// references to other servers, invisible or control characters; then how
// servers broke the protocol.
func (s *surface) findingList() []model.Finding {
	if !s.found {
		s.findings, s.found = model.Findings(s.catalogues()), true
		for _, sv := range s.servers {
			s.findings = append(s.findings, sv.findings...)
		}
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
	return m.listView(head, len(f), m.scroll[viewFindings], height, func(i int) string {
		x := f[i]
		sev := s.WarnText.Render(cell("warning", 8))
		if x.Severity == model.Fail {
			sev = s.ErrorText.Render(cell("high", 8))
		}
		return "  " + sev + " " + cell(x.Kind, 15) + " " + cell(model.Sanitize(x.Server), sw) + " " +
			cell(model.Sanitize(x.Tool), tw) + " " + model.Sanitize(x.Evidence)
	})
}
