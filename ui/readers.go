package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui/reader"
)

// A readerView is the reader component (ui/reader): what is too long for
// its pane, read whole. The root holds the one open (reading.go); a
// question (askpreview.go) and the resources view (resourcesform.go) hold
// their own.
type readerView = reader.Model

// newReader returns the reader of what draw draws, under title, at the
// size of the screen between the header and the footer.
func newReader(e *env, title string, draw func() []string) *readerView {
	r := reader.New(readerConfig(e), title, draw)
	r.SetSize(e.c.width, max(3, e.c.height-3))
	return r
}

// readerConfig gives a reader the interface's keys and styles, its
// redactor, and its way of copying.
func readerConfig(e *env) reader.Config {
	k := e.c.keys
	rk := k.Reader
	return reader.Config{
		Keys: reader.KeyMap{Nav: k.nav(), Cancel: k.Cancel, Search: rk.Search, Next: rk.Next, Previous: rk.Previous,
			Copy: rk.Copy, Save: rk.Save, Linked: rk.Linked, Pair: rk.Pair, Done: rk.Done},
		Styles: func() reader.Styles {
			s := e.c.styles
			return reader.Styles{Muted: s.Muted, Warn: s.WarnText, Match: s.Match, CurrentMatch: s.CurrentMatch}
		},
		Redact: e.c.redact,
		Copy:   func(what, text string) tea.Cmd { return copyText(e.c, what, text) },
	}
}

// saveWith makes o, in r, write items to files named after name; with no
// items o does nothing.
func saveWith(r *readerView, name string, items []saveable) {
	if len(items) > 0 {
		r.Save = saveItems(name, items)
	}
}
