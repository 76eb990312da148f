package ui

import (
	"strings"

	"github.com/mcplens/mcplens/model"
)

// What the findings and gated views cut to their columns, e reads whole:
// the finding under the cursor with its evidence, the gated view's
// explanation and the tool under the cursor, each followed by the tool's
// detail when there is one.

// findingReader reads the finding under the cursor whole; nil when there
// is none.
func (m *Model) findingReader() *readerView {
	f, ok := m.findings.shown()
	c := m.findings.sc.cursor
	if !ok || c >= len(f) {
		return nil
	}
	x := f[c]
	s := m.c.styles
	title := s.PaneTitle.Render("FINDING") + " " + s.Section.Render(x.Kind+" · "+model.Sanitize(x.Server))
	r := newReader(m.env, title, func() []string {
		lines := []string{s.Muted.Render("severity: ") + x.Severity.String(), s.Muted.Render("kind: ") + x.Kind,
			s.Muted.Render("server: ") + model.Sanitize(x.Server)}
		if x.Tool != "" {
			lines = append(lines, s.Muted.Render("tool: ")+model.Sanitize(x.Tool))
		}
		lines = append(lines, "", s.Section.Render("evidence"))
		lines = append(lines, m.c.textLines(x.Evidence)...)
		return append(lines, m.toolAfter()...)
	})
	r.Clip, r.ClipName = x.Evidence, "the evidence"
	return r
}

// gatedReader reads the gated view's explanation whole, then the gated
// tool under the cursor, if any.
func (m *Model) gatedReader() *readerView {
	s := m.c.styles
	v := &m.gated
	note := v.note()
	r := newReader(m.env, s.PaneTitle.Render("GATED"), func() []string {
		lines := m.c.textLines(note)
		if tools := v.tools(); v.sc.cursor < len(tools) {
			g := tools[v.sc.cursor]
			lines = append(lines, "", s.Section.Render(model.Sanitize(g.Server)+" · "+model.Sanitize(g.Tool)),
				s.Muted.Render("advertised to: ")+model.Sanitize(strings.Join(g.To, ", ")),
				s.Muted.Render("not to: ")+model.Sanitize(strings.Join(g.NotTo, ", ")))
		}
		return append(lines, m.toolAfter()...)
	})
	r.Clip, r.ClipName = note, "the explanation"
	return r
}

// toolAfter is the selected row's tool detail, whole, under a heading;
// none when no tool is selected.
func (m *Model) toolAfter() []string {
	r, ok := m.selected()
	o, t, found := m.live.outcomeAt(r)
	if !ok || !found {
		return nil
	}
	return append([]string{"", m.c.styles.Section.Render("tool")}, m.detailFull(o, t)...)
}
