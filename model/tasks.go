package model

import "encoding/json"

// A TasksCapability declares that the client runs tasks (SEP-1686): it
// answers tasks/list and tasks/cancel, and the server's requests it may run
// as tasks, a task-augmented sampling/createMessage or elicitation/create
// then answered with a task to poll, or at once. VS Code declares it.
type TasksCapability struct {
	List, Cancel bool
	// Sampling and Elicitation say which of the server's requests the
	// client runs as tasks: tasks.requests.sampling.createMessage,
	// tasks.requests.elicitation.create.
	Sampling, Elicitation bool
	// Extension declares the tasks extension of 2026-07-28
	// (io.modelcontextprotocol/tasks in capabilities.extensions): the
	// server may then answer any tools/call with a task.
	Extension bool
}

// TasksExtensionID names the tasks extension in capabilities.extensions.
const TasksExtensionID = "io.modelcontextprotocol/tasks"

// RunsTasks reports whether a client with these capabilities runs tasks:
// it declares them, in either generation.
func (c Capabilities) RunsTasks() bool { return c.Tasks != nil }

// The values of a tool's execution.taskSupport (2025-11-25): whether a
// call to it may, or must, run as a task.
const (
	TaskForbidden = "forbidden" // also when absent
	TaskOptional  = "optional"
	TaskRequired  = "required"
)

// TaskSupport is a tool row's execution.taskSupport: TaskForbidden when
// absent or not one of the three values.
func TaskSupport(row json.RawMessage) string {
	var t struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	_ = json.Unmarshal(row, &t)
	switch s := t.Execution.TaskSupport; s {
	case TaskOptional, TaskRequired:
		return s
	}
	return TaskForbidden
}
