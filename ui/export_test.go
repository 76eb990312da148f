package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
)

// EventMsg wraps a loader event the way the program delivers it.
func EventMsg(ev loader.Event) tea.Msg { return eventMsg(ev) }

// KeyPress builds the key message for a key name such as "p" or "ctrl+s".
func KeyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}
