// Package demo is the built-in demo of mcplens: a config of three servers
// that collide on purpose, and the servers themselves. The mcplens binary
// serves them by running itself with a hidden subcommand, so the demo needs
// nothing installed:
//
//	cfg := demo.Config(exe) // exe: the running mcplens binary
//	// each server runs: exe __demo-server LABEL
//
// alpha and beta both advertise request (the motivating collision); gamma
// advertises names that trip naming policies and providers: a dot, a name
// too long once qualified, and a generic name.
//
// It must not import ui or report: the loader runs its servers like any others.
package demo
