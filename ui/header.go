package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
	live "github.com/mcplens/mcplens/surface"
)

// headerView counts the servers by status, names the config, the active
// policy and what it does, and the provider profiles checked, then the
// views' tabs. The counts come first: a narrow terminal cuts the end.
func (m *Model) headerView() string {
	s := m.c.styles
	p := m.activePolicy()
	names := make([]string, len(m.profiles))
	for i, pr := range m.profiles {
		names[i] = pr.Name
	}
	h := s.Header.Render("mcplens") + m.countsView() + s.HeaderMuted.Render(" · "+model.Sanitize(m.title))
	if m.client != "" {
		h += s.HeaderMuted.Render(" · client: ") + s.PolicyName.Render(m.client)
	}
	h += s.HeaderMuted.Render(" · policy: ") +
		s.PolicyName.Render(p.Name) + s.HeaderMuted.Render(" ("+p.Summary+")") + m.rootsHeader() +
		s.HeaderMuted.Render(" · providers: "+strings.Join(names, " "))
	return truncate(h, m.c.width, "…") + "\n" + m.tabsView()
}

// tabsView names every view, the current one marked, with its number key.
func (m *Model) tabsView() string {
	s := m.c.styles
	// Padded, the seven tabs take 88 columns; narrower, they lose the
	// padding rather than the last tabs.
	pad := " "
	if m.c.width < 88 {
		pad = ""
	}
	var tabs []string
	for v := view(0); v < viewCount; v++ {
		label := pad + strconv.Itoa(int(v)+1) + " " + v.String() + pad
		if v == m.view {
			tabs = append(tabs, s.Selected.Render(label))
		} else {
			tabs = append(tabs, s.Muted.Render(label))
		}
	}
	return truncate(strings.Join(tabs, " "), m.c.width, "…")
}

// countsView is the header's count of servers by status, as the
// assessment gives them: " · 3 ok · 1 incomplete (gamma) · 1 failed
// (broken)", the servers named while there are at most three of a kind.
func (m *Model) countsView() string {
	s := m.c.styles
	kinds := []struct {
		status live.Status
		style  lipgloss.Style
	}{
		{live.OK, s.OKText}, {live.Incomplete, s.WarnText}, {live.PolicyFailed, s.ErrorText}, {live.Failed, s.ErrorText}, {live.NeedsLogin, s.WarnText},
	}
	out := ""
	for _, k := range kinds {
		var names []string
		for i, v := range m.surface.a.Servers {
			if v.Status == k.status {
				names = append(names, model.Sanitize(m.surface.label(i)))
			}
		}
		if len(names) == 0 && k.status != live.OK {
			continue
		}
		text := strconv.Itoa(len(names)) + " " + string(k.status)
		if k.status != live.OK && len(names) <= 3 {
			text += " (" + strings.Join(names, ", ") + ")"
		}
		out += s.HeaderMuted.Render(" · ") + k.style.Render(text)
	}
	return out
}
