package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// taskContext is the context of a call through rt: it asks for a task
// (2025-11-25) when the tool's execution.taskSupport is "required" and the
// client profile runs tasks, or with --task when it is "optional" or
// "required"; and it reports each status of a task the call became on
// stderr. A "required" tool under a profile that runs no tasks is called
// as that client would call it, which the server refuses; stderr says so.
func (c *caller) taskContext(ctx context.Context, rt model.Route) context.Context {
	support := model.TaskSupport(toolRow(c.snap, rt).Raw)
	switch {
	case c.asTask && c.stateless(rt.Server):
		// 2026-07-28: no task augmentation; the handshake declares the
		// tasks extension (withTasksExtension), and the server may answer
		// any call with a task.
		ctx = loader.AsTask(ctx)
	case support != model.TaskForbidden && (c.asTask || support == model.TaskRequired && c.runsTasks):
		ctx = loader.AsTask(ctx)
	case support == model.TaskRequired:
		fmt.Fprintf(c.std.err, "mcplens call: %s must run as a task (execution.taskSupport %q), and the client profile runs no tasks: "+
			"it is called as that client calls it; --task runs it as a task\n", c.san(rt.Wire), support)
	case c.asTask:
		fmt.Fprintf(c.std.err, "mcplens call: %s does not run as a task (execution.taskSupport %q): --task is ignored\n", c.san(rt.Wire), support)
	}
	var last string
	return loader.WithTaskStatus(ctx, func(r mcpsession.TaskRun) {
		line := taskLine(r)
		if line != last {
			last = line
			fmt.Fprintf(c.std.err, "mcplens call: %s\n", c.san(line))
		}
	})
}

// taskLine words a task's status: "task 7f3… (2025-11-25) working:
// Gathering sources... (3.1s)".
func taskLine(r mcpsession.TaskRun) string {
	line := fmt.Sprintf("task %s (%s) %s", clip(r.ID, 80), r.Generation, clip(r.Status, 40))
	if r.Message != "" {
		line += ": " + clip(r.Message, 300)
	}
	return line + fmt.Sprintf(" (%s)", time.Since(r.Started).Round(100*time.Millisecond))
}

// printRuns says, after the result, how the call ran when it was more
// than one exchange: its rounds, the task it became.
func (c *caller) printRuns(res mcpsession.CallResult) {
	if res.Rounds > 1 {
		times := fmt.Sprintf("%d times", res.Rounds-1)
		if res.Rounds == 2 {
			times = "once"
		}
		fmt.Fprintf(c.std.out, "rounds: %d (the server answered input_required %s; each round carried the answers and the requestState it was given, if any)\n", res.Rounds, times)
	}
	if t := res.Task; t != nil {
		line := fmt.Sprintf("task %s (%s): %s after %d polls", c.san(t.ID), t.Generation, c.san(t.Status), t.Polls)
		if t.Inputs > 0 {
			line += fmt.Sprintf(", %d input requests answered (tasks/update)", t.Inputs)
		}
		fmt.Fprintln(c.std.out, line)
	}
}

// toolRow is the row rt routes to.
func toolRow(snap *surface.Snapshot, rt model.Route) model.Tool {
	if i, ok := snap.Index(rt.Server); ok {
		if tools := snap.Servers[i].Tools; rt.Index >= 0 && rt.Index < len(tools) {
			return tools[rt.Index]
		}
	}
	return model.Tool{}
}

// withTasksExtension is h declaring the tasks extension of 2026-07-28
// besides what it declares: with --task a server of that revision may
// answer the call with a task.
func withTasksExtension(h model.Handshake) model.Handshake {
	if h.ClientInfo.Name == "" { // the session's default: mcplens as itself
		h = model.NeutralHandshake()
	}
	t := model.TasksCapability{}
	if h.Capabilities.Tasks != nil {
		t = *h.Capabilities.Tasks
	}
	t.Extension = true
	h.Capabilities.Tasks = &t
	return h
}

// stateless reports whether server settled on a stateless revision
// (2026-07-28 on), whose tasks are the extension's.
func (c *caller) stateless(server string) bool {
	i, ok := c.snap.Index(server)
	return ok && model.Stateless(c.snap.Servers[i].Protocol)
}
