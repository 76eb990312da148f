package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui/reader"
	"github.com/mcplens/mcplens/ui/wire"
)

// A wireView is the wire pane (ui/wire); a frameKey names one of its
// frames.
type (
	wireView = wire.Model
	frameKey = wire.Key
)

// readMsg opens the reader on something a component built, or on the
// frame of the wire pane named by frame.
type readMsg struct {
	r     *readerView
	frame *frameKey
	// pair opens frame beside the frame it links to (ui/wire/pair.go).
	pair bool
}

// newWireView returns the wire pane over the backend's frame logs, drawn
// with the interface's keys and styles, its frames read in the root's
// reader.
func newWireView(e *env) wireView {
	k := e.c.keys
	rk := k.Reader
	return wire.New(wire.Config{
		Keys: wire.KeyMap{Nav: k.nav(), Server: k.WireServer, Open: rk.Open, Copy: rk.Copy, Linked: rk.Linked,
			Search: rk.Search, Done: rk.Done, Cancel: k.Cancel, Toggle: k.Wire, More: tailHelp(k)[2:]},
		Styles: func() wire.Styles {
			s := e.c.styles
			return wire.Styles{Title: s.PaneTitle, Section: s.Section, Muted: s.Muted, Selected: s.Selected,
				Out: s.Out, In: s.In, Junk: s.Junk, Warn: s.WarnText}
		},
		Redact: e.c.redact,
		Source: wireSource{e},
		Copy:   func(what, text string) tea.Cmd { return copyText(e.c, what, text) },
		Reader: func(title string, draw func() []string) *reader.Model { return newReader(e, title, draw) },
		Open:   func(r *reader.Model) tea.Cmd { return func() tea.Msg { return readMsg{r: r} } },
		Width:  func() int { return e.c.width },
		OpenFrame: func(k wire.Key, pair bool) tea.Cmd {
			return func() tea.Msg { return readMsg{frame: &k, pair: pair} }
		},
		JSON: func(b []byte) []string { return e.c.jsonLines(b) },
		Text: func(s string) []string { return e.c.textLines(s) },
	})
}

// wireSource gives the wire pane the servers of the live state and the
// frames the backend keeps of each.
type wireSource struct{ e *env }

func (s wireSource) Labels() []string { return s.e.live.labels() }

func (s wireSource) Frames(server string) ([]mcpsession.Frame, bool) {
	if wire := s.e.backend.FrameLog(server); wire != nil {
		return wire.Frames(), true
	}
	return nil, false
}
