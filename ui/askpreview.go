package ui

import (
	"fmt"
	"strings"
)

// A question's text can be as long as Limits.Question lets it be
// (megabytes): the form shows its first lines, cut to the form's width,
// and the reader (ctrl+o) shows it whole. What the form shows is computed
// once for a width, from the first bytes of each line only, so that a
// frame costs the lines shown, never the text.

// maxAskLines is how many lines of a question's text the form shows.
const maxAskLines = 12

// askWidth is the width of a question's text in the form, on a screen
// of width columns.
func askWidth(width int) int { return max(20, min(width-6, 100)) }

// A preview is the first lines of a question's text, drawn for a width.
type preview struct {
	width int
	lines []string
	// more says what the form leaves out, or "" when it shows all.
	more string
}

// previewOf draws the first maxAskLines lines of blocks (each a text that
// may hold line breaks) at width: every line is cut before it is masked
// and sanitized, so the cost is bounded by what is shown.
func previewOf(c common, blocks []string, width int) preview {
	p := preview{width: width, lines: []string{}}
	var size int64
	lines, cutShort := 0, false
	for _, b := range blocks {
		size += int64(len(b))
		lines += strings.Count(b, "\n") + 1
		for rest := b; len(p.lines) < maxAskLines; {
			line, tail, found := strings.Cut(rest, "\n")
			whole := c.textLines(cut(c, line, 4*width))[0]
			shown := truncate(whole, width, "…")
			cutShort = cutShort || len(line) > 4*width || shown != whole
			p.lines = append(p.lines, shown)
			if !found {
				break
			}
			rest = tail
		}
	}
	if lines > len(p.lines) || cutShort {
		p.more = fmt.Sprintf("… %s, %d lines in all", humanSize(size), lines)
	}
	return p
}

// previewFor returns the preview of the question's text at the width of
// the screen, drawing it again only when that width changed.
func (a *asking) previewFor() preview {
	if w := askWidth(a.e.c.width); a.shown.lines == nil || a.shown.width != w {
		a.shown = previewOf(a.e.c, a.text, w)
	}
	return a.shown
}

// readAll opens the question's whole text in the reader.
func (a *asking) readAll() {
	s := a.e.c.styles
	title := s.PaneTitle.Render("QUESTION") + " " + s.Section.Render(a.e.c.quote(a.msg.question.Server))
	a.reader = newReader(a.e, title, func() []string {
		var lines []string
		for i, b := range a.text {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, a.e.c.textLines(b)...)
		}
		return lines
	})
	a.reader.Clip, a.reader.ClipName = strings.Join(a.text, "\n\n"), "the question's text"
}
