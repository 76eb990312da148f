package ui

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// A wireView lists the frames that crossed the wire, for every server or
// for one, newest last.
type wireView struct {
	labels []string
	frames map[string][]loader.Frame
	// only is the index of the server shown, or -1 for all of them.
	only int
	// back is how many lines the view is scrolled up from the newest.
	back int
	// shown is the frames in view, merged in time order when they change
	// rather than on every frame drawn.
	shown []loader.Frame
}

func newWireView(specs []config.ServerSpec) wireView {
	w := wireView{frames: make(map[string][]loader.Frame, len(specs)), only: -1}
	for _, s := range specs {
		w.labels = append(w.labels, s.Label)
	}
	return w
}

// refresh takes a fresh snapshot of the servers' frames, and merges the
// frames shown once for all of them.
func (w *wireView) refresh(b Backend, servers ...string) {
	changed := false
	for _, server := range servers {
		if wire := b.FrameLog(server); wire != nil {
			w.frames[server] = wire.Frames()
			changed = true
		}
	}
	if changed {
		w.shown = w.merged()
	}
}

func (w *wireView) refreshAll(b Backend) {
	w.refresh(b, w.labels...)
}

// handleKey scrolls or filters the pane, reporting whether it used the key.
func (w *wireView) handleKey(msg tea.KeyPressMsg, k KeyMap) bool {
	switch {
	case key.Matches(msg, k.Up):
		w.back++
	case key.Matches(msg, k.Down):
		w.back = max(0, w.back-1)
	case key.Matches(msg, k.PageUp):
		w.back += 10
	case key.Matches(msg, k.PageDown):
		w.back = max(0, w.back-10)
	case key.Matches(msg, k.Top):
		w.back = 1 << 30
	case key.Matches(msg, k.Bottom):
		w.back = 0
	case key.Matches(msg, k.WireServer):
		w.only++
		if w.only >= len(w.labels) {
			w.only = -1
		}
		w.back = 0
		w.shown = w.merged()
	default:
		return false
	}
	return true
}

// merged returns the frames shown, in time order.
func (w wireView) merged() []loader.Frame {
	if w.only >= 0 {
		return w.frames[w.labels[w.only]]
	}
	// One stable sort of every server's frames, servers in order: merging
	// them pairwise cost servers × frames on every refresh.
	n := 0
	for _, l := range w.labels {
		n += len(w.frames[l])
	}
	all := make([]loader.Frame, 0, n)
	for _, l := range w.labels {
		all = append(all, w.frames[l]...)
	}
	slices.SortStableFunc(all, func(a, b loader.Frame) int { return a.At.Compare(b.At) })
	return all
}

func (w *wireView) view(c common, height int) string {
	s := c.styles
	frames := w.shown
	body := height - 1
	w.back = min(w.back, max(0, len(frames)-body))
	end := len(frames) - w.back
	start := max(0, end-body)
	scope := "all servers"
	if w.only >= 0 {
		scope = w.labels[w.only]
	}
	title := s.PaneTitle.Render("WIRE") + s.Muted.Render(" "+model.Sanitize(scope)+" · "+strconv.Itoa(len(frames))+" frames")
	lines := []string{title + " " + s.Muted.Render(strings.Repeat("─", max(0, c.width-textWidth(title)-1)))}
	for _, f := range frames[start:end] {
		lines = append(lines, truncate(frameLine(c, f), c.width, "…"))
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// frameLine is one frame: time, server, direction and the bytes, escaped.
func frameLine(c common, f loader.Frame) string {
	s := c.styles
	// Only what fits on a line is escaped: a frame can be megabytes.
	text := c.quote(cut(c, f.Bytes, 4*c.width))
	head := f.At.Format("15:04:05.000") + " " + model.Sanitize(f.Server)
	switch {
	case f.Junk:
		return s.Muted.Render(head) + s.Junk.Render(" ~ junk "+text)
	case f.Dir == loader.Out:
		return s.Muted.Render(head) + s.Out.Render(" → ") + text
	case f.Problem != "":
		return s.Muted.Render(head) + s.In.Render(" ← ") + s.WarnText.Render("! "+c.text(f.Problem)+": ") + text
	}
	return s.Muted.Render(head) + s.In.Render(" ← ") + text
}
