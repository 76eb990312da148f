package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Nav are the movement keys every list, pane and reader moves with.
type Nav struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// Moved returns where a movement key takes pos, on lines 0 to last, a
// page being page lines; ok is false when msg is not a movement key.
func Moved(msg tea.KeyPressMsg, k Nav, pos, last, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		pos--
	case key.Matches(msg, k.Down):
		pos++
	case key.Matches(msg, k.PageUp):
		pos -= page
	case key.Matches(msg, k.PageDown):
		pos += page
	case key.Matches(msg, k.Top):
		pos = 0
	case key.Matches(msg, k.Bottom):
		pos = last
	default:
		return pos, false
	}
	return max(0, min(pos, last)), true
}
