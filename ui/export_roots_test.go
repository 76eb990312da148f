package ui

import tea "charm.land/bubbletea/v2"

// SetRootsText replaces the text of the open roots editor.
func SetRootsText(m tea.Model, text string) tea.Model {
	mm := m.(Model)
	if mm.rootsEd != nil {
		mm.rootsEd.text.SetValue(text)
	}
	return mm
}

// IsRootsSet reports whether msg is the end of applying the roots editor.
func IsRootsSet(msg tea.Msg) bool {
	_, ok := msg.(rootsSetMsg)
	return ok
}

// RootDirs reads a roots editor's text as ctrl+s does.
var RootDirs = rootDirs
