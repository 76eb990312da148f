package ui

import tea "charm.land/bubbletea/v2"

// IsCallDone reports whether msg is the end of a call.
func IsCallDone(msg tea.Msg) bool {
	_, ok := msg.(callDoneMsg)
	return ok
}
