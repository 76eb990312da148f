package ui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/ui/editor"
)

// openInvoke opens the editor on the selected row, routed the way the
// registry routes the row's registered name, on the arguments of the last
// call to the same tool, else on the skeleton of its input schema.
func (m *Model) openInvoke() {
	if r, ok := m.selected(); ok {
		m.openInvokeOn(r, nil)
	}
}

// openInvokeOn opens the editor on row r under the active policy, on args
// when given (a call of the history), else as openInvoke does.
func (m *Model) openInvokeOn(r ref, args json.RawMessage) {
	o, t, ok := m.live.outcomeAt(r)
	if !ok || o.Name == "" {
		return
	}
	route, ok := m.live.reg.Lookup(o.Name)
	if args == nil {
		if last, found := m.hist.last(route.Server, route.Wire); ok && found {
			args = last.Arguments
		}
	}
	m.invoke = newEditor(m.env, editor.Target{Policy: m.activePolicy().Name, Row: o, Route: route}, t.InputSchema, args)
}

// updateInvoke hands a key to the call history while it is browsed, else
// to the editor: it places the call the editor sends, and drops the
// editor once closed.
func (m *Model) updateInvoke(msg tea.KeyPressMsg) tea.Cmd {
	if m.hist.browsing {
		return m.updateHistory(msg)
	}
	ed := m.invoke
	ed.SetCalling(m.calling != nil)
	cmd := ed.Update(msg)
	if args, sent := ed.Sent(); sent {
		m.invoke = nil
		return m.place(ed.Target(), args)
	}
	if ed.Closed() {
		m.invoke = nil
	}
	return cmd
}

// editorOverlay is body with the argument editor or the call history
// drawn over it, when one is open.
func (m *Model) editorOverlay(body string) string {
	switch {
	case m.hist.browsing:
		return lipgloss.Place(m.c.width, m.c.height, lipgloss.Center, lipgloss.Center, m.historyView(),
			lipgloss.WithWhitespaceChars(" "))
	case m.invoke != nil:
		return lipgloss.Place(m.c.width, m.c.height, lipgloss.Center, lipgloss.Center, m.invoke.View(),
			lipgloss.WithWhitespaceChars(" "))
	}
	return body
}
