package ui

import "charm.land/bubbles/v2/key"

// KeyMap declares every key mcplens answers to, once.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding

	Policy     key.Binding
	PolicyBack key.Binding
	Invoke     key.Binding
	Wire       key.Binding
	WireServer key.Binding
	Help       key.Binding
	Quit       key.Binding

	Send   key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns mcplens's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
		Policy:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "next policy")),
		PolicyBack: key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "previous policy")),
		Invoke:     key.NewBinding(key.WithKeys("i", "enter"), key.WithHelp("i/enter", "invoke")),
		Wire:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wire pane")),
		WireServer: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "wire: next server")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:       key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Send:       key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send call")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}
