package reader

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

// KeyMap are the reader's keys: Nav scrolls; Cancel ends a search, then
// closes the reader; the others are ui.ReaderKeys's.
type KeyMap struct {
	Nav                                                      kit.Nav
	Cancel, Search, Next, Previous, Copy, Save, Linked, Pair key.Binding
	// Done ends typing a search, keeping it.
	Done key.Binding
}

// Styles are the reader's styles: its position and notes (Muted), a
// search that matched nothing (Warn), the matches (Match) and the one
// gone to (CurrentMatch).
type Styles struct {
	Muted, Warn, Match, CurrentMatch lipgloss.Style
}

// Config is what a reader draws and acts with, given by its owner. Styles
// is called at each draw: the styles follow the terminal's background.
type Config struct {
	Keys   KeyMap
	Styles func() Styles
	// Redact masks the config's secrets in the search shown.
	Redact *model.Redactor
	// Copy returns the command that copies text, named what (y).
	Copy func(what, text string) tea.Cmd
}

// A Model shows one long thing whole: a call's result, a wire frame, a
// tool's detail. It takes the screen between the header and the footer,
// scrolls with the movement keys, searches with / (n and N go from match
// to match, each highlighted), copies with y what it holds, saves with o
// an image or audio it holds, and esc closes it. Its lines are drawn again
// at each width, wrapped, never cut.
type Model struct {
	c     Config
	title string
	// draw returns the lines read, styled and sanitized, not yet wrapped.
	draw func() []string
	// Clip is what y copies, named ClipName; "" copies nothing.
	Clip, ClipName string
	// Save is what o runs: writing the images or audio read to files;
	// nil when there are none.
	Save tea.Cmd
	// Linked is what J runs: reading the frame linked to the one read (a
	// request's response, a response's request); Pair is what | runs:
	// reading the frame beside it. nil for none.
	Linked, Pair tea.Cmd

	// vp draws the lines in sight: it is given those alone, so a frame
	// costs the window, not the lines read.
	vp            viewport.Model
	width, height int
	styled, plain []string
	// src is the line drawn each wrapped line comes from.
	src []int
	// top is the first line shown.
	top int

	q       kit.Query
	matches []readerMatch
	// byLine indexes the matches of each line that has some.
	byLine map[int][]int
	at     int
	note   string
	closed bool
}

// A readerMatch is one place the search matched: a line, and its bytes in
// the line's plain text.
type readerMatch struct{ line, start, end int }

// New returns the reader of what draw draws, under title (styled,
// sanitized by its caller). It is drawn at its first SetSize.
func New(c Config, title string, draw func() []string) *Model {
	r := &Model{c: c, title: title, draw: draw, vp: viewport.New(), q: kit.NewQuery()}
	r.vp.SoftWrap = false
	r.vp.KeyMap = viewport.KeyMap{} // the reader maps mcplens's keys itself
	return r
}

// SetSize draws the lines again at width, keeping the line read on top.
func (r *Model) SetSize(width, height int) {
	if width == r.width && height == r.height && r.styled != nil {
		return
	}
	at := 0 // the line drawn on top, kept across a new wrap
	if r.top < len(r.src) {
		at = r.src[r.top]
	}
	rewrap := width != r.width || r.styled == nil
	r.width, r.height = width, height
	r.vp.SetWidth(width)
	r.vp.SetHeight(r.body())
	r.q.Input.SetWidth(max(1, width-2))
	if rewrap {
		r.styled, r.plain, r.src = kit.Wrap(r.draw(), width)
		r.find()
		r.top, _ = slices.BinarySearch(r.src, at)
	}
	r.scrollTo(r.top)
}

// body is how many lines are in sight.
func (r *Model) body() int { return max(1, r.height-2) }

// scrollTo puts line top first in sight, within the lines.
func (r *Model) scrollTo(top int) {
	r.top = max(0, min(top, len(r.styled)-r.body()))
}

// find looks for the query in every line, case-insensitively.
func (r *Model) find() {
	r.matches, r.byLine = r.matches[:0], nil
	if r.q.Text == "" {
		return
	}
	r.byLine = map[int][]int{}
	lower := strings.ToLower(r.q.Text)
	for i, l := range r.plain {
		low, q := strings.ToLower(l), lower
		if len(low) != len(l) {
			low, q = l, r.q.Text // lower-casing moved bytes: match exactly
		}
		for off := 0; len(q) > 0; {
			j := strings.Index(low[off:], q)
			if j < 0 {
				break
			}
			r.byLine[i] = append(r.byLine[i], len(r.matches))
			r.matches = append(r.matches, readerMatch{line: i, start: off + j, end: off + j + len(q)})
			off += j + len(q)
		}
	}
	r.at = min(r.at, max(0, len(r.matches)-1))
}

// window returns the lines in sight, the matches among them highlighted.
func (r *Model) window() []string {
	end := min(len(r.styled), r.top+r.body())
	lines := append([]string(nil), r.styled[r.top:end]...)
	s := r.c.Styles()
	for i := range lines {
		ms := r.byLine[r.top+i]
		if len(ms) == 0 {
			continue
		}
		p := r.plain[r.top+i]
		var sb strings.Builder
		last := 0
		for _, mi := range ms {
			m := r.matches[mi]
			sb.WriteString(p[last:m.start])
			style := s.Match
			if mi == r.at {
				style = s.CurrentMatch
			}
			sb.WriteString(style.Render(p[m.start:m.end]))
			last = m.end
		}
		sb.WriteString(p[last:])
		lines[i] = sb.String()
	}
	return lines
}

// jump moves to match i and brings it into sight.
func (r *Model) jump(i int) {
	if len(r.matches) == 0 {
		return
	}
	r.at = (i + len(r.matches)) % len(r.matches)
	if line := r.matches[r.at].line; line < r.top || line >= r.top+r.body() {
		r.scrollTo(line - r.body()/3)
	}
}

// Update scrolls, searches, copies or saves; esc ends a search, then
// closes the reader (closed is set).
func (r *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	rk := r.c.Keys
	if r.q.Typing {
		cmd, changed := r.q.Key(k, rk.Cancel, rk.Done)
		if changed {
			r.at = 0
			r.find()
			r.jump(r.nearest())
		}
		return cmd
	}
	r.note = ""
	switch {
	case key.Matches(k, rk.Cancel):
		if r.q.Text != "" {
			r.q.Text = ""
			r.find()
		} else {
			r.closed = true
		}
	case key.Matches(k, rk.Search):
		return r.q.Start()
	case key.Matches(k, rk.Next):
		r.jump(r.at + 1)
	case key.Matches(k, rk.Previous):
		r.jump(r.at - 1)
	case key.Matches(k, rk.Copy) && r.Clip != "":
		r.note = "copying " + r.ClipName + "…"
		return r.c.Copy(r.ClipName, r.Clip)
	case key.Matches(k, rk.Linked) && r.Linked != nil:
		return r.Linked
	case key.Matches(k, rk.Pair) && r.Pair != nil:
		return r.Pair
	case key.Matches(k, rk.Save) && r.Save != nil:
		return r.Save
	default:
		r.scroll(k)
	}
	return nil
}

// nearest is the first match at or below the top line shown.
func (r *Model) nearest() int {
	for i, m := range r.matches {
		if m.line >= r.top {
			return i
		}
	}
	return 0
}

// scroll moves the lines shown on a movement key.
func (r *Model) scroll(k tea.KeyPressMsg) {
	last := max(0, len(r.styled)-r.body())
	if y, ok := kit.Moved(k, r.c.Keys.Nav, r.top, last, max(1, r.body()-1)); ok {
		r.scrollTo(y)
	}
}

// View draws the title and where the reader is, the lines, and the search
// or the last note.
func (r *Model) View() string {
	s := r.c.Styles()
	pos := fmt.Sprintf(" · lines %d–%d of %d", min(len(r.styled), r.top+1), min(len(r.styled), r.top+r.body()), len(r.styled))
	head := r.title + s.Muted.Render(pos)
	head = kit.Truncate(head, r.width, "…")
	head += " " + s.Muted.Render(strings.Repeat("─", max(0, r.width-kit.Width(head)-1)))
	var foot string
	switch {
	case r.q.Typing:
		foot = r.q.Input.View()
	case r.q.Text != "" && len(r.matches) == 0:
		foot = s.Warn.Render("/" + kit.Quote(r.c.Redact, r.q.Text) + ": no match")
	case r.q.Text != "":
		foot = s.Muted.Render(fmt.Sprintf("/%s: match %d of %d", kit.Quote(r.c.Redact, r.q.Text), r.at+1, len(r.matches)))
	}
	if r.note != "" && !r.q.Typing {
		// What a key just did (copied, saved) comes first, a kept search after.
		foot = strings.TrimSuffix(r.note+"  "+foot, "  ")
	}
	r.vp.SetContentLines(r.window())
	return kit.JoinLeft(head, r.vp.View(), kit.Truncate(foot, r.width, "…"))
}

// ShortHelp is the reader's keys: scrolling, searching, closing, then
// copying and saving. The footer keeps them first first (footer.go), so
// esc close outlasts the keys a narrow footer drops.
func (r *Model) ShortHelp() []key.Binding {
	k := r.c.Keys
	if r.q.Typing {
		return []key.Binding{k.Done, k.Cancel}
	}
	keys := []key.Binding{k.Cancel, k.Nav.Down, k.Nav.Bottom, k.Search}
	if r.q.Text != "" {
		keys = append(keys, k.Next)
	}
	if r.Clip != "" {
		keys = append(keys, k.Copy)
	}
	if r.Save != nil {
		keys = append(keys, k.Save)
	}
	if r.Linked != nil {
		keys = append(keys, k.Linked)
	}
	if r.Pair != nil {
		keys = append(keys, k.Pair)
	}
	return keys
}

func (r *Model) FullHelp() [][]key.Binding {
	k := r.c.Keys
	return [][]key.Binding{
		{k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.Top, k.Nav.Bottom},
		{k.Search, k.Next, k.Copy, k.Save, k.Linked, k.Pair, k.Cancel},
	}
}

// SetNote shows note in the reader's last line until the next key: what
// a key did (copied, saved).
func (r *Model) SetNote(note string) { r.note = note }

// Closed reports whether the last esc closed the reader.
func (r *Model) Closed() bool { return r.closed }

// Typing reports whether a search is being typed: every key goes to it.
func (r *Model) Typing() bool { return r.q.Typing }
