package ui

import (
	"fmt"
	"time"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"

	"github.com/mcplens/mcplens/ui/kit"
)

// A callView is one call's result as the reader shows it: first whether it
// failed (isError, an error, a cancel), then where it went, what its
// structuredContent breaks of the tool's outputSchema, the content
// rendered for reading, the structuredContent pretty-printed, and last the
// exact request and response frames. The result pane shows its start; e
// reads it whole.
type callView struct {
	msg callDoneMsg
	at  time.Time
	// findings are the result's output-schema findings (surface).
	findings []surface.Finding
	// drawn caches the lines and saves for the styles drawn with, and
	// the lines wrapped to the width last drawn at.
	drawn struct {
		paint   *painters
		lines   []string
		saves   []saveable
		width   int
		wrapped []string
	}
}

// newCallView keeps a call's result and checks its structuredContent
// against the outputSchema of the tool that answered.
func (m *Model) newCallView(msg callDoneMsg) *callView {
	v := &callView{msg: msg, at: time.Now()}
	if si, ok := m.live.snap.Index(msg.route.Server); ok && msg.err == nil && len(msg.result.Result) > 0 {
		if t, ok := m.live.toolAt(ref{server: si, row: msg.route.Index}); ok {
			v.findings = surface.OutputFindings(msg.route.Server, t, msg.result.Result, m.c.redact)
		}
	}
	return v
}

// lines draws the whole result, unwrapped, and the items o can save.
func (v *callView) lines(c common) ([]string, []saveable) {
	if p := c.styles.painters(); v.drawn.lines == nil || v.drawn.paint != p {
		v.drawn.paint, v.drawn.wrapped = p, nil
		v.drawn.lines, v.drawn.saves = v.draw(c)
	}
	return v.drawn.lines, v.drawn.saves
}

func (v *callView) draw(c common) ([]string, []saveable) {
	s := c.styles
	san := model.Sanitize
	r := v.msg.result
	var lines []string
	switch {
	case cancelledCall(v.msg.err) && r.Task != nil && r.Task.Cancelled:
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("cancelled after %.1f s: the server was sent tasks/cancel for task %s",
			r.Latency.Seconds(), c.text(r.Task.ID))))
	case cancelledCall(v.msg.err):
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("cancelled after %.1f s: the server was sent notifications/cancelled",
			r.Latency.Seconds())))
	case v.msg.err != nil:
		lines = append(lines, s.ErrorText.Render("error: "+c.text(v.msg.err.Error())))
	case r.IsError:
		lines = append(lines, s.ErrorText.Render("✗ the tool reported an error (isError)"))
	}
	lines = append(lines, fmt.Sprintf("%s %s → route %s / %s   %s",
		s.Muted.Render("registry:"), s.RenamedText.Render(san(v.msg.route.Name)),
		san(v.msg.route.Server), s.In.Render(san(v.msg.route.Wire)),
		s.Muted.Render(fmt.Sprintf("%.1f ms · policy %s", float64(r.Latency.Microseconds())/1000, v.msg.policy))))
	if v.msg.route.Server != v.msg.row.Server || v.msg.route.Index != v.msg.row.Index {
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("invoked from %s's %s, which is unreachable: the call went to %s",
			san(v.msg.row.Server), san(v.msg.row.Wire), san(v.msg.route.Server))))
	}
	for _, f := range v.findings {
		lines = append(lines, s.WarnText.Render("! "+c.text(f.Evidence)))
	}
	var saves []saveable
	if len(r.Result) > 0 {
		content, items := c.resultContent(r.Result)
		saves = items
		lines = append(lines, "")
		lines = append(lines, content...)
		if sc := jsonx.MemberFold(r.Result, "structuredContent"); sc != nil && string(sc) != "null" {
			lines = append(lines, "", s.Section.Render("structuredContent"))
			lines = append(lines, c.jsonLines(sc)...)
		}
	}
	lines = append(lines, "", s.Section.Render("wire")+s.Muted.Render(" (the exact bytes)"))
	if len(r.Request) > 0 {
		lines = append(lines, s.Out.Render(san(r.Server)+" → ")+c.frameText(r.Request))
	}
	if len(r.Response) > 0 {
		lines = append(lines, s.In.Render(san(r.Server)+" ← ")+c.frameText(r.Response))
		if mark := r.CutMark(v.msg.err); mark != "" {
			lines = append(lines, s.WarnText.Render(mark))
		}
	}
	return lines, saves
}

// maxFrameText bounds the bytes of a frame the result shows: the content
// above reads the rest, y copies it whole, the wire pane holds the frame.
const maxFrameText = 16 << 10

// frameText is a frame's bytes, escaped, at most maxFrameText of them.
func (c common) frameText(b []byte) string {
	if len(b) <= maxFrameText {
		return c.quote(string(b))
	}
	return c.quote(cut(c, b, maxFrameText)) + c.styles.Muted.Render(fmt.Sprintf(" … [%s more: the content above reads them]", humanSize(int64(len(b)-maxFrameText))))
}

// view draws the start of the result in the bottom pane, and how to read
// the rest.
func (v *callView) view(c common, height int, box func(string, []string, int) string) string {
	lines, _ := v.lines(c)
	if v.drawn.wrapped == nil || v.drawn.width != c.width {
		v.drawn.wrapped, _, _ = kit.Wrap(lines, c.width)
		v.drawn.width = c.width
	}
	wrapped := v.drawn.wrapped
	if body := height - 1; len(wrapped) > body && body > 0 {
		more := len(wrapped) - body + 1
		wrapped = append(wrapped[:body-1:body-1], c.styles.Muted.Render(fmt.Sprintf("… %d more lines: %s reads the whole result",
			more, c.keys.Reader.Read.Help().Key)))
	}
	return box(c.styles.PaneTitle.Render("CALL"), wrapped, height)
}

// reader opens the result in the reader.
func (v *callView) reader(e *env) *readerView {
	title := e.c.styles.PaneTitle.Render("RESULT") + " " + e.c.styles.RenamedText.Render(model.Sanitize(v.msg.route.Name))
	r := newReader(e, title, func() []string {
		l, _ := v.lines(e.c)
		return l
	})
	_, saves := v.lines(e.c)
	saveWith(r, v.msg.route.Wire, saves)
	r.ClipName, r.Clip = v.clip()
	return r
}

// clip is what y copies of the result: the result object as sent, or the
// response when there is none.
func (v *callView) clip() (name, text string) {
	if len(v.msg.result.Result) > 0 {
		return "the result", string(v.msg.result.Result)
	}
	return "the response", string(v.msg.result.Response)
}

// summary is one line on the result: when, how it ended, how long it took.
func (v *callView) summary(c common) string {
	s := c.styles
	state := s.OKText.Render("ok")
	switch {
	case cancelledCall(v.msg.err):
		state = s.WarnText.Render("cancelled")
	case v.msg.err != nil:
		state = s.ErrorText.Render("error")
	case v.msg.result.IsError:
		state = s.ErrorText.Render("isError")
	case len(v.findings) > 0:
		state = s.WarnText.Render("breaks its outputSchema")
	}
	return fmt.Sprintf("%s %s · %.1f ms · %s", s.Muted.Render("last result:"), state,
		float64(v.msg.result.Latency.Microseconds())/1000, v.at.Format("15:04:05"))
}

// lastResults keeps the last result of each row invoked, so that leaving
// a result never loses it: b shows it again.
type lastResults map[ref]*callView

// keepResult makes a call's result the one shown, and the last result of
// the row it was invoked from.
func (m *Model) keepResult(msg callDoneMsg) *callView {
	v := m.newCallView(msg)
	m.remember(v)
	return v
}

// remember keeps v as the last result of the row it was invoked from.
func (m *Model) remember(v *callView) {
	if m.results == nil {
		m.results = lastResults{}
	}
	if si, ok := m.live.snap.Index(v.msg.row.Server); ok {
		m.results[ref{server: si, row: v.msg.row.Index}] = v
	}
}

// lastResult returns the last result of the selected row, if any.
func (m *Model) lastResult() (*callView, bool) {
	r, ok := m.selected()
	if !ok {
		return nil, false
	}
	v, ok := m.results[r]
	return v, ok
}
