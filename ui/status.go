package ui

import "time"

// noteLife is how long a footer note (a report written, servers
// reconnected) stays when no key is pressed first.
const noteLife = 6 * time.Second

// notes times the footer's passing notes. The spinner's tick, which runs
// as long as the interface does, is their clock (expireNotes): a note
// needs no timer of its own.
type notes struct {
	// said is when the report's note was set; clientsDone when every
	// server of the last client switch had settled.
	said, clientsDone time.Time
}

// say shows text in the footer until noteLife passes or a key is pressed.
func (m *Model) say(text string) {
	m.pins.status = text
	m.notes.said = time.Now()
}

// expireNotes clears the notes older than noteLife at now, but for what
// the footer asks.
func (m *Model) expireNotes(now time.Time) {
	if m.pins.status != "" && !m.pins.confirming && now.Sub(m.notes.said) >= noteLife {
		m.pins.status = ""
	}
	cs := &m.clients
	switch {
	case cs.pending == nil || len(cs.pending) > 0:
		m.notes.clientsDone = time.Time{}
	case m.notes.clientsDone.IsZero():
		m.notes.clientsDone = now
	case now.Sub(m.notes.clientsDone) >= noteLife:
		cs.pending = nil
		m.notes.clientsDone = time.Time{}
	}
}

// clearNotes drops the passing notes on a key press: what the footer asks
// stays, and so does a client switch still reconnecting.
func (m *Model) clearNotes() {
	m.note = "" // what y or o did (reading.go)
	if !m.pins.confirming {
		m.pins.status = ""
	}
	if len(m.clients.pending) == 0 {
		m.clients.pending = nil
	}
}
