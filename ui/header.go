package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// headerView counts the servers by status, names the config, the client
// and the active policy and what it does, and the provider profiles
// checked, then the views' tabs. What is judged, the client and the
// policy, stays at any width: the other parts give way first, the
// providers, the policy's summary, the roots, the config's name, then the
// servers the counts name.
func (m *Model) headerView() string {
	s := m.c.styles
	p := m.activePolicy()
	names := make([]string, len(m.profiles))
	for i, pr := range m.profiles {
		names[i] = pr.Name
	}
	client := ""
	if m.client != "" {
		client = s.HeaderMuted.Render(" · client: ") + s.PolicyName.Render(model.Sanitize(m.client))
	}
	// In the order shown; drop is the order they give way in (0 stays).
	// The config's name, once it would go, keeps what room is left, cut in
	// its middle: its end says "(offline recording)" or the file's name.
	title := model.Sanitize(m.title)
	parts := []struct {
		text string
		drop int
	}{
		{s.Header.Render("mcplens"), 0},
		{m.countsView(true), 5},
		{m.countsView(false), 6},
		{"", 4}, // the config's name
		{client, 0},
		{m.protocolHeader(), 0},
		{s.HeaderMuted.Render(" · policy: ") + s.PolicyName.Render(p.Name), 0},
		{s.HeaderMuted.Render(" (" + p.Summary + ")"), 2},
		{m.rootsHeader(), 3},
		{s.HeaderMuted.Render(" · providers: " + strings.Join(names, " ")), 1},
	}
	shown := func(drop, titleRoom int) string {
		h := ""
		for i, pt := range parts {
			switch {
			case i == 3 && drop < 4:
				h += s.HeaderMuted.Render(" · " + title)
			case i == 3 && titleRoom >= 12:
				h += s.HeaderMuted.Render(" · " + strings.TrimRight(cellMid(title, titleRoom), " "))
			case pt.drop != 0 && pt.drop <= drop, i == 2 && drop < 5:
				continue // the counts without names stand in once the names go
			default:
				h += pt.text
			}
		}
		return h
	}
	h := shown(0, 0)
	for drop := 1; drop <= 6 && lipgloss.Width(h) > m.c.width; drop++ {
		h = shown(drop, 0)
		if room := m.c.width - lipgloss.Width(h) - 3; drop >= 4 && room >= 12 {
			h = shown(drop, room)
		}
	}
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
func (m *Model) countsView(named bool) string {
	s := m.c.styles
	kinds := []struct {
		status surface.Status
		style  lipgloss.Style
	}{
		{surface.OK, s.OKText}, {surface.Incomplete, s.WarnText}, {surface.PolicyFailed, s.ErrorText}, {surface.Failed, s.ErrorText}, {surface.NeedsLogin, s.WarnText},
		{surface.Disconnected, s.Muted},
	}
	out := ""
	for _, k := range kinds {
		var names []string
		for i, v := range m.live.a.Servers {
			if v.Status == k.status {
				names = append(names, model.Sanitize(m.live.label(i)))
			}
		}
		if len(names) == 0 && k.status != surface.OK {
			continue
		}
		text := strconv.Itoa(len(names)) + " " + string(k.status)
		if named && k.status != surface.OK && len(names) <= 3 {
			text += " (" + strings.Join(names, ", ") + ")"
		}
		out += s.HeaderMuted.Render(" · ") + k.style.Render(text)
	}
	return out
}
