package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// ExpireNotes runs the footer's clock at now, as the spinner's tick does.
func ExpireNotes(m tea.Model, now time.Time) tea.Model {
	mm := m.(Model)
	mm.expireNotes(now)
	return mm
}

// IsFoundRows reports whether msg is the result of a query matched by a
// command.
func IsFoundRows(msg tea.Msg) bool {
	_, ok := msg.(foundRowsMsg)
	return ok
}
