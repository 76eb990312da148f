package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
)

// EventMsg wraps a loader event the way the program delivers it.
func EventMsg(ev loader.Event) tea.Msg { return eventMsg(ev) }

// EventsMsg wraps events that were waiting together, as the program
// delivers a burst.
func EventsMsg(evs ...loader.Event) tea.Msg { return eventsMsg(evs) }

// Events returns the loader events a message carries.
func Events(msg tea.Msg) []loader.Event {
	switch msg := msg.(type) {
	case eventMsg:
		return []loader.Event{loader.Event(msg)}
	case eventsMsg:
		return msg
	}
	return nil
}

// NextEvents runs the command the program runs to read the backend's next
// events, and returns its message.
func NextEvents(b Backend) tea.Msg { return waitEvent(b.Events())() }

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

// Settle runs what m computes in the background (derive.go, relist.go)
// until nothing is left, feeding each result back, and returns the model.
// Computations whose commands a test dropped are started again.
func Settle(m tea.Model) tea.Model {
	for {
		mm, ok := m.(Model)
		if !ok {
			return m
		}
		mm.surface.deriving.compare, mm.surface.deriving.findings = -1, -1
		for i := range mm.surface.relists {
			mm.surface.relists[i].diffing = 0
		}
		msgs := run(mm.derive(), mm.diffRelists())
		if len(msgs) == 0 {
			return m
		}
		for _, msg := range msgs {
			m, _ = m.Update(msg)
		}
	}
}

// run runs cmds, and the commands of every batch they return, in turn, and
// returns their messages.
func run(cmds ...tea.Cmd) []tea.Msg {
	var msgs []tea.Msg
	for _, cmd := range cmds {
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			msgs = append(msgs, run(msg...)...)
		case nil:
		default:
			msgs = append(msgs, msg)
		}
	}
	return msgs
}

// Derive returns the command that computes what m's current view lacks,
// or nil.
func Derive(m tea.Model) tea.Cmd { return m.(Model).derive() }
