package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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
	// Linked jumps between a request and its response in the wire pane.
	Linked key.Binding
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
		Save:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "save to a file")),
		LastResult: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "last result")),
		Linked:     key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "request ⇄ response")),
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

	vp            viewport.Model
	width, height int
	styled, plain []string

	q       queryLine
	matches []readerMatch
	at      int
	note    string
	closed  bool
}

// A readerMatch is one place the search matched: a line, and its bytes in
// the line's plain text.
type readerMatch struct{ line, start, end int }

func newReader(e *env, title string, draw func() []string) *reader {
	r := &reader{e: e, title: title, draw: draw, vp: viewport.New(), q: newQueryLine()}
	r.vp.SoftWrap = false
	r.vp.KeyMap = viewport.KeyMap{} // the reader maps mcplens's keys itself
	r.SetSize(e.c.width, max(3, e.c.height-3))
	return r
}

// SetSize draws the lines again at width, keeping the top line read.
func (r *reader) SetSize(width, height int) {
	if width == r.width && height == r.height && r.styled != nil {
		return
	}
	resized := r.styled != nil
	top := r.vp.YOffset()
	r.width, r.height = width, height
	r.vp.SetWidth(width)
	r.vp.SetHeight(max(1, height-2))
	r.q.input.SetWidth(max(1, width-2))
	r.styled, r.plain = wrapLines(r.draw(), width)
	r.find()
	r.show()
	if resized {
		r.vp.SetYOffset(top)
	}
}

// wrapLines wraps every line to width, word by word where it can, and
// returns the lines with and without their styles.
func wrapLines(lines []string, width int) (styled, plain []string) {
	width = max(10, width)
	for _, l := range lines {
		if textWidth(l) > width {
			styled = append(styled, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
		} else {
			styled = append(styled, l)
		}
	}
	plain = make([]string, len(styled))
	for i, l := range styled {
		plain[i] = ansi.Strip(l)
	}
	return styled, plain
}

// find looks for the query in every line, case-insensitively.
func (r *reader) find() {
	r.matches = r.matches[:0]
	if r.q.query == "" {
		return
	}
	q := strings.ToLower(r.q.query)
	for i, l := range r.plain {
		low := strings.ToLower(l)
		if len(low) != len(l) {
			low, q = l, r.q.query // lower-casing moved bytes: match exactly
		}
		for off := 0; ; {
			j := strings.Index(low[off:], q)
			if j < 0 || len(q) == 0 {
				break
			}
			r.matches = append(r.matches, readerMatch{line: i, start: off + j, end: off + j + len(q)})
			off += j + len(q)
		}
		q = strings.ToLower(r.q.query)
	}
	r.at = min(r.at, max(0, len(r.matches)-1))
}

// show gives the viewport the lines, the matches highlighted.
func (r *reader) show() {
	if len(r.matches) == 0 {
		r.vp.SetContentLines(append([]string(nil), r.styled...))
		return
	}
	s := r.e.c.styles
	lines := append([]string(nil), r.styled...)
	byLine := map[int][]int{}
	for i, m := range r.matches {
		byLine[m.line] = append(byLine[m.line], i)
	}
	for line, ms := range byLine {
		p := r.plain[line]
		var sb strings.Builder
		last := 0
		for _, i := range ms {
			m := r.matches[i]
			sb.WriteString(p[last:m.start])
			style := s.Match
			if i == r.at {
				style = s.CurrentMatch
			}
			sb.WriteString(style.Render(p[m.start:m.end]))
			last = m.end
		}
		sb.WriteString(p[last:])
		lines[line] = sb.String()
	}
	top := r.vp.YOffset()
	r.vp.SetContentLines(lines)
	r.vp.SetYOffset(top)
}

// jump moves to match i and brings it into sight.
func (r *reader) jump(i int) {
	if len(r.matches) == 0 {
		return
	}
	r.at = (i + len(r.matches)) % len(r.matches)
	r.show()
	line := r.matches[r.at].line
	if line < r.vp.YOffset() || line >= r.vp.YOffset()+r.vp.Height() {
		r.vp.SetYOffset(max(0, line-r.vp.Height()/3))
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
	if r.q.typing {
		cmd, changed := r.q.key(k, keys)
		if changed {
			r.at = 0
			r.find()
			r.jump(r.nearest())
			r.show()
		}
		return cmd
	}
	r.note = ""
	switch {
	case key.Matches(k, keys.Cancel):
		if r.q.query != "" {
			r.q.query = ""
			r.find()
			r.show()
		} else {
			r.closed = true
		}
	case key.Matches(k, rk.Search):
		return r.q.start()
	case key.Matches(k, rk.Next):
		r.jump(r.at + 1)
	case key.Matches(k, rk.Previous):
		r.jump(r.at - 1)
	case key.Matches(k, rk.Copy) && r.clip != "":
		r.note = "copying " + r.clipName + "…"
		return copyText(r.e.c, r.clipName, r.clip)
	case key.Matches(k, rk.Save) && len(r.saves) > 0:
		return saveBytes(r.saveName, r.saves[0])
	default:
		r.scroll(k)
	}
	return nil
}

// nearest is the first match at or below the top line shown.
func (r *reader) nearest() int {
	for i, m := range r.matches {
		if m.line >= r.vp.YOffset() {
			return i
		}
	}
	return 0
}

// scroll moves the lines shown on a movement key.
func (r *reader) scroll(k tea.KeyPressMsg) {
	last := max(0, len(r.styled)-r.vp.Height())
	if y, ok := moved(k, r.e.c.keys, r.vp.YOffset(), last, max(1, r.vp.Height()-1)); ok {
		r.vp.SetYOffset(y)
	}
}

// View draws the title and where the reader is, the lines, and the search
// or the last note.
func (r *reader) View() string {
	c := r.e.c
	s := c.styles
	pos := fmt.Sprintf(" · lines %d–%d of %d", min(len(r.styled), r.vp.YOffset()+1), min(len(r.styled), r.vp.YOffset()+r.vp.Height()), len(r.styled))
	head := r.title + s.Muted.Render(pos)
	head = truncate(head, r.width, "…")
	head += " " + s.Muted.Render(strings.Repeat("─", max(0, r.width-textWidth(head)-1)))
	var foot string
	switch {
	case r.q.typing:
		foot = r.q.input.View()
	case r.q.query != "" && len(r.matches) == 0:
		foot = s.WarnText.Render("/" + c.quote(r.q.query) + ": no match")
	case r.q.query != "":
		foot = s.Muted.Render(fmt.Sprintf("/%s: match %d of %d", c.quote(r.q.query), r.at+1, len(r.matches)))
	case r.note != "":
		foot = r.note
	}
	return joinLeft(head, r.vp.View(), truncate(foot, r.width, "…"))
}

// ShortHelp is the reader's keys: scrolling, searching, copying, saving.
func (r *reader) ShortHelp() []key.Binding {
	k := r.e.c.keys
	if r.q.typing {
		return []key.Binding{k.Reader.Done, k.Cancel}
	}
	keys := []key.Binding{k.Down, k.Bottom, k.Reader.Search}
	if r.q.query != "" {
		keys = append(keys, k.Reader.Next)
	}
	if r.clip != "" {
		keys = append(keys, k.Reader.Copy)
	}
	if len(r.saves) > 0 {
		keys = append(keys, k.Reader.Save)
	}
	return append(keys, k.Cancel)
}

func (r *reader) FullHelp() [][]key.Binding {
	k := r.e.c.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Reader.Search, k.Reader.Next, k.Reader.Copy, k.Reader.Save, k.Cancel},
	}
}

// A queryLine is the line a search or a filter is typed on.
type queryLine struct {
	input  textinput.Model
	typing bool
	query  string
}

func newQueryLine() queryLine {
	in := textinput.New()
	in.Prompt = "/"
	return queryLine{input: in}
}

// start begins typing, from the query kept.
func (q *queryLine) start() tea.Cmd {
	q.typing = true
	q.input.SetValue(q.query)
	return q.input.Focus()
}

// key takes a key while typing: esc drops the query, enter keeps it, any
// other edits it. changed reports whether the query changed.
func (q *queryLine) key(k tea.KeyPressMsg, keys KeyMap) (cmd tea.Cmd, changed bool) {
	switch {
	case key.Matches(k, keys.Cancel):
		q.typing = false
		q.input.Blur()
		changed, q.query = q.query != "", ""
	case key.Matches(k, keys.Reader.Done):
		q.typing = false
		q.input.Blur()
	default:
		q.input, cmd = q.input.Update(k)
		changed, q.query = q.query != q.input.Value(), q.input.Value()
	}
	return cmd, changed
}
