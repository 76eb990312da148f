package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/mcpsession"
)

// EventMsg wraps a loader event the way the program delivers it.
func EventMsg(ev mcpsession.Event) tea.Msg { return eventMsg(ev) }

// EventsMsg wraps events that were waiting together, as the program
// delivers a burst.
func EventsMsg(evs ...mcpsession.Event) tea.Msg { return eventsMsg(evs) }

// Events returns the loader events a message carries.
func Events(msg tea.Msg) []mcpsession.Event {
	switch msg := msg.(type) {
	case eventMsg:
		return []mcpsession.Event{mcpsession.Event(msg)}
	case eventsMsg:
		return msg
	}
	return nil
}

// NextEvents runs the command the program runs to read the backend's next
// events, and returns its message.
func NextEvents(b Backend) tea.Msg { return waitEvent(b.Events())() }

// NextQuestion waits for the next question a server asks through q.
func NextQuestion(q *Questions) tea.Msg { return waitAsk(q)() }

// OpenWith makes q open URLs with open rather than a browser.
func OpenWith(q *Questions, open func(string) error) { q.open = open }

// RunBatch runs cmd, and each command of a batch, in the background.
func RunBatch(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if batch, ok := cmd().(tea.BatchMsg); ok {
			for _, c := range batch {
				go RunBatch(c)
			}
		}
	}()
}

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
	case "ctrl+x":
		return tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}
	case "ctrl+o":
		return tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// Settle runs what m computes in the background (derive.go, relist.go)
// until nothing is left, feeding each result back as the program would,
// and returns the model. A test drops the commands Update returns: the
// view shown is asked for what it lacks, and computed, whether or not a
// command was already made for it.
func Settle(m tea.Model) tea.Model {
	for {
		mm, ok := m.(Model)
		if !ok {
			return m
		}
		msgs := run(append(mm.relistsLacking(), mm.lacking())...)
		if len(msgs) == 0 {
			return m
		}
		for _, msg := range msgs {
			m, _ = m.Update(msg)
		}
	}
}

// relistsLacking returns the commands comparing each server's newest list
// with the one before it where that comparison is pending, even when a
// command for it was made already.
func (m Model) relistsLacking() []tea.Cmd {
	var cmds []tea.Cmd
	for i := range m.live.relists {
		r, sv := &m.live.relists[i], &m.live.snap.Servers[i]
		if !r.pending || sv.Prev == nil {
			continue
		}
		list, old, cur := r.lists, sv.Prev, sv.Tools
		cmds = append(cmds, func() tea.Msg {
			return relistedMsg{server: i, list: list, diff: relistDiff(old, cur)}
		})
	}
	return cmds
}

// lacking returns the command computing what the view shown lacks, even
// when a command for it was made already; nil when it lacks nothing.
func (m Model) lacking() tea.Cmd {
	s := m.live
	switch {
	case m.view == viewCompare && !m.compare.table.ready(s.gen):
		return deriveCmd(s.gen, func() func() *compareTable { return compareOf(s) })
	case m.view == viewFindings && !m.findings.found.ready(s.version):
		return deriveCmd(s.version, func() func() foundList { return findingsOf(s) })
	}
	return nil
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
func Derive(m tea.Model) tea.Cmd {
	mm := m.(Model)
	return mm.derive()
}

// SetPolicy makes the named policy active in m, as Options.Policy does
// when the interface is made, reporting whether it exists.
func SetPolicy(m tea.Model, name string) (tea.Model, bool) {
	mm := m.(Model)
	ok := mm.setPolicy(name)
	return mm, ok
}

// OpenHistory keeps m's calls in the file at path, as Options.History
// does, returning what could not be read.
func OpenHistory(m tea.Model, path string) error { return m.(Model).openHistory(path) }

// NextAppNote waits for the next note of an app hosted with `a`.
func NextAppNote(m tea.Model) tea.Msg { return waitAppNote(m.(Model).appNote)() }
