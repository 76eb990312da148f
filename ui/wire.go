package ui

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// A wireView is the wire pane: the frames that crossed the wire, for every
// server or for one, newest last. It follows the newest frames until it is
// scrolled up, and again once scrolled back to the end.
type wireView struct {
	e             *env
	width, height int
	labels        []string
	frames        map[string][]loader.Frame
	// only is the index of the server shown, or -1 for all of them.
	only int
	follow
	// shown is the frames in view, merged in time order when they change
	// rather than on every frame drawn.
	shown []loader.Frame
}

func newWireView(e *env, specs []config.ServerSpec) wireView {
	w := wireView{e: e, frames: make(map[string][]loader.Frame, len(specs)), only: -1}
	for _, s := range specs {
		w.labels = append(w.labels, s.Label)
	}
	return w
}

func (w *wireView) SetSize(width, height int) { w.width, w.height = width, height }

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
		w.shown = w.merged()
	}
}

// takes reports whether msg is a key of the pane.
func (w *wireView) takes(msg tea.KeyPressMsg) bool {
	return isMove(msg, w.e.c.keys) || key.Matches(msg, w.e.c.keys.WireServer)
}

// Update scrolls the pane or changes the server shown.
func (w *wireView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, w.e.c.keys.WireServer) {
		w.only++
		if w.only >= len(w.labels) {
			w.only = -1
		}
		w.back = false
		w.shown = w.merged()
		return nil
	}
	w.scroll(k, w.e.c.keys, len(w.shown), w.height-1)
	return nil
}

func (w *wireView) ShortHelp() []key.Binding {
	k := w.e.c.keys
	return []key.Binding{k.Up, k.Down, k.WireServer, k.Wire, k.Policy, k.Client}
}

func (w *wireView) FullHelp() [][]key.Binding {
	k := w.e.c.keys
	return tailHelp(k, k.WireServer, k.Wire)
}

// merged returns the frames shown, in time order.
func (w *wireView) merged() []loader.Frame {
	if w.only >= 0 {
		return w.frames[w.labels[w.only]]
	}
	return byTime(w.labels, w.frames, func(f loader.Frame) time.Time { return f.At })
}

func (w *wireView) View() string {
	c := w.e.c
	s := c.styles
	frames := w.shown
	start, end := w.window(len(frames), w.height-1)
	scope := "all servers"
	if w.only >= 0 {
		scope = w.labels[w.only]
	}
	title := s.PaneTitle.Render("WIRE") + s.Muted.Render(" "+model.Sanitize(scope)+" · "+strconv.Itoa(len(frames))+" frames")
	return tailView(c, title, w.height, frames[start:end], frameLine)
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
