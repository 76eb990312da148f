package ui

import (
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// headerView names the config, the active policy and what it does, and the
// provider profiles checked, then the views' tabs.
func (m *Model) headerView() string {
	s := m.c.styles
	p := m.activePolicy()
	names := make([]string, len(m.profiles))
	for i, pr := range m.profiles {
		names[i] = pr.Name
	}
	h := s.Header.Render("mcplens") + s.HeaderMuted.Render(" · "+model.Sanitize(m.title))
	if m.client != "" {
		h += s.HeaderMuted.Render(" · client: ") + s.PolicyName.Render(m.client)
	}
	h += s.HeaderMuted.Render(" · policy: ") +
		s.PolicyName.Render(p.Name) + s.HeaderMuted.Render(" ("+p.Summary+") · providers: "+strings.Join(names, " "))
	return truncate(h, m.c.width, "…") + "\n" + m.tabsView()
}

// tabsView names every view, the current one marked, with its number key.
func (m *Model) tabsView() string {
	s := m.c.styles
	var tabs []string
	for v := view(0); v < viewCount; v++ {
		label := strconv.Itoa(int(v)+1) + " " + v.String()
		if v == m.view {
			tabs = append(tabs, s.Selected.Render(" "+label+" "))
		} else {
			tabs = append(tabs, s.Muted.Render(" "+label+" "))
		}
	}
	return truncate(strings.Join(tabs, " "), m.c.width, "…")
}
