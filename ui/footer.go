package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/mcplens/mcplens/ui/kit"
)

// shortHelp is the keys that work now in the focused component, for the
// footer; the root's help and quit follow them there (footerView).
func (m *Model) shortHelp() []key.Binding {
	switch {
	case m.ask != nil:
		return m.ask.ShortHelp()
	case m.invoke != nil:
		return m.invoke.ShortHelp()
	case m.full:
		return []key.Binding{m.c.keys.Up, m.c.keys.Down, m.c.keys.PageDown}
	}
	return m.focused().ShortHelp()
}

// fullHelp is every key of the focused component, then the root's.
func (m *Model) fullHelp() [][]key.Binding {
	k := m.c.keys
	groups := m.focused().FullHelp()
	last := len(groups) - 1
	if m.reader == nil {
		groups[last] = append(groups[last], k.Reader.Read, k.Reader.Copy, k.Reader.LastResult)
	}
	groups[last] = append(groups[last], k.Help, k.Quit)
	return groups
}

// footerView is one line: the notes (the query, a client switch, a report
// written, the log level), as many of the focused component's keys as fit,
// and always `? help` and `q quit`, whatever the width.
func (m *Model) footerView() string {
	k := m.c.keys
	st := m.c.styles
	h := m.help
	h.SetWidth(0)
	tail := st.Footer.Render(h.ShortHelpView([]key.Binding{k.Help, k.Quit}))
	var notes []string
	find := m.findView()
	if m.reader != nil {
		find = "" // the servers view's filter says nothing of what is read
	}
	for _, note := range []string{find, m.clientStatus(), m.pins.status, m.pins.lockNote, m.logStatus(),
		m.historyStatus(), m.loginStatus(), m.note} {
		if note != "" {
			notes = append(notes, note)
		}
	}
	room := m.c.width - textWidth(tail)
	out := ""
	if lead := strings.Join(notes, "  "); lead != "" {
		out = truncate(lead, max(1, room-2), "…") + "  "
		room -= textWidth(out)
	}
	if !m.find.typing {
		if keys := kit.FitKeys(h, m.shortHelp(), room-3); keys != "" {
			out += st.Footer.Render(keys + " • ")
		}
	}
	return truncate(out+tail, m.c.width, "")
}
