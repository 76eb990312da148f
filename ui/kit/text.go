package kit

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Drawing a frame measures the width of every line drawn, several times
// over (to cut it, to pad it, to join the panes). lipgloss and x/ansi
// measure by grapheme cluster, which was most of the cost of a frame. The
// lines mcplens draws are nearly always printable ASCII, SGR escapes and a
// few symbols of its own, so those are measured here byte by byte, with the
// symbols' widths taken from x/ansi once; any other text goes to x/ansi.
// Results are the same either way (ui/render_test.go holds them to it).

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

// Width is the width of s in cells, as ansi.StringWidth measures it.
func Width(s string) int {
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

// Truncate is ansi.Truncate: s cut to w cells, ending in tail when cut.
// Escape sequences past the cut are kept, as ansi.Truncate keeps them.
func Truncate(s string, w int, tail string) string {
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

// JoinLeft is lipgloss.JoinVertical(lipgloss.Left, blocks...): the blocks'
// lines one under the other, each padded with spaces to the widest, every
// line measured once.
func JoinLeft(blocks ...string) string {
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
		widths[i] = Width(l)
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

// Cell fits s into exactly w columns.
func Cell(s string, w int) string {
	s = Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-Width(s)))
}

// Wrap wraps every line to width, word by word where it can, and
// returns the lines with and without their styles, and the line each
// comes from.
func Wrap(lines []string, width int) (styled, plain []string, src []int) {
	width = max(10, width)
	styled = make([]string, 0, len(lines))
	src = make([]int, 0, len(lines))
	for i, l := range lines {
		if Width(l) > width {
			wrapped := strings.Split(ansi.Wrap(l, width, ""), "\n")
			styled = append(styled, wrapped...)
			for range wrapped {
				src = append(src, i)
			}
		} else {
			styled = append(styled, l)
			src = append(src, i)
		}
	}
	plain = make([]string, len(styled))
	for i, l := range styled {
		plain[i] = l
		if strings.IndexByte(l, 0x1b) >= 0 {
			plain[i] = ansi.Strip(l)
		}
	}
	return styled, plain, src
}
