package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// navigation is what the root keeps for finding and moving about: the
// gated view (gated.go), the / prompt, where the help screen is scrolled
// to (help.go) and when the footer's notes go (status.go).
type navigation struct {
	gated      gatedView
	find       finder
	helpScroll viewport.Model
	notes      notes
}

func newNavigation(e *env) navigation {
	return navigation{gated: gatedView{list: list{e: e}}, find: newFinder(), helpScroll: viewport.New()}
}

// navTakes reports whether msg is one of the keys updateNav takes before
// the root's: enter and esc in the compare view, esc clearing a query, /.
func (m *Model) navTakes(msg tea.KeyPressMsg) bool {
	k := m.c.keys
	return m.view == viewCompare && m.compare.takes(msg) ||
		key.Matches(msg, k.Cancel) && m.pane == paneDetail && m.live.filter.active() ||
		key.Matches(msg, k.Search)
}

// updateNav takes a key navTakes took.
func (m *Model) updateNav(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.view == viewCompare && m.compare.takes(msg):
		return m.compare.Update(msg)
	case key.Matches(msg, m.c.keys.Search):
		return m.startFind()
	}
	return m.setQuery("")
}

// navDone takes what navigation's commands report: a report written, a
// query matched.
func (m *Model) navDone(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case reportWrittenMsg:
		m.reportWritten(msg)
	case foundRowsMsg:
		return m.foundRows(msg)
	}
	return nil
}

// A finder is the / prompt: while typing, every key goes to it, so that
// a query never switches views, toggles panes or writes a report.
type finder struct {
	input  textinput.Model
	typing bool
}

func newFinder() finder {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "tool name"
	return finder{input: in}
}

// startFind opens an empty prompt on the servers view: the filter kept
// stays until the first key changes the query, and enter on the empty
// prompt keeps it.
func (m *Model) startFind() tea.Cmd {
	m.view = viewServers
	m.find.typing = true
	m.find.input.SetValue("")
	return m.find.input.Focus()
}

// typeFind takes a key while the prompt is open: enter keeps the filter,
// esc clears it, anything else edits the query, which filters at once.
func (m *Model) typeFind(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Keep):
		m.find.typing = false
		m.find.input.Blur()
		return nil
	case key.Matches(msg, k.Cancel):
		m.find.typing = false
		m.find.input.Blur()
		return m.setQuery("")
	}
	var cmd tea.Cmd
	before := m.find.input.Value()
	m.find.input, cmd = m.find.input.Update(msg)
	if q := m.find.input.Value(); q != before && q != m.live.filter.query {
		return tea.Batch(cmd, m.setQuery(q))
	}
	return cmd
}

// setQuery filters the rows by q ("" shows every row) and puts the cursor
// on the best match, returning the command matching when it is not done
// at once (rowfilter.go).
func (m *Model) setQuery(q string) tea.Cmd {
	s := m.live
	s.filter.query = q
	cmd := s.match()
	if q == "" || s.filter.current() { // else the rows stay as they are until the match is done
		s.layout()
		m.foundBest()
	}
	return cmd
}

// foundBest puts the cursor on the best match once the query is matched;
// with no query, back on the row chosen (serversView.follow).
func (m *Model) foundBest() {
	if at, ok := m.live.best(); ok && m.live.filter.active() {
		m.servers.moveTo(at)
		return
	}
	m.servers.refresh()
}

// foundRows adopts a match a command did, and starts the next when the
// query changed meanwhile.
func (m *Model) foundRows(msg foundRowsMsg) tea.Cmd {
	s := m.live
	if s.adoptFound(msg) {
		s.layout()
		m.foundBest()
	}
	return s.match()
}

// findView is the footer's line while a query is typed or kept: the
// prompt or the query, and how many rows match.
func (m *Model) findView() string {
	s := m.c.styles
	f := &m.live.filter
	count := s.Muted.Render(fmt.Sprintf("  %d of %d rows", len(f.matched), m.live.rowCount()))
	if !f.active() {
		count = s.Muted.Render(fmt.Sprintf("  %d rows", m.live.rowCount()))
	} else if !f.current() {
		count = s.Muted.Render("  " + m.spin + " finding among " + fmt.Sprint(m.live.rowCount()) + " rows")
	}
	if m.find.typing {
		return m.find.input.View() + count + s.Muted.Render(" · enter keeps · esc clears")
	}
	if !f.active() {
		return ""
	}
	return s.WarnText.Render("/"+model.Sanitize(f.query)) + count + s.Muted.Render(" · n/N next/prev · esc clears")
}
