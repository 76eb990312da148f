package ui

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Drawing a frame measures the width of every line drawn, several times
// over (to cut it, to pad it, to join the panes). lipgloss and x/ansi
// measure by grapheme cluster, which was most of the cost of a frame. The
// lines mcplens draws are nearly always printable ASCII, SGR escapes and a
// few symbols of its own, so those are measured here byte by byte, with the
// symbols' widths taken from x/ansi once; any other text goes to x/ansi.
// Results are the same either way (render_test.go holds them to it).

// symbolWidths are the widths x/ansi gives the symbols the views draw: row
// markers, check marks, arrows, rules, and the spinner's braille frames.
var symbolWidths = func() map[rune]int {
	w := map[rune]int{}
	for _, r := range "…▸✓✗●▲·─→←↷↑↓⏎•" {
		w[r] = ansi.StringWidth(string(r))
	}
	for r := rune(0x2800); r <= 0x28ff; r++ {
		w[r] = ansi.StringWidth(string(r))
	}
	return w
}()

// textWidth is the width of s in cells, as ansi.StringWidth measures it.
func textWidth(s string) int {
	if w, ok := fastWidth(s); ok {
		return w
	}
	return ansi.StringWidth(s)
}

// fastWidth measures s when it holds only printable ASCII, CSI escape
// sequences and known symbols; ok is false otherwise.
func fastWidth(s string) (w int, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b:
			n := csiLen(s[i:])
			if n == 0 {
				return 0, false
			}
			i += n
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			rw, known := symbolWidths[r]
			if !known {
				return 0, false
			}
			w += rw
			i += size
		default:
			return 0, false
		}
	}
	return w, true
}

// csiLen returns the length of the CSI sequence s starts with (ESC [,
// parameter and intermediate bytes, a final byte), or 0.
func csiLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	i := 2
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
}

// truncate is ansi.Truncate: s cut to w cells, ending in tail when cut.
// Escape sequences past the cut are kept, as ansi.Truncate keeps them.
func truncate(s string, w int, tail string) string {
	n, ok := fastWidth(s)
	if ok && n <= w {
		return s
	}
	tw, tailOK := fastWidth(tail)
	if !ok || !tailOK {
		return ansi.Truncate(s, w, tail)
	}
	room := w - tw
	if room < 0 {
		return ""
	}
	var sb strings.Builder
	sb.Grow(min(len(s), 4*w) + len(tail))
	cur, cut := 0, false
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == 0x1b:
			n := csiLen(s[i:])
			sb.WriteString(s[i : i+n])
			i += n
		case c < utf8.RuneSelf:
			if !cut && cur >= room {
				cut = true
				sb.WriteString(tail)
			}
			if !cut {
				cur++
				sb.WriteByte(c)
			}
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			cur += symbolWidths[r]
			if !cut && cur > room {
				cut = true
				sb.WriteString(tail)
			}
			if !cut {
				sb.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return sb.String()
}

// joinLeft is lipgloss.JoinVertical(lipgloss.Left, blocks...): the blocks'
// lines one under the other, each padded with spaces to the widest, every
// line measured once.
func joinLeft(blocks ...string) string {
	switch len(blocks) {
	case 0:
		return ""
	case 1:
		return blocks[0]
	}
	var lines []string
	for _, b := range blocks {
		b = strings.ReplaceAll(b, "\t", "    ")
		b = strings.ReplaceAll(b, "\r\n", "\n")
		lines = append(lines, strings.Split(b, "\n")...)
	}
	widths := make([]int, len(lines))
	widest, size := 0, 0
	for i, l := range lines {
		widths[i] = textWidth(l)
		widest = max(widest, widths[i])
		size += len(l) + 1
	}
	var sb strings.Builder
	sb.Grow(size + len(lines)*8)
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(l)
		for range widest - widths[i] {
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

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
