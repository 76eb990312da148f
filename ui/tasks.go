package ui

// The tasks pane: T opens it, under the views: every call of the run that
// became a task (2025-11-25, asked for when the tool's
// execution.taskSupport is "required" and the client profile runs tasks;
// 2026-07-28, the server's choice under a client declaring the tasks
// extension), newest first, with its status, the server's message and how
// long it has run. ctrl+x cancels the running one (tasks/cancel), enter
// reads an ended one's result in the reader. The questions a task asks
// (its input_required) come as any server's question, in the forms.

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/editor"
)

// maxTasks bounds the tasks the pane keeps: the oldest ended one goes.
const maxTasks = 100

// A taskEntry is one call that became a task.
type taskEntry struct {
	name, server string // the registered name and the server
	run          mcpsession.TaskRun
	ended        bool
	result       *callView // once ended
	done         <-chan struct{}
	cancel       context.CancelFunc
}

// A tasksView is the tasks pane.
type tasksView struct {
	e             *env
	width, height int
	entries       []*taskEntry // newest first
	cursor        int
}

// taskStatusMsg is a status of the task a call became.
type taskStatusMsg struct {
	run     mcpsession.TaskRun
	entry   *taskEntry
	updates <-chan mcpsession.TaskRun
}

// taskContext makes the call under t ask for a task when its tool must run
// as one and the client profile runs tasks (as `mcplens call` does), and
// report the task's statuses to the pane; it returns the command that
// waits for them.
func (m *Model) taskContext(ctx context.Context, t editor.Target, cancel context.CancelFunc, done <-chan struct{}) (context.Context, tea.Cmd) {
	if m.taskSupport(t.Route) == model.TaskRequired && m.runsTasks() {
		ctx = loader.AsTask(ctx)
	}
	updates := make(chan mcpsession.TaskRun, 1)
	entry := &taskEntry{name: t.Route.Name, server: t.Route.Server, done: done, cancel: cancel}
	ctx = loader.WithTaskStatus(ctx, func(r mcpsession.TaskRun) {
		select { // only the latest status matters
		case <-updates:
		default:
		}
		select {
		case updates <- r:
		default:
		}
	})
	return ctx, waitTask(entry, updates)
}

// waitTask delivers the next status of a task, or nothing once its call
// is done.
func waitTask(entry *taskEntry, updates <-chan mcpsession.TaskRun) tea.Cmd {
	return func() tea.Msg {
		select {
		case r := <-updates:
			return taskStatusMsg{run: r, entry: entry, updates: updates}
		case <-entry.done:
			return nil
		}
	}
}

// taskStatus records a status, adding the task to the pane at its first.
func (m *Model) taskStatus(msg taskStatusMsg) tea.Cmd {
	v := &m.tasks
	e := msg.entry
	if e.run.ID == "" {
		v.entries = append([]*taskEntry{e}, v.entries...)
		if len(v.entries) > maxTasks {
			v.entries = v.entries[:maxTasks]
		}
		v.cursor = 0
	}
	e.run = msg.run
	return waitTask(e, msg.updates)
}

// taskEnded records the end of a call: the result of the task it became.
func (m *Model) taskEnded(msg callDoneMsg, result *callView) {
	t := msg.result.Task
	if t == nil {
		return
	}
	for _, e := range m.tasks.entries {
		if e.run.ID == t.ID && e.server == msg.route.Server {
			e.run, e.ended, e.result = *t, true, result
			if msg.err != nil && !t.Cancelled {
				e.run.Status = "failed"
			}
		}
	}
}

// taskSupport is the execution.taskSupport of the tool rt routes to.
func (m *Model) taskSupport(rt model.Route) string {
	for i, label := range m.live.labels() {
		if label == rt.Server {
			if t, ok := m.live.toolAt(ref{server: i, row: rt.Index}); ok {
				return model.TaskSupport(t.Raw)
			}
		}
	}
	return model.TaskForbidden
}

// runsTasks reports whether the client profile connected as runs tasks.
func (m *Model) runsTasks() bool {
	c, err := model.ClientNamed(m.client)
	return m.client != "" && err == nil && c.Handshake.Capabilities.RunsTasks()
}

// toggleTasks opens the pane, or closes it when open.
func (m *Model) toggleTasks() {
	if m.pane == paneTasks {
		m.pane = paneDetail
		return
	}
	m.pane = paneTasks
}

func (v *tasksView) SetSize(width, height int) { v.width, v.height = width, height }

// takes reports whether msg is a key of the pane.
func (v *tasksView) takes(msg tea.KeyPressMsg) bool {
	k := v.e.c.keys
	return key.Matches(msg, k.Up, k.Down, k.CancelTask, k.Open)
}

// Update moves the cursor, cancels the task under it, or reads its result.
func (v *tasksView) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(v.entries) == 0 {
		return nil
	}
	keys := v.e.c.keys
	e := v.entries[min(v.cursor, len(v.entries)-1)]
	switch {
	case key.Matches(k, keys.Up):
		v.cursor = max(0, v.cursor-1)
	case key.Matches(k, keys.Down):
		v.cursor = min(len(v.entries)-1, v.cursor+1)
	case key.Matches(k, keys.CancelTask) && !e.ended:
		e.cancel() // the loader sends tasks/cancel
		e.run.Status = "cancelling"
	case key.Matches(k, keys.Open) && e.result != nil:
		r := e.result.reader(v.e)
		return func() tea.Msg { return readMsg{r: r} }
	}
	return nil
}

func (v *tasksView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.CancelTask, k.Open, k.Tasks}
}

func (v *tasksView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	return tailHelp(k, k.CancelTask, k.Open, k.Tasks)
}

func (v *tasksView) View() string {
	c := v.e.c
	s := c.styles
	title := s.PaneTitle.Render("TASKS") + s.Muted.Render(fmt.Sprintf(" %s · ctrl+x cancels · enter reads the result", count(len(v.entries), "task")))
	if len(v.entries) == 0 {
		note := "no call became a task yet: a tool whose execution.taskSupport is \"required\" runs as one under a client that runs tasks"
		return tailView(c, title, v.height, []string{s.Muted.Render(note)}, func(_ common, l string) string { return l })
	}
	start := max(0, min(v.cursor-(v.height-2), len(v.entries)-(v.height-1)))
	shown := v.entries[start:min(len(v.entries), start+max(1, v.height-1))]
	return tailView(c, title, v.height, shown, func(c common, e *taskEntry) string {
		mark := "  "
		if e == v.entries[v.cursor] {
			mark = "> "
		}
		elapsed := time.Since(e.run.Started)
		if e.ended && e.result != nil {
			elapsed = e.result.msg.result.Latency
		}
		line := fmt.Sprintf("%s%-14s %s / %s  %s  %s  %s", mark, c.text(e.run.Status), c.text(e.server), c.text(e.name),
			c.text(e.run.ID), e.run.Generation, elapsed.Round(100*time.Millisecond))
		if e.run.Message != "" {
			line += "  " + c.text(e.run.Message)
		}
		return line
	})
}
