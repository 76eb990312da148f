package ui

// The root screen's layout: the size each component gets, and the header,
// view, bottom pane and footer drawn one above the other.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui/kit"
)

// layout gives every component its size: the views what the header, the
// bottom pane and the footer leave.
func (m *Model) layout() {
	for v := range viewCount {
		m.listing(v).SetSize(m.c.width, m.tableHeight())
	}
	m.wire.SetSize(m.c.width, m.paneHeight())
	m.logs.SetSize(m.c.width, m.paneHeight())
	m.stderr.SetSize(m.c.width, m.paneHeight())
	m.tasks.SetSize(m.c.width, m.paneHeight())
	m.calls.SetSize(m.c.width, m.paneHeight())
	if m.invoke != nil {
		m.invoke.SetSize(m.c.width, m.c.height)
	}
}

// View draws the whole screen.
func (m Model) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	return v
}

// screen is the screen's text: a question a server asks takes it whole,
// and nothing under it is drawn.
func (m Model) screen() string {
	if m.ask != nil {
		return m.ask.overlay(m.c.styles.Footer.Render(kit.FitKeys(m.help, m.ask.ShortHelp(), m.c.width)))
	}
	body := ""
	if m.full {
		body = m.fullHelpView()
	} else {
		body = m.bodyView()
	}
	return m.rootsOverlay(m.editorOverlay(joinLeft(body, m.footerView())))
}

// paneHeight is the height of the bottom pane, border included.
func (m *Model) paneHeight() int {
	switch m.pane {
	case paneWire, paneLog, paneCalls, paneStderr, paneTasks:
		return max(6, m.c.height/2)
	case paneResult:
		return max(6, min(14, m.c.height/2))
	}
	return max(4, min(9, m.c.height/3))
}

// tableHeight is how many lines the views have.
func (m *Model) tableHeight() int {
	return max(1, m.c.height-3-m.paneHeight())
}

func (m *Model) paneView() string {
	switch m.pane {
	case paneWire:
		return m.wire.View()
	case paneLog:
		return m.logs.View()
	case paneStderr:
		return m.stderr.View()
	case paneTasks:
		return m.tasks.View()
	case paneCalls:
		return m.calls.View()
	case paneResult:
		if m.calling != nil {
			return m.callingView(m.paneHeight())
		}
		if m.result != nil {
			return m.result.view(m.c, m.paneHeight(), m.paneBox)
		}
	}
	if m.view == viewOffers {
		return m.paneBox(m.c.styles.PaneTitle.Render("DETAIL"), m.offers.detail(), m.paneHeight())
	}
	return m.detailView(m.paneHeight())
}

// Policy names the active naming policy.
func (m Model) Policy() string { return m.activePolicy().Name }
