//go:build mcplens_panictest

package main

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// withTestHooks makes the interface panic on the key "!", so a test can
// check that a panic in the interface restores the terminal and leaves no
// server process behind, and take a minute over the key "~", so a test can
// check that a signal ends mcplens in the middle of a frame. Only a binary
// built with -tags mcplens_panictest has them.
func withTestHooks(m tea.Model) tea.Model { return panicky{m} }

type panicky struct{ tea.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Text == "!" {
		panic("mcplens test hook: panic on !")
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Text == "~" {
		time.Sleep(time.Minute)
	}
	m, cmd := p.Model.Update(msg)
	return panicky{m}, cmd
}
