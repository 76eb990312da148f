package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The root's side of reading: which keys open the reader or copy, what
// they open, and the keys while it is open.

// readerKey reports whether msg is a key of reading outside the reader:
// e reads the bottom pane in full, y copies the focused thing, R shows the
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
	case m.pane == paneDetail:
		m.reader = m.detailReader()
	}
	return nil
}

// updateReader hands a key to the reader, closing it on its last esc.
func (m *Model) updateReader(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case m.full:
		if key.Matches(msg, k.Quit) {
			return tea.Quit
		}
		m.full = !key.Matches(msg, k.Help, k.Cancel)
		return nil
	case m.reader.q.typing:
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.full = true
		return nil
	}
	cmd := m.reader.Update(msg)
	if m.reader.closed {
		m.reader = nil
	}
	return cmd
}

// setNote shows what y or o did, in the reader when it is open.
func (m *Model) setNote(note string) {
	m.note = note
	if m.reader != nil {
		m.reader.note = note
	}
}

// selectedName is the registered name of the selected row, if it has one.
func (m *Model) selectedName() (string, bool) {
	r, ok := m.selected()
	if !ok {
		return "", false
	}
	o, _, ok := m.surface.outcomeAt(r)
	return o.Name, ok && o.Name != ""
}
