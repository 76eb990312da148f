package wire

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

// A Model is the wire pane: the frames that crossed the wire, for every
// server or for one, newest last, one a line with its method, id, size and
// latency. A cursor selects one: enter reads it whole, y copies it, J
// jumps between a request and its response. / filters the frames by
// method, tool name or text. The cursor follows the newest frame until it
// is moved up, and again once moved back to the last.
type Model struct {
	c             Config
	width, height int
	frames        map[string][]mcpsession.Frame
	// only is the index of the server shown, or -1 for all of them.
	only int
	// shown is the frames of the servers shown, merged in time order when
	// they change rather than on every frame drawn, and meta what each
	// says (wiremeta.go); rows indexes those that pass the filter.
	shown []mcpsession.Frame
	meta  []frameMeta
	rows  []int
	metas metaCache

	sc kit.Scroller
	// back is set while the cursor is off the newest frame.
	back bool

	// q filters the frames.
	q kit.Query
}

// New returns the wire pane, its frames read from c.Source.
func New(c Config) Model {
	return Model{c: c, frames: map[string][]mcpsession.Frame{}, only: -1, q: kit.NewQuery(), metas: metaCache{}}
}

func (w *Model) SetSize(width, height int) {
	w.width, w.height = width, height
	w.q.Input.SetWidth(max(1, width-2))
}

// Refresh takes a fresh snapshot of the servers' frames, and merges the
// frames shown once for all of them.
func (w *Model) Refresh(servers ...string) {
	changed := false
	for _, server := range servers {
		if frames, ok := w.c.Source.Frames(server); ok {
			w.frames[server] = frames
			changed = true
		}
	}
	if changed {
		w.merge()
	}
}

// merge orders the frames shown, reads them, and filters them.
func (w *Model) merge() {
	var at Key
	if w.back && w.sc.Cursor < len(w.rows) {
		at = keyOf(w.shown[w.rows[w.sc.Cursor]])
	}
	w.shown = w.merged()
	w.meta = w.metas.read(w.shown)
	w.applyFilter()
	if w.back {
		for i, r := range w.rows {
			if keyOf(w.shown[r]) == at {
				w.sc.Cursor = i
			}
		}
	}
}

// applyFilter keeps the frames the query matches (method, tool or text,
// case-insensitive), all of them when there is none.
func (w *Model) applyFilter() {
	w.rows = w.rows[:0]
	q := strings.ToLower(w.q.Text)
	for i, f := range w.shown {
		if q == "" || strings.Contains(strings.ToLower(w.meta[i].method+" "+w.meta[i].tool), q) ||
			strings.Contains(strings.ToLower(string(f.Bytes)), q) {
			w.rows = append(w.rows, i)
		}
	}
	if !w.back || w.sc.Cursor >= len(w.rows) {
		w.sc.Cursor = max(0, len(w.rows)-1)
		w.back = false
	}
}

// Takes reports whether msg is a key of the pane.
func (w *Model) Takes(msg tea.KeyPressMsg) bool {
	k := w.c.Keys
	_, move := kit.Moved(msg, k.Nav, 0, 0, 1)
	return w.q.Typing || move || key.Matches(msg, k.Server, k.Open, k.Search, k.Linked, k.Copy) ||
		w.q.Text != "" && key.Matches(msg, k.Cancel)
}

// Typing reports whether the filter is being typed: every key goes to it.
func (w *Model) Typing() bool { return w.q.Typing }

// Update moves the cursor, changes the server shown, filters, or opens,
// copies or links the frame selected.
func (w *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := w.c.Keys
	if w.q.Typing {
		cmd, changed := w.q.Key(k, keys.Cancel, keys.Done)
		if changed {
			w.back = false
			w.applyFilter()
		}
		return cmd
	}
	switch {
	case key.Matches(k, keys.Server):
		w.only++
		if w.only >= len(w.c.Source.Labels()) {
			w.only = -1
		}
		w.back = false
		w.merge()
	case key.Matches(k, keys.Cancel):
		w.q.Text, w.back = "", false
		w.applyFilter()
	case key.Matches(k, keys.Search):
		return w.q.Start()
	case len(w.rows) == 0:
	case key.Matches(k, keys.Open):
		return w.c.Open(w.frameReader(w.rows[w.sc.Cursor]))
	case key.Matches(k, keys.Copy):
		f := w.shown[w.rows[w.sc.Cursor]]
		return w.c.Copy("the frame", string(f.Bytes))
	case key.Matches(k, keys.Linked):
		if l := w.meta[w.rows[w.sc.Cursor]].link; l >= 0 {
			w.selectFrame(l)
		}
	default:
		w.sc.Move(k, keys.Nav, len(w.rows), w.body())
		w.back = w.sc.Cursor < len(w.rows)-1
	}
	return nil
}

// selectFrame puts the cursor on frame i of shown, clearing the filter if it
// hides the frame.
func (w *Model) selectFrame(i int) {
	for j, r := range w.rows {
		if r == i {
			w.sc.Cursor, w.back = j, j < len(w.rows)-1
			return
		}
	}
	w.q.Text = ""
	w.back = true
	w.applyFilter()
	w.sc.Cursor, w.back = i, i < len(w.rows)-1
}

// body is how many frames the pane shows at once.
func (w *Model) body() int { return max(1, w.height-2) }

func (w *Model) ShortHelp() []key.Binding {
	k := w.c.Keys
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Open, k.Search, k.Linked, k.Copy, k.Server, k.Toggle}
}

func (w *Model) FullHelp() [][]key.Binding {
	k := w.c.Keys
	n := k.Nav
	return append([][]key.Binding{
		{n.Up, n.Down, n.PageUp, n.PageDown, n.Top, n.Bottom},
		{k.Open, k.Search, k.Linked, k.Copy, k.Server, k.Toggle, k.Cancel},
	}, k.More...)
}

// merged returns the frames shown, in time order.
func (w *Model) merged() []mcpsession.Frame {
	if w.only >= 0 {
		return w.frames[w.c.Source.Labels()[w.only]]
	}
	return kit.ByTime(w.c.Source.Labels(), w.frames, func(f mcpsession.Frame) time.Time { return f.At })
}

func (w *Model) View() string {
	s := w.c.Styles()
	body := w.body()
	w.sc.Show(w.sc.Cursor, len(w.rows), body)
	start, end := w.sc.Offset, min(len(w.rows), w.sc.Offset+body)
	scope := "all servers"
	if w.only >= 0 {
		scope = w.c.Source.Labels()[w.only]
	}
	count := strconv.Itoa(len(w.shown)) + " frames"
	if w.q.Text != "" {
		count = fmt.Sprintf("%d of %d frames match /%s", len(w.rows), len(w.shown), w.quote(w.q.Text))
	}
	title := s.Title.Render("WIRE") + s.Muted.Render(" "+model.Sanitize(scope)+" · "+count)
	lines := []string{title + " " + s.Muted.Render(strings.Repeat("─", max(0, w.width-kit.Width(title)-1)))}
	for i := start; i < end; i++ {
		n := w.rows[i]
		lines = append(lines, kit.Truncate(w.frameLine(w.shown[n], w.meta[n], i == w.sc.Cursor), w.width, "…"))
	}
	for len(lines) < w.height-1 {
		lines = append(lines, "")
	}
	if w.q.Typing {
		lines = append(lines, w.q.Input.View())
	} else {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(1, w.height)], "\n")
}

// frameLine is one frame: what it is (method, id, size, latency), then
// time, server, direction and the bytes, escaped.
func (w *Model) frameLine(f mcpsession.Frame, m frameMeta, selected bool) string {
	s := w.c.Styles()
	mark := "  "
	if selected {
		mark = s.Selected.Render("▸") + " "
	}
	method := m.method
	if m.tool != "" {
		method += " " + m.tool
	}
	if m.round > 1 { // a multi-round request (meta.go)
		method += fmt.Sprintf(" round %d", m.round)
	}
	latency := ""
	if m.latency > 0 {
		latency = fmt.Sprintf("%.1f ms", float64(m.latency.Microseconds())/1000)
	}
	// Below 120 columns the bytes keep room: method and id only, narrower.
	info := fmt.Sprintf("%s %s ", column(w.quote(method), 16), column(w.quote(m.id), 6))
	if w.width >= 120 {
		info = fmt.Sprintf("%s %s %9s %9s ", column(w.quote(method), 24), column(w.quote(m.id), 8), kit.Size(int64(f.Size)), latency)
	}
	if selected {
		info = s.Selected.Render(info)
	} else {
		info = s.Muted.Render(info)
	}
	return mark + info + w.bytesLine(f)
}

// column cuts s to n cells, marking the cut, or pads it to n.
func column(s string, n int) string { return kit.Cell(s, n) }

// bytesLine is one frame: time, server, direction and the bytes, escaped.
func (w *Model) bytesLine(f mcpsession.Frame) string {
	s := w.c.Styles()
	// Only what fits on a line is escaped: a frame can be megabytes.
	text := w.quote(kit.Cut(w.c.Redact, f.Bytes, 4*w.width))
	head := f.At.Format("15:04:05.000") + " " + model.Sanitize(f.Server)
	if f.App != "" { // an MCP App's frame (apphost): the app named
		head += " app " + model.Sanitize(f.App)
	}
	switch {
	case f.Junk:
		return s.Muted.Render(head) + s.Junk.Render(" ~ junk "+text)
	case f.Dir == mcpsession.Out:
		return s.Muted.Render(head) + s.Out.Render(" → ") + text
	case f.Problem != "":
		return s.Muted.Render(head) + s.In.Render(" ← ") + s.Warn.Render("! "+kit.Text(w.c.Redact, f.Problem)+": ") + text
	}
	return s.Muted.Render(head) + s.In.Render(" ← ") + text
}

// quote is server text as the pane shows it: masked, then sanitized.
func (w *Model) quote(s string) string { return kit.Quote(w.c.Redact, s) }
