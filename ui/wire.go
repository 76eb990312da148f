package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// A wireView is the wire pane: the frames that crossed the wire, for every
// server or for one, newest last, one a line with its method, id, size and
// latency. A cursor selects one: enter reads it whole, y copies it, J
// jumps between a request and its response. / filters the frames by
// method, tool name or text. The cursor follows the newest frame until it
// is moved up, and again once moved back to the last.
type wireView struct {
	e             *env
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

	sc scroller
	// back is set while the cursor is off the newest frame.
	back bool

	// q filters the frames (reader.go).
	q queryLine
}

func newWireView(e *env) wireView {
	return wireView{e: e, frames: map[string][]mcpsession.Frame{}, only: -1, q: newQueryLine(), metas: metaCache{}}
}

func (w *wireView) SetSize(width, height int) {
	w.width, w.height = width, height
	w.q.input.SetWidth(max(1, width-2))
}

// refresh takes a fresh snapshot of the servers' frames, and merges the
// frames shown once for all of them.
func (w *wireView) refresh(servers ...string) {
	changed := false
	for _, server := range servers {
		if wire := w.e.backend.FrameLog(server); wire != nil {
			w.frames[server] = wire.Frames()
			changed = true
		}
	}
	if changed {
		w.merge()
	}
}

// merge orders the frames shown, reads them, and filters them.
func (w *wireView) merge() {
	var at frameKey
	if w.back && w.sc.cursor < len(w.rows) {
		at = keyOf(w.shown[w.rows[w.sc.cursor]])
	}
	w.shown = w.merged()
	w.meta = w.metas.read(w.shown)
	w.applyFilter()
	if w.back {
		for i, r := range w.rows {
			if keyOf(w.shown[r]) == at {
				w.sc.cursor = i
			}
		}
	}
}

// applyFilter keeps the frames the query matches (method, tool or text,
// case-insensitive), all of them when there is none.
func (w *wireView) applyFilter() {
	w.rows = w.rows[:0]
	q := strings.ToLower(w.q.query)
	for i, f := range w.shown {
		if q == "" || strings.Contains(strings.ToLower(w.meta[i].method+" "+w.meta[i].tool), q) ||
			strings.Contains(strings.ToLower(string(f.Bytes)), q) {
			w.rows = append(w.rows, i)
		}
	}
	if !w.back || w.sc.cursor >= len(w.rows) {
		w.sc.cursor = max(0, len(w.rows)-1)
		w.back = false
	}
}

// takes reports whether msg is a key of the pane.
func (w *wireView) takes(msg tea.KeyPressMsg) bool {
	k := w.e.c.keys
	return w.q.typing || isMove(msg, k) || key.Matches(msg, k.WireServer, k.Reader.Open, k.Reader.Search, k.Reader.Linked, k.Reader.Copy) ||
		w.q.query != "" && key.Matches(msg, k.Cancel)
}

// Update moves the cursor, changes the server shown, filters, or opens,
// copies or links the frame selected.
func (w *wireView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys, rk := w.e.c.keys, w.e.c.keys.Reader
	if w.q.typing {
		cmd, changed := w.q.key(k, keys)
		if changed {
			w.back = false
			w.applyFilter()
		}
		return cmd
	}
	switch {
	case key.Matches(k, keys.WireServer):
		w.only++
		if w.only >= len(w.e.surface.snap.Servers) {
			w.only = -1
		}
		w.back = false
		w.merge()
	case key.Matches(k, keys.Cancel):
		w.q.query, w.back = "", false
		w.applyFilter()
	case key.Matches(k, rk.Search):
		return w.q.start()
	case len(w.rows) == 0:
	case key.Matches(k, rk.Open):
		r := w.frameReader(w.rows[w.sc.cursor])
		return func() tea.Msg { return readMsg{r: r} }
	case key.Matches(k, rk.Copy):
		f := w.shown[w.rows[w.sc.cursor]]
		return copyText(w.e.c, "the frame", string(f.Bytes))
	case key.Matches(k, rk.Linked):
		if l := w.meta[w.rows[w.sc.cursor]].link; l >= 0 {
			w.selectFrame(l)
		}
	default:
		w.sc.move(k, keys, len(w.rows), w.body())
		w.back = w.sc.cursor < len(w.rows)-1
	}
	return nil
}

// selectFrame puts the cursor on frame i of shown, clearing the filter if it
// hides the frame.
func (w *wireView) selectFrame(i int) {
	for j, r := range w.rows {
		if r == i {
			w.sc.cursor, w.back = j, j < len(w.rows)-1
			return
		}
	}
	w.q.query = ""
	w.back = true
	w.applyFilter()
	w.sc.cursor, w.back = i, i < len(w.rows)-1
}

// body is how many frames the pane shows at once.
func (w *wireView) body() int { return max(1, w.height-2) }

// readMsg opens the reader on something a component built, or on the
// frame of the wire pane named by frame.
type readMsg struct {
	r     *reader
	frame *frameKey
	// pair opens frame beside the frame it links to (wirepair.go).
	pair bool
}

func (w *wireView) ShortHelp() []key.Binding {
	k := w.e.c.keys
	return []key.Binding{k.Up, k.Down, k.Reader.Open, k.Reader.Search, k.Reader.Linked, k.Reader.Copy, k.WireServer, k.Wire}
}

func (w *wireView) FullHelp() [][]key.Binding {
	k := w.e.c.keys
	return tailHelp(k, k.Reader.Open, k.Reader.Search, k.Reader.Linked, k.Reader.Copy, k.WireServer, k.Wire)
}

// merged returns the frames shown, in time order.
func (w *wireView) merged() []mcpsession.Frame {
	if w.only >= 0 {
		return w.frames[w.e.surface.label(w.only)]
	}
	return byTime(w.e.surface.labels(), w.frames, func(f mcpsession.Frame) time.Time { return f.At })
}

func (w *wireView) View() string {
	c := w.e.c
	s := c.styles
	body := w.body()
	w.sc.show(w.sc.cursor, len(w.rows), body)
	start, end := w.sc.offset, min(len(w.rows), w.sc.offset+body)
	scope := "all servers"
	if w.only >= 0 {
		scope = w.e.surface.label(w.only)
	}
	count := strconv.Itoa(len(w.shown)) + " frames"
	if w.q.query != "" {
		count = fmt.Sprintf("%d of %d frames match /%s", len(w.rows), len(w.shown), c.quote(w.q.query))
	}
	title := s.PaneTitle.Render("WIRE") + s.Muted.Render(" "+model.Sanitize(scope)+" · "+count)
	lines := []string{title + " " + s.Muted.Render(strings.Repeat("─", max(0, c.width-textWidth(title)-1)))}
	for i := start; i < end; i++ {
		n := w.rows[i]
		lines = append(lines, truncate(w.frameLine(w.shown[n], w.meta[n], i == w.sc.cursor), c.width, "…"))
	}
	for len(lines) < w.height-1 {
		lines = append(lines, "")
	}
	if w.q.typing {
		lines = append(lines, w.q.input.View())
	} else {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(1, w.height)], "\n")
}

// frameLine is one frame: what it is (method, id, size, latency), then
// time, server, direction and the bytes, escaped.
func (w *wireView) frameLine(f mcpsession.Frame, m frameMeta, selected bool) string {
	c := w.e.c
	s := c.styles
	mark := "  "
	if selected {
		mark = s.Selected.Render("▸") + " "
	}
	method := m.method
	if m.tool != "" {
		method += " " + m.tool
	}
	latency := ""
	if m.latency > 0 {
		latency = fmt.Sprintf("%.1f ms", float64(m.latency.Microseconds())/1000)
	}
	// Below 120 columns the bytes keep room: method and id only, narrower.
	info := fmt.Sprintf("%s %s ", column(c.quote(method), 16), column(c.quote(m.id), 6))
	if c.width >= 120 {
		info = fmt.Sprintf("%s %s %9s %9s ", column(c.quote(method), 24), column(c.quote(m.id), 8), humanSize(int64(f.Size)), latency)
	}
	if selected {
		info = s.Selected.Render(info)
	} else {
		info = s.Muted.Render(info)
	}
	return mark + info + frameLine(c, f)
}

// column cuts s to n cells, marking the cut, or pads it to n.
func column(s string, n int) string {
	s = truncate(s, n, "…")
	return s + strings.Repeat(" ", max(0, n-textWidth(s)))
}

// frameLine is one frame: time, server, direction and the bytes, escaped.
func frameLine(c common, f mcpsession.Frame) string {
	s := c.styles
	// Only what fits on a line is escaped: a frame can be megabytes.
	text := c.quote(cut(c, f.Bytes, 4*c.width))
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
		return s.Muted.Render(head) + s.In.Render(" ← ") + s.WarnText.Render("! "+c.text(f.Problem)+": ") + text
	}
	return s.Muted.Render(head) + s.In.Render(" ← ") + text
}
