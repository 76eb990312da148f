package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/history"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/editor"
	"github.com/mcplens/mcplens/ui/kit"
)

// callHistory is every call of the session (and of earlier sessions, with
// --history), the call on its way, and the history view's state.
type callHistory struct {
	log *history.Log
	// running is the call on its way: recorded when it ends.
	running *placedCall
	// lastCall is the last call placed in this session, which R places
	// again as it was (same route, same arguments).
	lastCall *placedCall
	browsing bool
	cursor   int
	// status says what became of the file: where it is, or why it could
	// not be read or written.
	status string
	// file orders the writes of the file, which run as commands.
	file *fileWrites
}

// fileWrites orders the writes of the history file: each carries the
// whole history as of its call, so a write older than the last one done
// is skipped rather than let it undo a newer one.
type fileWrites struct {
	mu         sync.Mutex
	next, done int
}

// write returns the command that writes data to path, unless a newer
// write is done by the time it runs.
func (w *fileWrites) write(path string, data []byte) tea.Cmd {
	w.mu.Lock()
	w.next++
	seq := w.next
	w.mu.Unlock()
	return func() tea.Msg {
		w.mu.Lock()
		defer w.mu.Unlock()
		if seq < w.done {
			return historyWrittenMsg{}
		}
		w.done = seq
		return historyWrittenMsg{err: history.Write(path, data)}
	}
}

// A placedCall is a call as it was placed: where it went, under which
// policy, with which arguments.
type placedCall struct {
	policy string
	row    model.Outcome
	route  model.Route
	args   json.RawMessage
	at     time.Time
}

// historyWrittenMsg says whether the history file was written.
type historyWrittenMsg struct{ err error }

// openHistory keeps the calls in the file at path (JSON Lines, mode 0600)
// and starts from the calls already there. The error says what could not
// be read; the records that could are kept.
func (m Model) openHistory(path string) error {
	l, err := history.Open(path)
	m.hist.log, m.hist.file = l, &fileWrites{}
	if err != nil {
		m.hist.status = err.Error()
	}
	return err
}

// records are the calls recorded, oldest first.
func (h *callHistory) records() []history.Record {
	if h.log == nil {
		h.log, _ = history.Open("")
	}
	return h.log.Records()
}

// last returns the newest call to tool on server.
func (h *callHistory) last(server, tool string) (history.Record, bool) {
	h.records()
	return h.log.Last(server, tool)
}

// place places a call with args under t, noting it to be recorded when
// it ends.
func (m *Model) place(t editor.Target, args json.RawMessage) tea.Cmd {
	pc := &placedCall{policy: t.Policy, row: t.Row, route: t.Route, args: args, at: time.Now()}
	m.hist.running, m.hist.lastCall = pc, pc
	var cmd tea.Cmd
	m.calling, cmd = m.call(t, args)
	m.pane = paneResult
	return cmd
}

// recordCall records the call that ended, with the config's secrets
// masked, and writes the file if there is one.
func (m *Model) recordCall(msg callDoneMsg) tea.Cmd {
	pc := m.hist.running
	m.hist.running = nil
	if pc == nil {
		return nil
	}
	mask := m.c.redact.Values
	r := msg.result
	rec := history.Record{Time: pc.at.UTC(), Server: pc.route.Server, Tool: pc.route.Wire, Registered: pc.route.Name,
		Policy: pc.policy, Arguments: json.RawMessage(mask(string(pc.args))), Result: json.RawMessage(mask(string(r.Result))),
		IsError: r.IsError, LatencyMS: float64(r.Latency.Microseconds()) / 1000}
	if msg.err != nil {
		rec.Error = m.c.redact.Text(msg.err.Error())
	}
	if len(r.Request) > 0 {
		rec.Frames = append(rec.Frames, history.Frame{Dir: "out", Data: mask(string(r.Request))})
	}
	if len(r.Response) > 0 {
		rec.Frames = append(rec.Frames, history.Frame{Dir: "in", Data: mask(string(r.Response))})
	}
	m.hist.records()
	m.hist.log.Append(rec)
	path := m.hist.log.Path()
	if path == "" {
		return nil
	}
	return m.hist.file.write(path, m.hist.log.Bytes())
}

// historyWritten notes a file that could not be written.
func (m *Model) historyWritten(msg historyWrittenMsg) {
	m.hist.status = ""
	if msg.err != nil {
		m.hist.status = msg.err.Error()
	}
}

// historyStatus is the footer's note of a history file that could not be
// read or written.
func (m *Model) historyStatus() string {
	if m.hist.status == "" {
		return ""
	}
	return m.c.styles.ErrorText.Render(m.c.text(m.hist.status))
}

// historyKey opens the history view (H) or places the last call again (R).
func (m *Model) historyKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.c.keys.History) {
		m.hist.browsing = true
		m.hist.cursor = max(0, len(m.hist.records())-1)
		return nil
	}
	return m.rerun()
}

// rerun places the last call again: the session's last, else the newest
// of the history file, by its server and wire name.
func (m *Model) rerun() tea.Cmd {
	if m.calling != nil {
		return nil
	}
	pc := m.hist.lastCall
	if pc == nil {
		rs := m.hist.records()
		if len(rs) == 0 {
			return nil
		}
		r := rs[len(rs)-1]
		route := model.Route{Name: r.Registered, Server: r.Server, Wire: r.Tool}
		pc = &placedCall{policy: r.Policy, row: model.Outcome{Server: r.Server, Wire: r.Tool, Name: r.Registered}, route: route, args: r.Arguments}
	}
	return m.place(editor.Target{Policy: pc.policy, Row: pc.row, Route: pc.route}, pc.args)
}

// updateHistory moves through the history view; enter opens the editor on
// the chosen call's arguments, R sends it again, both to its server's tool
// as listed now and routed under the active policy; esc closes the view.
func (m *Model) updateHistory(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	rs := m.hist.records()
	switch {
	case key.Matches(msg, k.Cancel, k.History):
		m.hist.browsing = false
	case key.Matches(msg, k.Up):
		m.hist.cursor = max(0, m.hist.cursor-1)
	case key.Matches(msg, k.Down):
		m.hist.cursor = min(len(rs)-1, m.hist.cursor+1)
	case key.Matches(msg, k.HistoryEdit, k.HistorySend) && m.hist.cursor < len(rs):
		r := rs[m.hist.cursor]
		at, ok := m.live.refOfWire(r.Server, r.Tool)
		if !ok {
			m.hist.status = fmt.Sprintf("%s does not list %s now: nothing to call", r.Server, r.Tool)
			return nil
		}
		m.hist.browsing, m.hist.status = false, ""
		if key.Matches(msg, k.HistoryEdit) {
			m.openInvokeOn(at, r.Arguments)
			if m.invoke == nil {
				return nil
			}
			return m.invoke.Focus()
		}
		o, _, _ := m.live.outcomeAt(at)
		route, routed := m.live.reg.Lookup(o.Name)
		if o.Name == "" || !routed || route.Server != r.Server || route.Wire != r.Tool {
			// Sent as it stands it would reach another tool, or none: the
			// editor says where it goes.
			m.hist.browsing = true
			m.hist.status = fmt.Sprintf("under %s, %s's %s does not route to itself: enter opens it in the editor, which says where it goes", m.activePolicy().Name, r.Server, r.Tool)
			return nil
		}
		return m.place(editor.Target{Policy: m.activePolicy().Name, Row: o, Route: route}, r.Arguments)
	}
	return nil
}

// historyView lists the calls, newest last, the one under the cursor with
// its arguments and what came of it, in a box that fits the screen.
func (m *Model) historyView() string {
	s := m.c.styles
	san := model.Sanitize
	inner := kit.BoxInner(m.c.width)
	rs := m.hist.records()
	head := []string{s.Header.Render("call history") + s.Muted.Render(fmt.Sprintf("  %d call(s)", len(rs)))}
	if p := m.hist.log.Path(); p != "" {
		head[0] += s.Muted.Render(" · kept in " + san(p))
	}
	if m.hist.status != "" {
		head = append(head, s.ErrorText.Render(m.c.text(m.hist.status)))
	}
	var foot []string
	if c := min(m.hist.cursor, len(rs)-1); len(rs) > 0 && c >= 0 {
		args := strings.Join(strings.Fields(string(rs[c].Arguments)), " ")
		foot = append(foot, "", s.Muted.Render("arguments: ")+truncate(m.c.quote(cut(m.c, args, m.c.width)), max(10, inner-11), "…"))
		if rs[c].Error != "" {
			foot = append(foot, s.ErrorText.Render(truncate(m.c.text(rs[c].Error), inner, "…")))
		}
	}
	k := m.c.keys
	foot = append(foot, "", kit.BoxKeys(s.Muted, []key.Binding{k.HistoryEdit, k.HistorySend, k.Cancel, k.Up, k.Down}, inner))
	// Only the calls in sight are drawn: the box shows at most room lines.
	height := max(1, kit.BoxRoom(m.c.height)-len(head)-len(foot))
	top := max(0, min(m.hist.cursor-height/2, len(rs)-height))
	var body []string
	for i := top; i < min(len(rs), top+height); i++ {
		r := rs[i]
		mark := "  "
		if i == m.hist.cursor {
			mark = "▸ "
		}
		what := s.OKText.Render("ok")
		switch {
		case r.Error != "":
			what = s.ErrorText.Render("error")
		case r.IsError:
			what = s.WarnText.Render("isError")
		}
		body = append(body, fmt.Sprintf("%s%s  %s %s  %s  %s", mark, r.Time.Local().Format("15:04:05"),
			san(r.Server), s.In.Render(san(r.Tool)), what, s.Muted.Render(fmt.Sprintf("%.1f ms", r.LatencyMS))))
	}
	if len(rs) == 0 {
		body = append(body, s.Muted.Render("(no calls yet: i invokes the selected tool)"))
	}
	return kit.Box(s.box(), head, body, foot, m.hist.cursor-top, m.c.width, m.c.height)
}
