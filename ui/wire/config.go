package wire

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
	"github.com/mcplens/mcplens/ui/reader"
)

// A Source is where the pane reads the servers and their frames.
type Source interface {
	// Labels are the servers, in the config's order: what the pane
	// cycles through.
	Labels() []string
	// Frames are the frames server moved so far, oldest first; ok is
	// false when it keeps none.
	Frames(server string) (frames []mcpsession.Frame, ok bool)
}

// KeyMap are the pane's keys: Nav moves the cursor; Server cycles the
// server shown; Open reads the frame selected, Copy copies it, Linked
// jumps to its request or response; Search filters, Done keeps the filter
// and Cancel drops it; Toggle (the interface's) closes the pane. More are
// the interface's rows of keys the help screen shows after the pane's.
type KeyMap struct {
	Nav                                                      kit.Nav
	Server, Open, Copy, Linked, Search, Done, Cancel, Toggle key.Binding
	More                                                     [][]key.Binding
}

// Styles are the pane's styles.
type Styles struct {
	// Title heads the pane and a frame read; Section a half of a pair.
	Title, Section lipgloss.Style
	// Muted is what is said of a frame; Selected the frame selected.
	Muted, Selected lipgloss.Style
	// Out, In and Junk mark a frame's direction, or that it is no frame;
	// Warn what is wrong with one.
	Out, In, Junk, Warn lipgloss.Style
}

// Config is what the pane reads, draws and opens with, given by its
// owner. Styles is called at each draw: the styles follow the terminal's
// background.
type Config struct {
	Keys   KeyMap
	Styles func() Styles
	// Redact masks the config's secrets in what the pane shows.
	Redact *model.Redactor
	Source Source
	// Copy returns the command that copies text, named what.
	Copy func(what, text string) tea.Cmd
	// Reader returns the reader of what draw draws under title, at the
	// screen's size; Open the command that shows it.
	Reader func(title string, draw func() []string) *reader.Model
	Open   func(r *reader.Model) tea.Cmd
	// Width is the screen's width now, which a reader is drawn at: a
	// request and its response are laid out side by side at it.
	Width func() int
	// OpenFrame returns the command that reads the frame k, beside the
	// frame it links to when pair is set (OpenFrame, OpenPair).
	OpenFrame func(k Key, pair bool) tea.Cmd
	// JSON renders whole JSON for reading, pretty-printed; Text any other
	// bytes, line by line; both mask and sanitize.
	JSON func(b []byte) []string
	Text func(s string) []string
}
