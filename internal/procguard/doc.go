// Package procguard owns the process guard: a small process, the mcplens
// binary run as `mcplens __process-guard`, that kills the process groups
// of the stdio servers mcplens started should mcplens die without stopping
// them (SIGKILL, the OOM killer, a crash). The inspector's sessions
// (loader) and `mcplens tap` (relay) hold their servers' groups with the
// same Guard; it imports only the standard library.
//
//	g := procguard.New(exe, procguard.Subcommand) // nothing runs yet
//	defer g.Close()
//	if err := g.Hold(cmd.Process.Pid); err != nil { ... kill the group, fail }
//	... // at shutdown: kill the group, reap the leader
//	g.Release(cmd.Process.Pid)
//
// The binary's main calls Serve(os.Stdin) when its first argument is
// Subcommand.
package procguard
