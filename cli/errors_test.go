package cli

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// TestExitDecidesCodeAndLine holds exit, the one place an error becomes
// an exit code and its stderr line, to docs/commands.md's exit codes.
func TestExitDecidesCodeAndLine(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		err  error
		code int
		line string
	}{
		{"nil", "check", nil, exitOK, ""},
		{"usage", "check", usagef("unknown format %q", "x"), exitUsage, "mcplens check: unknown format \"x\"\n"},
		{"fail", "call", failError(errors.New("interrupted")), exitFound, "mcplens call: interrupted\n"},
		{"untyped fails", "diff", errors.New("disk full"), exitFound, "mcplens diff: disk full\n"},
		{"wrapped keeps its code", "read", fmt.Errorf("reading: %w", usageError(errors.New("no server"))), exitUsage, "mcplens read: no server\n"},
		{"interface", "", usageError(errors.New("bad config")), exitUsage, "mcplens: bad config\n"},
		{"help", "tap", exitWith(exitOK), exitOK, ""},
		{"said already", "check", exitWith(exitFound), exitFound, ""},
		{"server status", "tap", exitWith(3), 3, ""},
		{"lines after", "call", &exitError{code: exitUsage, err: errors.New("no tool"), after: "  did you mean: a\n"}, exitUsage, "mcplens call: no tool\n  did you mean: a\n"},
		{"shutdown after success", "check", sayAfter(nil, "mcplens check: closing: x\n"), exitOK, "mcplens check: closing: x\n"},
		{"shutdown after failure", "check", sayAfter(failError(errors.New("write")), "mcplens check: closing: x\n"), exitFound, "mcplens check: write\nmcplens check: closing: x\n"},
		{"shutdown after untyped", "diff", sayAfter(errors.New("write"), "more\n"), exitFound, "mcplens diff: write\nmore\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := exit(&stderr, tt.cmd, tt.err); code != tt.code || stderr.String() != tt.line {
				t.Errorf("exit(%v) = %d, said %q; want %d and %q", tt.err, code, stderr.String(), tt.code, tt.line)
			}
		})
	}
}
