package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// detailView describes the selected row: its annotations as badges, its
// route, its provider checks with their messages, its description and
// schema.
func (m *Model) detailView(height int) string {
	s := m.c.styles
	r, ok := m.selected()
	var lines []string
	if o, t, found := m.live.outcomeAt(r); ok && found {
		lines = m.detailLines(o, t)
	} else {
		lines = []string{s.Muted.Render("no tool selected")}
	}
	return m.paneBox(s.PaneTitle.Render("DETAIL"), lines, height)
}

func (m *Model) detailLines(o model.Outcome, t model.Tool) []string {
	s := m.c.styles
	san := model.Sanitize
	wire := o.Wire
	if wire == "" {
		wire = "(row without a usable name: " + t.NameProblem + ")"
	}
	head := s.Section.Render(san(o.Server)+" · "+san(wire)) + "  " + m.c.outcomeStyle(o.Kind).Render(san(outcomeText(o)))
	lines := []string{head}
	if b := m.c.badges(t); b != "" {
		lines = append(lines, b)
	}
	if t.Title != "" {
		lines = append(lines, s.Muted.Render("title: ")+m.c.quote(t.Title))
	}
	if v, ok := m.lastResult(); ok {
		lines = append(lines, v.summary(m.c)+s.Muted.Render(" · "+m.c.keys.Reader.LastResult.Help().Key+" shows it"))
	}
	if o.Reason != "" {
		lines = append(lines, s.Muted.Render("why: ")+san(o.Reason))
	}
	lines = append(lines, m.appLines(o.Server, t)...)
	lines = append(lines, m.routeLine(o))
	lines = append(lines, m.observedLines(o)...)
	if o.Alias != "" {
		lines = append(lines, s.Muted.Render("legacy alias (not a registry key): ")+san(o.Alias))
	}
	for _, p := range m.profiles {
		if o.Name == "" {
			break
		}
		if c := p.Check(o); c.Severity != model.Pass {
			lines = append(lines, m.c.checkMark(p, o)+" "+san(c.Message))
		}
	}
	lines = append(lines, m.lockLines(o.Server, t)...)
	lines = append(lines, m.relistLines(o)...)
	if t.Description != "" {
		lines = append(lines, s.Muted.Render("description: ")+san(firstLine(m.c.redact.Values(cut(m.c, t.Description, 400)), 400)))
	}
	if p := model.SchemaProblem(t.InputSchema); p != "" {
		lines = append(lines, s.WarnText.Render("! "+p))
	}
	if len(t.InputSchema) > 0 {
		lines = append(lines, s.Muted.Render("input schema: ")+san(firstLine(m.c.redact.Values(cut(m.c, t.InputSchema, 400)), 400)))
	}
	if out := outputSchema(t); out != nil {
		lines = append(lines, s.Muted.Render("output schema: ")+san(firstLine(m.c.redact.Values(cut(m.c, out, 400)), 400)))
	}
	return append(lines, m.factLines(o.Server)...)
}

// factLines describe the row's server: its title, website, capabilities
// and instructions (surface.Facts), sanitized, masked and wrapped.
func (m *Model) factLines(label string) []string {
	i, ok := m.live.snap.Index(label)
	if !ok {
		return nil
	}
	facts := surface.Facts(surface.MaskFacts(m.live.snap.Servers[i].Facts, m.c.redact), max(20, m.c.width-16), 4)
	lines := make([]string, 0, len(facts))
	for _, f := range facts {
		label := f[0]
		if label != "" {
			label += ":"
		}
		lines = append(lines, m.c.styles.Muted.Render(fmt.Sprintf("%-14s", label))+f[1])
	}
	return lines
}

// routeLine says where a call under this row's registered name goes.
func (m *Model) routeLine(o model.Outcome) string {
	s := m.c.styles
	san := model.Sanitize
	if o.Name == "" {
		return s.ErrorText.Render("no registered name: unreachable")
	}
	r, ok := m.live.reg.Lookup(o.Name)
	switch {
	case !ok:
		return s.ErrorText.Render(fmt.Sprintf("%s is not in the registry: %s's %s is unreachable", san(o.Name), san(o.Server), san(o.Wire)))
	case r.Server == o.Server && r.Index == o.Index:
		return fmt.Sprintf("calls to %s go to %s as %s", s.RenamedText.Render(san(o.Name)), san(r.Server), s.In.Render(san(r.Wire)))
	}
	return s.WarnText.Render(fmt.Sprintf("%s's %s is unreachable: calls to %s go to %s as %s",
		san(o.Server), san(o.Wire), san(o.Name), san(r.Server), san(r.Wire)))
}

// paneBox draws a bottom pane: a rule with a title, then lines cut to fit.
func (m *Model) paneBox(title string, lines []string, height int) string {
	out := make([]string, 0, height)
	out = append(out, title+" "+m.c.styles.Muted.Render(strings.Repeat("─", max(0, m.c.width-textWidth(title)-1))))
	for _, l := range lines {
		if len(out) == height {
			break
		}
		out = append(out, truncate(l, m.c.width, "…"))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// firstLine returns s up to its first newline, cut to n bytes.
func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}

// relistLines say how the row's tool changed when its server last
// re-listed (after tools/list_changed).
func (m *Model) relistLines(o model.Outcome) []string {
	s := m.c.styles
	i, ok := m.live.snap.Index(o.Server)
	if !ok || o.Wire == "" {
		return nil
	}
	c, ok := m.live.relistedOf(i).Tool(o.Wire)
	switch {
	case !ok:
		return nil
	case c.Kind == model.ToolAdded:
		return []string{s.OKText.Render("new since the previous list")}
	}
	lines := []string{s.WarnText.Render("changed since the previous list:")}
	for _, f := range c.Fields {
		lines = append(lines, "  "+model.Sanitize(f.String()))
	}
	return lines
}

// maxDetailText bounds the description the reader shows: a description
// can be megabytes.
const maxDetailText = 256 << 10

// detailReader opens the selected row's detail in the reader: the pane's
// lines, then the whole description, and the input and output schemas
// pretty-printed.
func (m *Model) detailReader() *readerView {
	r, ok := m.selected()
	o, t, found := m.live.outcomeAt(r)
	if !ok || !found {
		return nil
	}
	s := m.c.styles
	title := s.PaneTitle.Render("DETAIL") + " " + s.Section.Render(model.Sanitize(o.Server)+" · "+model.Sanitize(o.Wire))
	rd := newReader(m.env, title, func() []string { return m.detailFull(o, t) })
	rd.Clip, rd.ClipName = string(t.Raw), "the tool's definition"
	return rd
}

// detailFull is everything known of a row, at full length.
func (m *Model) detailFull(o model.Outcome, t model.Tool) []string {
	s := m.c.styles
	var lines []string
	for _, l := range m.detailLines(o, t) {
		if !strings.HasPrefix(ansi.Strip(l), "description: ") && !strings.HasPrefix(ansi.Strip(l), "input schema: ") &&
			!strings.HasPrefix(ansi.Strip(l), "output schema: ") {
			lines = append(lines, l)
		}
	}
	if t.Description != "" {
		lines = append(lines, "", s.Section.Render("description"))
		lines = append(lines, m.c.textLines(cut(m.c, t.Description, maxDetailText))...)
		if len(t.Description) > maxDetailText {
			lines = append(lines, s.WarnText.Render(fmt.Sprintf("… [cut: %s of %s shown]", humanSize(maxDetailText), humanSize(int64(len(t.Description))))))
		}
	}
	if len(t.InputSchema) > 0 {
		lines = append(lines, "", s.Section.Render("input schema"))
		lines = append(lines, m.c.jsonLines(t.InputSchema)...)
	}
	if out := outputSchema(t); out != nil {
		lines = append(lines, "", s.Section.Render("output schema"))
		lines = append(lines, m.c.jsonLines(out)...)
	}
	return lines
}

// outputSchema is the outputSchema of a tool's definition, or nil.
func outputSchema(t model.Tool) []byte {
	out := jsonx.MemberFold(t.Raw, "outputSchema")
	if string(out) == "null" {
		return nil
	}
	return out
}

// badges draws a tool's annotations (the hints the spec defines): a badge
// for each hint set true, a muted word for each set false.
func (c common) badges(t model.Tool) string {
	ann := jsonx.MemberFold(t.Raw, "annotations")
	if ann == nil {
		return ""
	}
	var hints map[string]any
	if json.Unmarshal(ann, &hints) != nil {
		return ""
	}
	s := c.styles
	var out []string
	for _, h := range []struct{ key, name string }{
		{"readOnlyHint", "read-only"}, {"destructiveHint", "destructive"},
		{"idempotentHint", "idempotent"}, {"openWorldHint", "open-world"},
	} {
		switch hints[h.key] {
		case true:
			style := s.Selected
			if h.key == "destructiveHint" {
				style = s.ErrorText
			}
			out = append(out, style.Render("["+h.name+"]"))
		case false:
			out = append(out, s.Muted.Render("not "+h.name))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return s.Muted.Render("annotations: ") + strings.Join(out, " ")
}
