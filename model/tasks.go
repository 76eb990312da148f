package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

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

// String is the capability for a header line: "tasks", "tasks(extension)"
// or "tasks(2025-11-25,extension)".
func (t TasksCapability) String() string {
	switch older := t.List || t.Cancel || t.Sampling || t.Elicitation; {
	case older && t.Extension:
		return "tasks(2025-11-25,extension)"
	case t.Extension:
		return "tasks(extension)"
	}
	return "tasks"
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

// KindTaskRequired is the finding on a tool whose execution.taskSupport is
// "required": only a client that runs tasks can call it.
const KindTaskRequired = "task-required"

// taskClients are the profiles whose client runs tasks, and those whose
// does not, by name, each once.
var taskClients = sync.OnceValues(func() (runs, not []string) {
	for _, c := range Clients() {
		list := &not
		if c.Handshake.Capabilities.RunsTasks() {
			list = &runs
		}
		if !slices.Contains(*list, c.Name) {
			*list = append(*list, c.Name)
		}
	}
	return runs, not
})

// taskFinding is the finding on a row that must run as a task, if it
// must: registered, but uncallable under every client that runs no tasks.
func taskFinding(server string, subject func() string, row json.RawMessage) (string, bool) {
	if !bytes.Contains(row, []byte("taskSupport")) || TaskSupport(row) != TaskRequired {
		return "", false
	}
	runs, not := taskClients()
	return fmt.Sprintf("%s on %s must run as a task (execution.taskSupport %q): registered but uncallable under every client that runs no tasks (%s); "+
		"callable under %s, and with mcplens call --task", subject(), server, TaskRequired, strings.Join(not, ", "), orElse(strings.Join(runs, ", "), "none profiled")), true
}
