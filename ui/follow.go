package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui/kit"
)

// A follow is the scroll of a pane of timed lines (the wire pane, the log
// pane): it follows the newest lines until it is scrolled up, and again
// once scrolled back to the end.
type follow struct {
	sc scroller
	// back is set while the pane is scrolled up from the newest lines.
	back bool
}

// scroll moves on a movement key, over n lines of which body are shown.
func (t *follow) scroll(k tea.KeyPressMsg, keys KeyMap, n, body int) {
	if !t.back {
		t.sc.offset = max(0, n-body)
	}
	if t.sc.scroll(k, keys, n, body) {
		t.back = t.sc.offset < n-body
	}
}

// window returns the lines shown of n, body at the most.
func (t *follow) window(n, body int) (start, end int) {
	start = max(0, n-body)
	if t.back {
		start = min(t.sc.offset, start)
	}
	return start, min(n, start+body)
}

// tailHelp is the full help of a pane of timed lines, own being its keys.
func tailHelp(k KeyMap, own ...key.Binding) [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		append(own, k.Cancel),
		append([]key.Binding{k.NextView, k.PrevView}, k.Views...),
		{k.Policy, k.PolicyBack, k.Client, k.ClientBack, k.Protocol, k.Providers, k.Invoke, k.Report},
	}
}

// tailView draws a pane of timed lines height lines high: the title and a
// rule to the edge, then the lines shown, each drawn by line and cut to
// the width.
func tailView[T any](c common, title string, height int, shown []T, line func(common, T) string) string {
	lines := []string{title + " " + c.styles.Muted.Render(strings.Repeat("─", max(0, c.width-textWidth(title)-1)))}
	for _, l := range shown {
		lines = append(lines, truncate(line(c, l), c.width, "…"))
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// byTime returns the lines of every server, servers in order, in time
// order (kit.ByTime).
func byTime[T any](labels []string, lines map[string][]T, at func(T) time.Time) []T {
	return kit.ByTime(labels, lines, at)
}
