package loader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Tasks, in both generations. A 2025-11-25 task is asked for: the
// tools/call carries params.task, the server answers {task} at once, the
// client polls tasks/get, and tasks/result gives the tool's result (and
// carries, while it waits, the server's own requests: the task's
// input_required). A 2026-07-28 task (the tasks extension) is the server's
// choice, made for a client that declares the extension: the answer is
// resultType "task", the client polls tasks/get, whose completed answer
// carries the result, and answers an input_required with tasks/update.
// Either is cancelled with tasks/cancel.

// The bounds of following a task: the server's pollInterval is kept
// within [MinPoll, MaxPoll] (DefaultPoll when it gives none), and a task
// id over MaxTaskID bytes is refused. The whole wait is the call's: its
// context ends it, and the task is then cancelled.
const (
	MinPoll     = 200 * time.Millisecond
	MaxPoll     = 10 * time.Second
	DefaultPoll = time.Second
	MaxTaskID   = 1024
	// MaxStatusMessage bounds what is kept of a task's statusMessage,
	// and of a call's progress message: past it, it is cut
	// (model.ClipText).
	MaxStatusMessage = 1024
	// cancelWait bounds the tasks/cancel sent when a call's context ended.
	cancelWait = 5 * time.Second
)

// methodTasksUpdate answers a 2026-07-28 task's input; mcp-go has no name
// for it.
const methodTasksUpdate mcp.MCPMethod = "tasks/update"

// The generations of tasks.
const (
	TasksAugmented = model.Revision20251125 // the call asks for a task (params.task)
	TasksExtension = model.Revision20260728 // the server answers with one (resultType "task")
)

// ErrTaskAtModern is a call asked to run as a task (AsTask) of a server
// that settled on 2026-07-28, which has no task augmentation, by a
// handshake that does not declare the tasks extension (whose tasks the
// server starts): nothing is sent.
var ErrTaskAtModern = errors.New("a 2025-11-25 task (params.task) cannot be asked of a server that settled on 2026-07-28, " +
	"which has none (its tasks are the tasks extension's, started by the server for a client declaring it); --protocol 2025-11-25 asks at that revision")

type asTaskKey struct{}
type taskStatusKey struct{}

// AsTask returns a context that makes a Call with it ask the server to run
// the tool as a 2025-11-25 task (params.task): what a client does for a
// tool whose execution.taskSupport is "required", and may do for
// "optional".
func AsTask(ctx context.Context) context.Context { return context.WithValue(ctx, asTaskKey{}, true) }

// WithTaskStatus returns a context that makes a Call with it report each
// status of the task the call became, if it became one, to fn: at its
// creation, each poll and each status notification. fn runs on the
// call's goroutine or the connection's read loop: it must return quickly.
func WithTaskStatus(ctx context.Context, fn func(mcpsession.TaskRun)) context.Context {
	return context.WithValue(ctx, taskStatusKey{}, fn)
}

func asTask(ctx context.Context) bool { v, _ := ctx.Value(asTaskKey{}).(bool); return v }

// A taskState is one status of a task, as tasks/get, the creation or a
// notification gave it.
type taskState struct {
	TaskID        string          `json:"taskId"`
	Status        string          `json:"status"`
	StatusMessage string          `json:"statusMessage"`
	PollInterval  *float64        `json:"pollInterval"`   // 2025-11-25, ms
	PollMs        *float64        `json:"pollIntervalMs"` // 2026-07-28
	InputRequests json.RawMessage `json:"inputRequests"`
	Result        json.RawMessage `json:"result"`
	Error         json.RawMessage `json:"error"`
}

func (t taskState) poll() time.Duration {
	ms := t.PollInterval
	if ms == nil {
		ms = t.PollMs
	}
	if ms == nil {
		return DefaultPoll
	}
	// Bounded as a float first: a huge interval would wrap as a Duration.
	bounded := min(max(*ms, float64(MinPoll/time.Millisecond)), float64(MaxPoll/time.Millisecond))
	return time.Duration(bounded * float64(time.Millisecond))
}

func terminal(status string) bool {
	return status == string(mcp.TaskStatusCompleted) || status == string(mcp.TaskStatusFailed) || status == string(mcp.TaskStatusCancelled)
}

// createdTask reads a tools/call result that created a task: {task: Task}
// (2025-11-25) or resultType "task" (2026-07-28).
func createdTask(result json.RawMessage) (taskState, string, bool) {
	var created struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}
	if json.Unmarshal(result, &created) != nil {
		return taskState{}, "", false
	}
	var t taskState
	switch {
	case created.ResultType == "task":
		if json.Unmarshal(result, &t) != nil {
			return taskState{}, "", false
		}
		return t, TasksExtension, true
	case len(created.Task) > 0 && string(created.Task) != "null":
		if json.Unmarshal(created.Task, &t) != nil {
			return taskState{}, "", false
		}
		return t, TasksAugmented, true
	}
	return taskState{}, "", false
}

// isTask reports whether a tools/call result created a task.
func isTask(result json.RawMessage) bool { _, _, ok := createdTask(result); return ok }

// followTask follows the task a call's result created, if it did, until
// it ends, and puts its result in res: polling tasks/get at the server's
// interval (bounded), waking early on a status notification, answering
// the input it asks for, and cancelling it when ctx ends first.
func (c *conn) followTask(ctx context.Context, res *mcpsession.CallResult) error {
	t, gen, ok := createdTask(res.Result)
	if !ok {
		return nil
	}
	switch declared := c.hs.Capabilities.Tasks != nil && c.hs.Capabilities.Tasks.Extension; {
	case gen == TasksAugmented && !asTask(ctx):
		return errors.New("the server answered with a task ({task}) though the call asked for none: an invalid answer")
	case gen == TasksExtension && !declared:
		return errors.New(`the server answered with a task (resultType "task") though the client does not declare the tasks extension: an invalid answer`)
	case t.TaskID == "":
		return errors.New("the server created a task without a taskId")
	case len(t.TaskID) > MaxTaskID:
		return fmt.Errorf("the server created a task whose id is %d bytes, over mcplens's bound of %d", len(t.TaskID), MaxTaskID)
	}
	c.mu.Lock()
	l := c.lister
	c.mu.Unlock()
	run := &mcpsession.TaskRun{ID: t.TaskID, Generation: gen, Started: time.Now()}
	res.Task = run
	defer func() { res.Latency = time.Since(run.Started) }() // however it ends
	report, _ := ctx.Value(taskStatusKey{}).(func(mcpsession.TaskRun))
	wake := make(chan struct{}, 1)
	c.taskWatch.Store(&taskWatch{id: t.TaskID, wake: wake})
	defer c.taskWatch.Store(nil)
	answered := map[string]bool{}
	polled := time.Now()
	for {
		run.Status, run.Message = t.Status, model.ClipText(t.StatusMessage, MaxStatusMessage)
		if report != nil {
			report(*run)
		}
		switch {
		case gen == TasksAugmented && (terminal(t.Status) || t.Status == string(mcp.TaskStatusInputRequired)):
			// tasks/result waits for the end, and carries meanwhile the
			// server's requests of the task, answered as any (answer).
			result, err := c.taskRequest(ctx, l, mcp.MethodTasksResult, t.TaskID, nil)
			if err != nil {
				return c.taskEnded(ctx, l, run, err)
			}
			run.Status = string(mcp.TaskStatusCompleted)
			return c.taskResult(res, result)
		case terminal(t.Status):
			return c.extensionEnd(res, t)
		case gen == TasksExtension && t.Status == string(mcp.TaskStatusInputRequired):
			if err := c.updateTask(ctx, l, t, answered, run); err != nil {
				return c.taskEnded(ctx, l, run, err)
			}
		}
		if err := pollWait(ctx, wake, polled, t.poll()); err != nil {
			return c.taskEnded(ctx, l, run, err)
		}
		raw, err := c.taskRequest(ctx, l, mcp.MethodTasksGet, t.TaskID, nil)
		polled = time.Now()
		if err == nil {
			var next taskState
			if err = json.Unmarshal(raw, &next); err == nil && next.TaskID != "" && next.TaskID != t.TaskID {
				err = fmt.Errorf("tasks/get for %q answered for another task", model.Sanitize(t.TaskID))
			}
			t = next
			t.TaskID = run.ID
		}
		if err != nil {
			return c.taskEnded(ctx, l, run, err)
		}
		run.Polls++
	}
}

// pollWait waits until the next tasks/get is due: interval after the
// last was answered (polled), or sooner when a note of the task's status wakes it, but
// never sooner than MinPoll after the last, however many notes come. It
// returns the context's cause when it ends first.
func pollWait(ctx context.Context, wake <-chan struct{}, polled time.Time, interval time.Duration) error {
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-wake:
	case <-time.After(time.Until(polled.Add(interval))):
		return nil
	}
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-time.After(time.Until(polled.Add(MinPoll))):
		return nil
	}
}

// updateTask answers the input requests of a 2026-07-28 task not answered
// yet (a poll repeats those outstanding) with tasks/update.
func (c *conn) updateTask(ctx context.Context, l *lister, t taskState, answered map[string]bool, run *mcpsession.TaskRun) error {
	var fresh map[string]json.RawMessage
	if len(t.InputRequests) > 0 && json.Unmarshal(t.InputRequests, &fresh) != nil {
		return errors.New("the task's inputRequests are not an object")
	}
	for key := range fresh {
		if answered[key] {
			delete(fresh, key)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	raw, _ := json.Marshal(fresh)
	answers, err := c.answerInputs(ctx, raw)
	if err != nil {
		return err
	}
	if _, err := c.taskRequest(ctx, l, methodTasksUpdate, t.TaskID, map[string]any{"inputResponses": answers}); err != nil {
		return err
	}
	for key := range answers {
		answered[key] = true
	}
	run.Inputs += len(answers)
	return nil
}

// extensionEnd takes the end of a 2026-07-28 task from its last status:
// the result of a completed one, the error of a failed one.
func (c *conn) extensionEnd(res *mcpsession.CallResult, t taskState) error {
	switch t.Status {
	case string(mcp.TaskStatusCompleted):
		return c.taskResult(res, t.Result)
	case string(mcp.TaskStatusFailed):
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(t.Error, &e)
		return errors.New("the task failed: " + model.DescribeError(e.Code, e.Message))
	}
	return fmt.Errorf("the task was cancelled: %s", model.ClipText(t.StatusMessage, MaxStatusMessage))
}

// taskResult makes a task's result the call's.
func (c *conn) taskResult(res *mcpsession.CallResult, result json.RawMessage) error {
	if len(result) == 0 {
		return errors.New("the task ended without a result")
	}
	res.Result = result
	var flag struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(result, &flag)
	res.IsError = flag.IsError
	return nil
}

// taskEnded cancels the task when the call's context ended (tasks/cancel,
// within cancelWait, whatever the context) and returns err.
func (c *conn) taskEnded(ctx context.Context, l *lister, run *mcpsession.TaskRun, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), min(cancelWait, c.timeout))
	defer cancel()
	if _, cerr := c.taskRequest(cctx, l, mcp.MethodTasksCancel, run.ID, nil); cerr != nil {
		return fmt.Errorf("%w; cancelling task %s: %v", err, model.Sanitize(run.ID), cerr)
	}
	run.Status, run.Cancelled = string(mcp.TaskStatusCancelled), true
	return fmt.Errorf("%w; task %s was cancelled (tasks/cancel)", err, model.Sanitize(run.ID))
}

// taskRequest sends one tasks/ request for the task id, its result bounded
// as any result is.
func (c *conn) taskRequest(ctx context.Context, l *lister, method mcp.MCPMethod, id string, extra map[string]any) (json.RawMessage, error) {
	if l == nil {
		return nil, ErrNotReady
	}
	params := map[string]any{"taskId": id}
	for k, v := range extra {
		params[k] = v
	}
	limit := c.s.opts.Limits.WithDefaults().Result
	result, size, err := l.request(ctx, method, params, limit)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", method, err)
	case int64(size) > limit || result == nil && size > 0:
		return nil, &LimitError{Limit: "result", Max: limit, What: "the " + string(method) + " result"}
	}
	return result, nil
}

// A taskWatch is the task a call is following, woken by a notification of
// its status.
type taskWatch struct {
	id   string
	wake chan struct{}
}

// onTaskNote wakes the poll of the task a notification
// (notifications/tasks/status, 2025-11-25; notifications/tasks,
// 2026-07-28) is about.
func (c *conn) onTaskNote(n mcp.JSONRPCNotification) {
	if n.Method != "notifications/tasks/status" && n.Method != "notifications/tasks" {
		return
	}
	w := c.taskWatch.Load()
	if id, _ := n.Params.AdditionalFields["taskId"].(string); w == nil || id != w.id {
		return
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
