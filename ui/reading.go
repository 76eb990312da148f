package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The root's side of reading: which keys open the reader or copy, what
// they open, and the keys while it is open.

// reading is the root's state of reading.
type reading struct {
	// reader is what is read in full, if anything (ui/reader).
	reader *readerView
	// results keeps the last result of each row invoked (result.go).
	results lastResults
	// note says what y or o did (copy.go), until the next key.
	note string
}

// readingTakes reports whether a key goes to reading: every key while the
// reader is open or the wire pane's filter is typed, and e, y, b when
// the wire pane does not take them.
func (m *Model) readingTakes(msg tea.KeyPressMsg) bool {
	switch {
	case m.reader != nil, m.pane == paneWire && m.wire.Typing():
		return true
	case m.pane == paneWire && m.wire.Takes(msg):
		return false
	}
	return m.readerKey(msg)
}

// updateReading takes a key readingTakes took.
func (m *Model) updateReading(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.reader != nil:
		return m.updateReader(msg)
	case m.pane == paneWire && m.wire.Typing():
		return m.wire.Update(msg)
	}
	return m.openReader(msg)
}

// readingDone takes what reading's commands report: a reader to open, a
// copy or a save made.
func (m *Model) readingDone(msg tea.Msg) {
	switch msg := msg.(type) {
	case readMsg:
		switch {
		case msg.frame != nil && msg.pair:
			msg.r = m.wire.OpenPair(*msg.frame)
		case msg.frame != nil:
			msg.r = m.wire.OpenFrame(*msg.frame)
		}
		if msg.r != nil {
			m.reader = msg.r
		}
	case copiedMsg:
		m.setNote(msg.note())
	case savedMsg:
		m.setNote(msg.note())
	case notedMsg:
		m.setNote(string(msg))
	}
}

// A notedMsg is what a key did, or why it did nothing, for the footer.
type notedMsg string

// noted returns the command that says note in the footer.
func noted(note string) tea.Cmd { return func() tea.Msg { return notedMsg(note) } }

// bodyView is the screen between the header's first line and the footer:
// the reader when it is open, else the view and the bottom pane.
func (m *Model) bodyView() string {
	if m.reader != nil {
		m.reader.SetSize(m.c.width, max(3, m.c.height-3))
		return joinLeft(m.headerView(), m.reader.View())
	}
	if m.auditing.shown != nil {
		m.auditing.shown.SetSize(m.c.width, max(3, m.c.height-3))
		return joinLeft(m.headerView(), m.auditing.shown.View())
	}
	return joinLeft(m.headerView(), m.listing(m.view).View(), m.paneView())
}

// focused is the component the footer and the help screen describe.
func (m *Model) focused() component {
	if m.reader != nil {
		return m.reader
	}
	if m.auditing.shown != nil {
		return m.auditing.shown
	}
	return m.focus()
}

// readerKey reports whether msg is a key of reading outside the reader:
// e reads the bottom pane in full, y copies the focused thing, b shows the
// selected row's last result again.
func (m *Model) readerKey(msg tea.KeyPressMsg) bool {
	rk := m.c.keys.Reader
	return key.Matches(msg, rk.Read, rk.Copy, rk.LastResult)
}

// openReader acts on a key readerKey took.
func (m *Model) openReader(msg tea.KeyPressMsg) tea.Cmd {
	rk := m.c.keys.Reader
	switch {
	case key.Matches(msg, rk.LastResult):
		if v, ok := m.lastResult(); ok && m.calling == nil {
			m.result, m.pane = v, paneResult
		}
	case key.Matches(msg, rk.Copy):
		if m.pane == paneResult && m.result != nil && m.calling == nil {
			name, text := m.result.clip()
			return copyText(m.c, name, text)
		}
		if name, ok := m.selectedName(); ok {
			return copyText(m.c, "the registered name "+name, name)
		}
	case m.pane == paneResult && m.result != nil && m.calling == nil:
		m.reader = m.result.reader(m.env)
	case m.pane == paneDetail && m.view == viewFindings:
		m.reader = m.findingReader()
	case m.pane == paneDetail && m.view == viewGated:
		m.reader = m.gatedReader()
	case m.pane == paneDetail:
		m.reader = m.detailReader()
	}
	return nil
}

// updateReader hands a key to the reader, closing it on its last esc.
func (m *Model) updateReader(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case m.reader.Typing():
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.full = true
		return nil
	}
	cmd := m.reader.Update(msg)
	if m.reader.Closed() {
		m.reader = nil
	}
	return cmd
}

// setNote shows what y or o did, in the reader when it is open.
func (m *Model) setNote(note string) {
	if m.reader != nil {
		m.reader.SetNote(note)
		return
	}
	m.note = note
}

// selectedName is the registered name of the selected row, if it has one.
func (m *Model) selectedName() (string, bool) {
	r, ok := m.selected()
	if !ok {
		return "", false
	}
	o, _, ok := m.live.outcomeAt(r)
	return o.Name, ok && o.Name != ""
}
