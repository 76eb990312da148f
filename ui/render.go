package ui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/ui/kit"
)

// textWidth, truncate and joinLeft are the kit's (ui/kit/text.go): every
// component measures and cuts the same way.
func textWidth(s string) int                       { return kit.Width(s) }
func truncate(s string, w int, tail string) string { return kit.Truncate(s, w, tail) }
func joinLeft(blocks ...string) string             { return kit.JoinLeft(blocks...) }

// A painter renders text in one style as Style.Render does, for the styles
// drawn on every visible row. Render of a style that only sets colours and
// attributes wraps a line in the same escapes whatever the line; a painter
// finds them once and then only concatenates. A style whose output depends
// on the text (padding, widths, styled spaces) is left to lipgloss.
type painter struct {
	style          lipgloss.Style
	prefix, suffix string
	simple         bool
}

func newPainter(st lipgloss.Style) painter {
	p := painter{style: st}
	r := st.Render("X")
	if strings.Count(r, "X") != 1 {
		return p
	}
	i := strings.IndexByte(r, 'X')
	p.prefix, p.suffix = r[:i], r[i+1:]
	const probe = "a b\x1b[1m c\x1b[m …"
	p.simple = st.Render(probe) == p.prefix+probe+p.suffix
	return p
}

// Render is p.style.Render(s).
func (p painter) Render(s string) string {
	if !p.simple || s == "" || strings.ContainsAny(s, "\t\r\n") {
		return p.style.Render(s)
	}
	return p.prefix + s + p.suffix
}

// painters are the row styles of a Styles as painters, and the check marks
// of the provider columns, drawn once.
type painters struct {
	ok, warn, bad, renamed, muted, selected painter
	pass, warned, failed, unnamed           string
	// kinds paints each outcome kind (outcomeStyle).
	kinds []painter
}

func newPainters(s Styles) *painters {
	p := &painters{
		ok:       newPainter(s.OKText),
		warn:     newPainter(s.WarnText),
		bad:      newPainter(s.ErrorText),
		renamed:  newPainter(s.RenamedText),
		muted:    newPainter(s.Muted),
		selected: newPainter(s.Selected),
	}
	p.pass, p.warned, p.failed, p.unnamed = p.ok.Render(markPass), p.warn.Render(markWarn), p.bad.Render(markFail), p.muted.Render(markUnnamed)
	p.kinds = kindPainters(p)
	return p
}

// painters returns the painters of s, made by DefaultStyles; a Styles built
// another way gets them made on the spot.
// It takes a pointer: a Styles is a few kilobytes, and this is called for
// every cell drawn.
func (s *Styles) painters() *painters {
	if s.paint != nil {
		return s.paint
	}
	return newPainters(*s)
}
