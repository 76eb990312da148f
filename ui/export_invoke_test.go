package ui

import tea "charm.land/bubbletea/v2"

// SetArguments replaces the text of the open argument editor's JSON mode,
// as typing it would.
func SetArguments(m tea.Model, text string) tea.Model {
	mm := m.(Model)
	if mm.invoke != nil {
		mm.invoke.SetText(text)
	}
	return mm
}

// IsHistoryWritten reports whether msg says the history file was written.
func IsHistoryWritten(msg tea.Msg) bool {
	_, ok := msg.(historyWrittenMsg)
	return ok
}
