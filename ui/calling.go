package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/editor"
)

// callTimeout bounds an interactive call.
const callTimeout = 60 * time.Second

// callDoneMsg is the end of one call, successful or not.
type callDoneMsg struct {
	policy string
	row    model.Outcome
	route  model.Route
	result mcpsession.CallResult
	err    error
}

// A pendingCall is a call on its way: what it was, since when, what the
// server last said about its progress, and how to give it up.
type pendingCall struct {
	policy   string
	row      model.Outcome
	route    model.Route
	started  time.Time
	progress *loader.Progress
	updates  <-chan loader.Progress
	done     <-chan struct{} // closed when the call has returned
	cancel   context.CancelFunc
	// cancelled is set once the user gave the call up: the server has been
	// sent notifications/cancelled and the call is ending.
	cancelled bool
}

// callProgressMsg is a progress report of the call running.
type callProgressMsg struct {
	progress loader.Progress
	updates  <-chan loader.Progress
	done     <-chan struct{}
}

// call places one call through t's route. The call runs in a command that
// reports its end as a callDoneMsg; its progress arrives as
// callProgressMsg until then. Cancelling its context ends the call at once,
// and the loader tells the server with notifications/cancelled.
func (m *Model) call(t editor.Target, args json.RawMessage) (*pendingCall, tea.Cmd) {
	backend := m.backend
	ctx, cancel := callContext()
	// Only the latest progress matters: a report not yet shown is replaced.
	updates := make(chan loader.Progress, 1)
	done := make(chan struct{})
	ctx = loader.WithProgress(ctx, func(p loader.Progress) {
		select {
		case <-updates:
		default:
		}
		select {
		case updates <- p:
		default:
		}
	})
	ctx, waitTasks := m.taskContext(ctx, t, cancel, done) // tasks.go
	pc := &pendingCall{policy: t.Policy, row: t.Row, route: t.Route, started: time.Now(),
		updates: updates, done: done, cancel: cancel}
	run := func() tea.Msg {
		defer close(done)
		defer cancel()
		res, err := backend.Call(ctx, t.Route.Server, t.Route.Wire, args)
		return callDoneMsg{policy: t.Policy, row: t.Row, route: t.Route, result: res, err: err}
	}
	return pc, tea.Batch(run, waitProgress(updates, done), waitTasks)
}

// callContext bounds one interactive call.
func callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// waitProgress delivers the next progress report of a call, or nothing once
// the call is done.
func waitProgress(updates <-chan loader.Progress, done <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case p := <-updates:
			return callProgressMsg{progress: p, updates: updates, done: done}
		case <-done:
			return nil
		}
	}
}

// callProgress records a progress report and waits for the next one.
func (m *Model) callProgress(msg callProgressMsg) tea.Cmd {
	if m.calling == nil || m.calling.updates != msg.updates {
		return nil // a call that already ended
	}
	p := msg.progress
	m.calling.progress = &p
	return waitProgress(msg.updates, msg.done)
}

// cancelCall gives up the call running.
func (m *Model) cancelCall() {
	if m.calling != nil && !m.calling.cancelled {
		m.calling.cancelled = true
		m.calling.cancel()
	}
}

// callingView is the result pane while a call runs: where it went, how long
// it has taken, the server's last progress report, and how to give up.
func (m *Model) callingView(height int) string {
	s := m.c.styles
	san := model.Sanitize
	pc := m.calling
	lines := []string{
		fmt.Sprintf("%s %s → route %s / %s   %s",
			s.Muted.Render("registry:"), s.RenamedText.Render(san(pc.route.Name)),
			san(pc.route.Server), s.In.Render(san(pc.route.Wire)), s.Muted.Render("policy "+pc.policy)),
	}
	status := fmt.Sprintf("%s calling… %.1f s", m.spin, time.Since(pc.started).Seconds())
	if pc.cancelled {
		status = fmt.Sprintf("%s cancelling… notifications/cancelled sent", m.spin)
	}
	lines = append(lines, status)
	if p := pc.progress; p != nil {
		text := fmt.Sprintf("progress %g", p.Progress)
		if p.Total > 0 {
			text = fmt.Sprintf("progress %g of %g (%.0f%%)", p.Progress, p.Total, 100*p.Progress/p.Total)
		}
		if p.Message != "" {
			text += ": " + m.c.text(p.Message)
		}
		lines = append(lines, text)
	}
	lines = append(lines, s.Muted.Render(m.help.ShortHelpView([]key.Binding{m.c.keys.CancelCall})))
	return m.paneBox(s.PaneTitle.Render("CALL"), lines, height)
}

// cancelledCall reports whether a call ended because the user gave it up.
func cancelledCall(err error) bool { return errors.Is(err, context.Canceled) }
