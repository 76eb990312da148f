package model

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
}
