// Package procguard owns how mcplens starts and ends a stdio server's
// process tree (Start, Tree: a process group on unix, a job object on
// Windows) and the process guard: a small process, the mcplens
// binary run as `mcplens __process-guard`, that kills the process groups
// of the stdio servers mcplens started should mcplens die without stopping
// them (SIGKILL, the OOM killer, a crash). The inspector's sessions
// (loader) and `mcplens tap` (relay) hold their servers' groups with the
// same Guard. It imports the standard library and, on Windows,
// golang.org/x/sys/windows.
//
//	g := procguard.New(exe, procguard.Subcommand) // nothing runs yet
//	defer g.Close()
//	if err := g.Hold(cmd.Process.Pid); err != nil { ... kill the group, fail }
//	... // at shutdown: kill the group, reap the leader
//	g.Release(cmd.Process.Pid)
//
// The binary's main calls Serve(os.Stdin) when its first argument is
// Subcommand.
//
// On Windows the job object plays the guard's part: each server's Tree is
// a job that Windows kills, with everything the server started, when
// mcplens's handle to it closes, however mcplens ends. No guard process
// runs there; Hold does nothing and Serve refuses. On macOS there is no
// parent-death signal: the guard alone ends every server's group should
// mcplens die.
package procguard
