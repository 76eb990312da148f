package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/ui/kit"
)

// ReaderKeys are the keys of the reader and of what opens it.
type ReaderKeys struct {
	// Read opens the bottom pane in the reader; Open opens the frame
	// selected in the wire pane.
	Read, Open key.Binding
	// Search, Next and Previous search the text read.
	Search, Next, Previous key.Binding
	// Copy copies the thing focused; Save writes an image's bytes.
	Copy, Save key.Binding
	// LastResult shows the last result of the selected tool again.
	LastResult key.Binding
	// Linked jumps between a request and its response in the wire pane;
	// Pair shows them side by side (wirepair.go).
	Linked, Pair key.Binding
	// Done ends typing a search.
	Done key.Binding
}

func defaultReaderKeys() ReaderKeys {
	return ReaderKeys{
		Read:       key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "read in full")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open frame")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/previous match")),
		Previous:   key.NewBinding(key.WithKeys("N")),
		Copy:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Save:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "save")),
		LastResult: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "back to the last result")),
		Linked:     key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "request ⇄ response")),
		Pair:       key.NewBinding(key.WithKeys("|"), key.WithHelp("|", "request | response side by side")),
		Done:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep the search")),
	}
}

// A reader shows one long thing whole: a call's result, a wire frame, a
// tool's detail. It takes the screen between the header and the footer,
// scrolls with the movement keys, searches with / (n and N go from match
// to match, each highlighted), copies with y what it holds, saves with o
// an image or audio it holds, and esc closes it. Its lines are drawn again
// at each width, wrapped, never cut.
type reader struct {
	e     *env
	title string
	// draw returns the lines read, styled and sanitized, not yet wrapped.
	draw func() []string
	// clip is what y copies; saves what o writes (saving.go).
	clip, clipName string
	saves          []saveable
	saveName       string
	// linked is the frame J opens: a request's response, a response's
	// request (wire.go); nil for none. self is the frame read, which |
	// shows beside it.
	linked, self *frameKey

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

func newReader(e *env, title string, draw func() []string) *reader {
	r := &reader{e: e, title: title, draw: draw, vp: viewport.New(), q: kit.NewQuery()}
	r.vp.SoftWrap = false
	r.vp.KeyMap = viewport.KeyMap{} // the reader maps mcplens's keys itself
	r.SetSize(e.c.width, max(3, e.c.height-3))
	return r
}

// SetSize draws the lines again at width, keeping the line read on top.
func (r *reader) SetSize(width, height int) {
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
		r.styled, r.plain, r.src = wrapLines(r.draw(), width)
		r.find()
		r.top, _ = slices.BinarySearch(r.src, at)
	}
	r.scrollTo(r.top)
}

// body is how many lines are in sight.
func (r *reader) body() int { return max(1, r.height-2) }

// scrollTo puts line top first in sight, within the lines.
func (r *reader) scrollTo(top int) {
	r.top = max(0, min(top, len(r.styled)-r.body()))
}

// wrapLines wraps every line to width, word by word where it can, and
// returns the lines with and without their styles, and the line each
// comes from.
func wrapLines(lines []string, width int) (styled, plain []string, src []int) {
	width = max(10, width)
	styled = make([]string, 0, len(lines))
	src = make([]int, 0, len(lines))
	for i, l := range lines {
		if textWidth(l) > width {
			wrapped := strings.Split(ansi.Wrap(l, width, ""), "\n")
			styled = append(styled, wrapped...)
			for range wrapped {
				src = append(src, i)
			}
		} else {
			styled = append(styled, l)
			src = append(src, i)
		}
	}
	plain = make([]string, len(styled))
	for i, l := range styled {
		plain[i] = l
		if strings.IndexByte(l, 0x1b) >= 0 {
			plain[i] = ansi.Strip(l)
		}
	}
	return styled, plain, src
}

// find looks for the query in every line, case-insensitively.
func (r *reader) find() {
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
func (r *reader) window() []string {
	end := min(len(r.styled), r.top+r.body())
	lines := append([]string(nil), r.styled[r.top:end]...)
	s := r.e.c.styles
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
func (r *reader) jump(i int) {
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
func (r *reader) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys, rk := r.e.c.keys, r.e.c.keys.Reader
	if r.q.Typing {
		cmd, changed := r.q.Key(k, keys.Cancel, keys.Reader.Done)
		if changed {
			r.at = 0
			r.find()
			r.jump(r.nearest())
		}
		return cmd
	}
	r.note = ""
	switch {
	case key.Matches(k, keys.Cancel):
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
	case key.Matches(k, rk.Copy) && r.clip != "":
		r.note = "copying " + r.clipName + "…"
		return copyText(r.e.c, r.clipName, r.clip)
	case key.Matches(k, rk.Linked) && r.linked != nil:
		link := *r.linked
		return func() tea.Msg { return readMsg{frame: &link} }
	case key.Matches(k, rk.Pair) && r.self != nil:
		self := *r.self
		return func() tea.Msg { return readMsg{frame: &self, pair: true} }
	case key.Matches(k, rk.Save) && len(r.saves) > 0:
		return saveItems(r.saveName, r.saves)
	default:
		r.scroll(k)
	}
	return nil
}

// nearest is the first match at or below the top line shown.
func (r *reader) nearest() int {
	for i, m := range r.matches {
		if m.line >= r.top {
			return i
		}
	}
	return 0
}

// scroll moves the lines shown on a movement key.
func (r *reader) scroll(k tea.KeyPressMsg) {
	last := max(0, len(r.styled)-r.body())
	if y, ok := moved(k, r.e.c.keys, r.top, last, max(1, r.body()-1)); ok {
		r.scrollTo(y)
	}
}

// View draws the title and where the reader is, the lines, and the search
// or the last note.
func (r *reader) View() string {
	c := r.e.c
	s := c.styles
	pos := fmt.Sprintf(" · lines %d–%d of %d", min(len(r.styled), r.top+1), min(len(r.styled), r.top+r.body()), len(r.styled))
	head := r.title + s.Muted.Render(pos)
	head = truncate(head, r.width, "…")
	head += " " + s.Muted.Render(strings.Repeat("─", max(0, r.width-textWidth(head)-1)))
	var foot string
	switch {
	case r.q.Typing:
		foot = r.q.Input.View()
	case r.q.Text != "" && len(r.matches) == 0:
		foot = s.WarnText.Render("/" + c.quote(r.q.Text) + ": no match")
	case r.q.Text != "":
		foot = s.Muted.Render(fmt.Sprintf("/%s: match %d of %d", c.quote(r.q.Text), r.at+1, len(r.matches)))
	}
	if r.note != "" && !r.q.Typing {
		// What a key just did (copied, saved) comes first, a kept search after.
		foot = strings.TrimSuffix(r.note+"  "+foot, "  ")
	}
	r.vp.SetContentLines(r.window())
	return joinLeft(head, r.vp.View(), truncate(foot, r.width, "…"))
}

// ShortHelp is the reader's keys: scrolling, searching, closing, then
// copying and saving. The footer keeps them first first (footer.go), so
// esc close outlasts the keys a narrow footer drops.
func (r *reader) ShortHelp() []key.Binding {
	k := r.e.c.keys
	if r.q.Typing {
		return []key.Binding{k.Reader.Done, k.Cancel}
	}
	keys := []key.Binding{k.Cancel, k.Down, k.Bottom, k.Reader.Search}
	if r.q.Text != "" {
		keys = append(keys, k.Reader.Next)
	}
	if r.clip != "" {
		keys = append(keys, k.Reader.Copy)
	}
	if len(r.saves) > 0 {
		keys = append(keys, k.Reader.Save)
	}
	if r.linked != nil {
		keys = append(keys, k.Reader.Linked)
	}
	if r.self != nil {
		keys = append(keys, k.Reader.Pair)
	}
	return keys
}

func (r *reader) FullHelp() [][]key.Binding {
	k := r.e.c.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Reader.Search, k.Reader.Next, k.Reader.Copy, k.Reader.Save, k.Reader.Linked, k.Reader.Pair, k.Cancel},
	}
}
