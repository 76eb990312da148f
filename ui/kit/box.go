package kit

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// Every box drawn over the screen (a question's form, the argument
// editor, the call history, the roots editor) fits the terminal: its
// lines are cut to the box's inner width and its body scrolls in the
// lines its head and foot leave, so that the border and the key hints
// are always drawn, whatever the size.

// BoxStyles are what a box is drawn with: its frame (a border and
// padding taking 4 columns and 2 lines) and the muted marks of lines
// scrolled out of it.
type BoxStyles struct {
	Frame, Muted lipgloss.Style
}

// BoxInner is the inner width of a box the width of the screen can hold:
// the frame's border and padding take 4 columns.
func BoxInner(width int) int { return max(10, width-4) }

// BoxRoom is how many lines of content a box of at most height lines
// holds: its border takes 2.
func BoxRoom(height int) int { return max(3, height-2) }

// Box draws head, body and foot in the frame within width × height: head
// and foot whole while they fit (the head gives way first, down to its
// first line, then the foot down to its last, the keys), body in the
// lines left, scrolled to keep its line at in view, with a mark saying
// how many lines are above or below. Every line is cut to the box's
// inner width.
func Box(s BoxStyles, head, body, foot []string, at, width, height int) string {
	inner, room := BoxInner(width), BoxRoom(height)
	fixed := func() int { return len(head) + len(foot) }
	for fixed()+min(len(body), 1) > room && len(head) > 1 {
		head = head[:len(head)-1]
	}
	for fixed()+min(len(body), 1) > room && len(foot) > 1 {
		foot = foot[1:]
	}
	lines := append([]string{}, head...)
	lines = append(lines, window(s, body, at, max(1, room-fixed()))...)
	lines = append(lines, foot...)
	for i, l := range lines {
		lines[i] = Truncate(l, inner, "…")
	}
	return s.Frame.Render(strings.Join(lines, "\n"))
}

// window is the n lines of body around line at, the first and the last
// saying how many lines are hidden above and below when there are.
func window(s BoxStyles, body []string, at, n int) []string {
	if len(body) <= n {
		return body
	}
	if n < 3 {
		at = max(0, min(at, len(body)-1))
		top := max(0, min(at, len(body)-n))
		return body[top : top+n]
	}
	// n-2 lines of body between the two marks, at among them.
	top := max(0, min(at-(n-2)/2, len(body)-(n-2)))
	if top <= 1 {
		top = 0
	}
	out := []string{}
	if top > 0 {
		out = append(out, s.Muted.Render(fmt.Sprintf("↑ %d more", top)))
	}
	end := min(len(body), top+n-len(out))
	if end < len(body) {
		end--
	}
	out = append(out, body[top:end]...)
	if end < len(body) {
		out = append(out, s.Muted.Render(fmt.Sprintf("↓ %d more", len(body)-end)))
	}
	return out
}

// BoxKeys is the keys' line of a box: as many of bindings as fit in
// width, first first, muted.
func BoxKeys(muted lipgloss.Style, bindings []key.Binding, width int) string {
	h := help.New()
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator = muted, muted, muted
	return FitKeys(h, bindings, width)
}

// FitKeys is as many of bindings as fit in width, first first, with "…"
// when some are left out. (help.Model cuts at its width only when its
// ellipsis fits too: otherwise it adds the next key anyway.)
func FitKeys(h help.Model, bindings []key.Binding, width int) string {
	h.SetWidth(0)
	for n := len(bindings); n > 0; n-- {
		keys := h.ShortHelpView(bindings[:n])
		if n < len(bindings) {
			keys += " …"
		}
		if Width(keys) <= width {
			return keys
		}
	}
	return ""
}
