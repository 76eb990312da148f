package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// A stderrView is the stderr pane: what one server wrote on stderr, its
// last lines, newest last, masked and escaped as every server text. The
// backend keeps the tail (a *loader.Session a server's last 8 KiB, across
// reconnects, older output counted as dropped: the first line says how
// many bytes). It is
// read again on every tick while open, so it is live; it follows the
// newest lines until scrolled up, as the log pane does.
type stderrView struct {
	e             *env
	width, height int
	// only is the index of the server shown.
	only int
	// raw is the tail last read; lines is it split, masked and escaped.
	raw   string
	lines []string
	follow
}

func newStderrView(e *env) stderrView { return stderrView{e: e} }

func (v *stderrView) SetSize(width, height int) { v.width, v.height = width, height }

// refresh reads the tail of the server shown again, splitting it only
// when it changed.
func (v *stderrView) refresh() {
	n := len(v.e.live.snap.Servers)
	if n == 0 {
		v.raw, v.lines = "", nil
		return
	}
	v.only = min(v.only, n-1)
	raw := v.e.backend.Stderr(v.e.live.label(v.only))
	if raw == v.raw && v.lines != nil {
		return
	}
	v.raw = raw
	v.lines = v.lines[:0]
	if raw != "" {
		v.lines = v.e.c.textLines(raw)
		if v.lines[len(v.lines)-1] == "" {
			v.lines = v.lines[:len(v.lines)-1] // the last line's break
		}
	}
}

// takes reports whether msg is a key of the pane.
func (v *stderrView) takes(msg tea.KeyPressMsg) bool {
	return isMove(msg, v.e.c.keys) || key.Matches(msg, v.e.c.keys.LogServer)
}

// Update scrolls the pane, or shows the next server's stderr.
func (v *stderrView) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		if key.Matches(msg, v.e.c.keys.LogServer) {
			if n := len(v.e.live.snap.Servers); n > 0 {
				v.only = (v.only + 1) % n
			}
			v.back, v.lines = false, nil
			v.refresh()
			return nil
		}
		v.scroll(msg, v.e.c.keys, len(v.lines), v.height-1)
	}
	return nil
}

func (v *stderrView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.LogServer, k.Stderr, k.Logs}
}

func (v *stderrView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	return tailHelp(k, k.LogServer, k.Stderr)
}

func (v *stderrView) View() string {
	c := v.e.c
	s := c.styles
	start, end := v.window(len(v.lines), v.height-1)
	info := " (no server)"
	if len(v.e.live.snap.Servers) > 0 {
		info = " " + model.Sanitize(v.e.live.label(v.only)) + " · " + strconv.Itoa(len(v.lines)) + " lines kept · s: next server"
	}
	title := s.PaneTitle.Render("STDERR") + s.Muted.Render(info)
	return tailView(c, title, v.height, v.lines[start:end], func(_ common, l string) string { return l })
}

// toggleStderr opens the stderr pane on the selected row's server, or
// closes it when open.
func (m *Model) toggleStderr() {
	if m.pane == paneStderr {
		m.pane = paneDetail
		return
	}
	m.pane = paneStderr
	if r, ok := m.selected(); ok && r.server >= 0 {
		m.stderr.only = r.server
	}
	m.stderr.back, m.stderr.lines = false, nil
	m.stderr.refresh()
}
