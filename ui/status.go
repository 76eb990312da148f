package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// noteLife is how long a footer note (a report written, servers
// reconnected) stays when no key is pressed first.
const noteLife = 6 * time.Second

// notes times the footer's passing notes: each note set gets a serial, and
// only the tick of the newest clears it.
type notes struct {
	serial, clientSerial int
	// clientsTimed is set once the end of the client switch's note is
	// scheduled.
	clientsTimed bool
}

// A noteExpiredMsg says a note's time is up.
type noteExpiredMsg struct {
	serial  int
	clients bool
}

// say shows text in the footer until noteLife passes or a key is pressed.
func (m *Model) say(text string) tea.Cmd {
	m.pins.status = text
	m.notes.serial++
	return expireAfter(noteExpiredMsg{serial: m.notes.serial})
}

func expireAfter(msg noteExpiredMsg) tea.Cmd {
	return tea.Tick(noteLife, func(time.Time) tea.Msg { return msg })
}

// expire clears the note msg is for, unless a newer one replaced it or
// the footer is asking a question.
func (m *Model) expire(msg noteExpiredMsg) {
	switch {
	case msg.clients && msg.serial == m.notes.clientSerial && len(m.clients.pending) == 0:
		m.clients.pending = nil
	case !msg.clients && msg.serial == m.notes.serial && !m.pins.confirming:
		m.pins.status = ""
	}
}

// clearNotes drops the passing notes on a key press: what the footer asks
// stays, and so does a client switch still reconnecting.
func (m *Model) clearNotes() {
	if !m.pins.confirming {
		m.pins.status = ""
	}
	if len(m.clients.pending) == 0 {
		m.clients.pending = nil
	}
}

// timeClientNote schedules the end of the client switch's note once every
// server it reconnects has settled.
func (m *Model) timeClientNote() tea.Cmd {
	cs := &m.clients
	if cs.pending == nil || len(cs.pending) > 0 {
		m.notes.clientsTimed = false
		return nil
	}
	if m.notes.clientsTimed {
		return nil
	}
	m.notes.clientsTimed = true
	m.notes.clientSerial++
	return expireAfter(noteExpiredMsg{serial: m.notes.clientSerial, clients: true})
}
