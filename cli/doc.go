// Package cli is mcplens's command line: it parses flags, loads a config
// (loader/config), opens a session (loader) and hands its events to the
// interface (ui) or, headless, to the one fold of live state (surface)
// that check, call and the report read. It decides no status, finding or
// name itself, and only the mcplens binary (the root package) imports it.
// Main is its one door: it takes the arguments and returns the exit code.
//
// # A command
//
// Each command is a struct in a file of its own (check.go, call.go, ...):
// its options are its fields, and it implements command (command.go):
//
//	type fooCommand struct {
//		verbose     bool
//		serverFlags             // if it starts servers: flags.go, the one flag group
//		guard       *procguard.Guard
//		path        string      // its positional arguments
//	}
//
//	func (c *fooCommand) parse(fs *flag.FlagSet, args []string) error {
//		fs.BoolVar(&c.verbose, "verbose", false, "...")
//		c.serverFlags.register(fs, c.guard, flagWords{config: "PATH"})
//		pos, err := parseCommand(fs, args, "usage: mcplens foo [PATH]\n\n")
//		if err != nil {
//			return err // -h and flag errors, said by the flag package
//		}
//		if len(pos) > 1 {
//			return usagef("want at most one config, got %d", len(pos))
//		}
//		c.path = first(pos)
//		return nil
//	}
//
//	func (c *fooCommand) Run(ctx context.Context, std stdio) error { ... }
//
// plus one case in run (main.go): `case "foo": return runCommand("foo",
// &fooCommand{guard: guard}, args[1:], std)` (the existing commands go
// through a runFoo(args, guard, stdout, stderr) int that tests call).
//
// # Exit codes
//
// A command never prints its own error nor returns a number: parse and
// Run return an error that carries its exit code (errors.go), and exit,
// called once by runCommand, prints "mcplens foo: <error>" on stderr and
// returns the code:
//
//   - nil: 0.
//   - usageError, usagef: 2, a usage error, a config, lock or argument
//     file that cannot be read, arguments refused before anything is sent.
//   - failError, failf, or any error not typed: 1, the run failed on the
//     way (a call, a server that never settled, a write, an interruption).
//   - exitWith(code): that code and nothing printed, where what there was
//     to say is said (-h: 0; the flag package's error and the usage: 2;
//     findings at or above --fail-on, in the report: 1; a tap's server's
//     own status).
//
// Lines that are not the command's outcome (progress, warnings, a
// server's error while the others go on) are printed where they happen;
// lines that must follow the outcome's own (a deferred shutdown's error,
// "did you mean") ride on it (sayAfter, exitError.after).
package cli
