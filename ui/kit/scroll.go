package kit

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// A Scroller is the one scroll mechanism of the interface: a cursor over n
// rows and the first line shown. Lists move the cursor and keep it in
// sight (Move, Show); a pane with no cursor moves what is shown (Scroll).
// Only visible lines are ever rendered.
type Scroller struct {
	Cursor, Offset int
}

// Move applies a movement key to the cursor over n rows shown height at a
// time, reporting whether msg was one. The caller keeps the cursor in
// sight with Show.
func (s *Scroller) Move(msg tea.KeyPressMsg, k Nav, n, height int) bool {
	c, ok := Moved(msg, k, s.Cursor, n-1, max(1, height-1))
	s.Cursor = c
	return ok
}

// Scroll applies a movement key to the first of n lines shown height at a
// time, reporting whether msg was one.
func (s *Scroller) Scroll(msg tea.KeyPressMsg, k Nav, n, height int) bool {
	o, ok := Moved(msg, k, s.Offset, n-height, max(1, height-1))
	s.Offset = o
	return ok
}

// Show keeps line at of n lines inside a window of height lines.
func (s *Scroller) Show(at, n, height int) {
	if at < s.Offset {
		s.Offset = at
	}
	if at >= s.Offset+height {
		s.Offset = at - height + 1
	}
	s.Offset = max(0, min(s.Offset, n-height))
}

// Size spells n bytes as a reader reads it: 812 B, 1.9 KB, 3.2 MB.
func Size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
