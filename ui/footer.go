package ui

import "charm.land/bubbles/v2/key"

// shortHelp is the keys that work now, for the footer: the focused
// component's, then the root's.
func (m *Model) shortHelp() []key.Binding {
	k := m.c.keys
	switch {
	case m.ask != nil:
		return m.ask.ShortHelp()
	case m.invoke != nil:
		return m.invoke.ShortHelp()
	case m.full:
		return []key.Binding{k.Help, k.Quit}
	}
	return append(m.focused().ShortHelp(), k.Help, k.Quit)
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

func (m *Model) footerView() string {
	help := m.c.styles.Footer.Render(m.help.ShortHelpView(m.shortHelp()))
	for _, note := range []string{m.clientStatus(), m.pins.status, m.logStatus(), m.historyStatus(), m.loginStatus(), m.note} {
		if note != "" {
			help = note + "  " + help
		}
	}
	return help
}
