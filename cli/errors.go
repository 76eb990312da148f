package cli

import (
	"errors"
	"fmt"
	"io"
)

// Exit codes of mcplens's commands (docs/commands.md, "Exit codes"). A
// command never returns one: its Run returns an error that carries it
// (usageError, failError, exitWith), and exit decides the code.
const (
	exitOK    = 0 // nothing at or above --fail-on; the call succeeded
	exitFound = 1 // something at or above --fail-on; the call failed
	exitUsage = 2 // a usage, config or lock file error
)

// exitError is an error that ends a command with its exit code. err is
// what exit says of it, "mcplens CMD: err" on stderr (nil: nothing, what
// there was to say is said: the usage, the report, the flag package's
// own line); after follows that line (lines that hang on it, such as
// "did you mean").
type exitError struct {
	code  int
	err   error
	after string
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError ends a command with exit 2: a usage error, a config, lock
// or argument file that cannot be read, arguments refused before
// anything is sent.
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// usagef is usageError of a formatted message.
func usagef(format string, a ...any) error { return usageError(fmt.Errorf(format, a...)) }

// failError ends a command with exit 1: the run went wrong on the way
// (a call failed, a server never settled, an interruption, a write). An
// error of no exitError type exits 1 too.
func failError(err error) error { return &exitError{code: exitFound, err: err} }

// failf is failError of a formatted message.
func failf(format string, a ...any) error { return failError(fmt.Errorf(format, a...)) }

// exitWith ends a command with code and says nothing more: -h (0), a
// flag error the flag package has said with the usage (2), findings the
// report has shown (1), the status of the server a tap ran.
func exitWith(code int) error { return &exitError{code: code} }

// exit is the one place an error becomes mcplens's exit code and its
// line on stderr: nil is 0 and says nothing; an exitError its own code,
// its message as "mcplens CMD: message" (cmd "" for the interface:
// "mcplens: message") and the lines after it; any other error 1, with its
// message.
func exit(stderr io.Writer, cmd string, err error) int {
	if err == nil {
		return exitOK
	}
	code, msg, after := exitFound, err, ""
	var e *exitError
	if errors.As(err, &e) {
		code, msg, after = e.code, e.err, e.after
	}
	if msg != nil {
		prefix := "mcplens"
		if cmd != "" {
			prefix += " " + cmd
		}
		fmt.Fprintf(stderr, "%s: %v\n", prefix, msg)
	}
	fmt.Fprint(stderr, after)
	return code
}

// sayAfter returns err with line said after what exit says of it: what a
// deferred step (the servers' shutdown) has to say once the command's
// own outcome is out. A nil err stays exit 0.
func sayAfter(err error, line string) error {
	var e *exitError
	switch {
	case err == nil:
		return &exitError{code: exitOK, after: line}
	case errors.As(err, &e):
		return &exitError{code: e.code, err: e.err, after: e.after + line}
	}
	return &exitError{code: exitFound, err: err, after: line}
}
