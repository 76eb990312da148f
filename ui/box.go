package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// Every box drawn over the screen (a question's form, the argument
// editor, the call history, the roots editor) fits the terminal: its
// lines are cut to the box's inner width and its body scrolls in the
// lines its head and foot leave, so that the border and the key hints
// are always drawn, whatever the size.

// boxInner is the inner width of a box the width of the screen can hold:
// the Overlay style's border and padding take 4 columns.
func boxInner(width int) int { return max(10, width-4) }

// boxRoom is how many lines of content a box of at most height lines
// holds: its border takes 2.
func boxRoom(height int) int { return max(3, height-2) }

// box draws head, body and foot in the Overlay style within width ×
// height: head and foot whole while they fit (the head gives way first,
// down to its first line, then the foot down to its last, the keys),
// body in the lines left, scrolled to keep its line at in view, with a
// mark saying how many lines are above or below. Every line is cut to the
// box's inner width.
func box(s Styles, head, body, foot []string, at, width, height int) string {
	inner, room := boxInner(width), boxRoom(height)
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
		lines[i] = truncate(l, inner, "…")
	}
	return s.Overlay.Render(strings.Join(lines, "\n"))
}

// window is the n lines of body around line at, the first and the last
// saying how many lines are hidden above and below when there are.
func window(s Styles, body []string, at, n int) []string {
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

// boxKeys is the keys' line of a box: as many of bindings as fit in
// width, first first, muted.
func boxKeys(s Styles, bindings []key.Binding, width int) string {
	h := help.New()
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator = s.Muted, s.Muted, s.Muted
	return fitKeys(h, bindings, width)
}
