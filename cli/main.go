package cli

import (
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/procguard"
)

// Main runs mcplens's command line on args (without the program's name)
// and returns the exit code. guard kills the process groups of the stdio
// servers should mcplens die without stopping them (SIGKILL, the OOM
// killer): one guard per run, shared by every session, started with the
// first server (nil: unguarded, as in tests that run commands in-process).
// hooks, when not nil, wraps the interface's model (test builds only).
func Main(args []string, guard *procguard.Guard, hooks Hooks) int {
	return run(args, guard, hooks, os.Stderr)
}

// Hooks wraps the interface's model before it runs: test builds of
// mcplens only (-tags mcplens_panictest); nil wraps nothing.
type Hooks func(tea.Model) tea.Model

func (h Hooks) wrap(m tea.Model) tea.Model {
	if h == nil {
		return m
	}
	return h(m)
}

// run is mcplens's command line: it picks the command args[0] names (the
// interface, lensCommand, when it names none) and returns its exit code.
// guard and hooks are Main's. A command is added here, one case, with its
// own file: see doc.go.
func run(args []string, guard *procguard.Guard, hooks Hooks, stderr io.Writer) int {
	std := stdio{in: os.Stdin, out: os.Stdout, err: stderr}
	if len(args) > 0 {
		switch args[0] {
		case "check":
			if isCapture(args[1:]) {
				limitFileMemory()
				return runOffline(args[1:], false, hooks, os.Stdout, stderr)
			}
			return runCheck(args[1:], guard, os.Stdout, stderr)
		case "audit":
			return runAudit(args[1:], guard, os.Stdout, stderr)
		case "call":
			return runCall(args[1:], guard, os.Stdin, os.Stdout, stderr)
		case "app":
			return runApp(args[1:], guard, os.Stdin, os.Stdout, stderr)
		case "tap":
			return runTap(args[1:], guard, os.Stdin, os.Stdout, stderr)
		case "read":
			return runRead(args[1:], guard, os.Stdout, stderr)
		case "prompt":
			return runPrompt(args[1:], guard, os.Stdout, stderr)
		case "diff":
			limitFileMemory()
			return runDiff(args[1:], guard, os.Stdout, stderr)
		case "login":
			return runLogin(args[1:], os.Stdout, stderr)
		case "logout":
			return runLogout(args[1:], os.Stdout, stderr)
		case "auth":
			return runAuth(args[1:], os.Stdout, stderr)
		case "watch":
			return runWatch(args[1:], hooks, os.Stdout, stderr)
		}
		if isCapture(args) {
			return runOffline(args, true, hooks, os.Stdout, stderr)
		}
	}
	return runCommand("", &lensCommand{guard: guard, hooks: hooks}, args, std)
}
