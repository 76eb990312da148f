package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// A command is one of mcplens's commands: a struct of its options (its
// flags, registered on its flag set by parse, the serverFlags group among
// them where it starts servers) and its positional arguments, then Run.
// Neither prints an error nor picks an exit code: both return an error,
// typed with its code (usageError, failError, exitWith), and exit, in
// runCommand, says it and decides the code.
type command interface {
	// parse registers the command's flags on fs (its usage and errors go
	// to fs.Output()), reads args into the command and checks what needs
	// no config and no server.
	parse(fs *flag.FlagSet, args []string) error
	// Run runs the parsed command.
	Run(ctx context.Context, std stdio) error
}

// stdio is what a command reads and writes: the process's own streams,
// or a test's.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// runCommand parses args into c and runs it as `mcplens NAME`; it
// returns the exit code exit decides, having said the error on std.err.
func runCommand(name string, c command, args []string, std stdio) int {
	fs := flag.NewFlagSet(flagSetName(name), flag.ContinueOnError)
	fs.SetOutput(std.err)
	err := c.parse(fs, args)
	if err == nil {
		err = c.Run(context.Background(), std)
	}
	return exit(std.err, name, err)
}

// flagSetName is the flag set's name of `mcplens NAME` ("" the interface).
func flagSetName(name string) string {
	if name == "" {
		return "mcplens"
	}
	return "mcplens " + name
}

// parseCommand sets a command's usage (usage, then its flags' defaults,
// on fs's output) and parses its arguments (parseArgs): the error is
// exitWith(0) for -h, exitWith(2) for a usage error the flag package has
// said.
func parseCommand(fs *flag.FlagSet, args []string, usage string) ([]string, error) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return parsed(parseArgs(fs, args))
}

// parsed maps a flag set's parse error to the command's: -h ends it with
// 0, a flag the package refused (it said so, with the usage) with 2.
func parsed[T any](v T, err error) (T, error) {
	switch {
	case errors.Is(err, flag.ErrHelp):
		return v, exitWith(exitOK)
	case err != nil:
		return v, exitWith(exitUsage)
	}
	return v, nil
}

// usageShown prints fs's usage and ends the command with 2: arguments the
// flags accept but the command does not.
func usageShown(fs *flag.FlagSet) error {
	fs.Usage()
	return exitWith(exitUsage)
}

// parseArgs parses flags placed before, between or after the positional
// arguments (`mcplens check cfg.json --format json`), which flag.Parse alone
// stops at. Everything after "--" is positional.
func parseArgs(fset *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		rest := fset.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}
