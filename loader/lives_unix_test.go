//go:build unix

package loader_test

import "syscall"

// processLives reports whether a process has pid.
func processLives(pid int) bool { return syscall.Kill(pid, 0) == nil }

// killPid kills process pid (SIGKILL).
func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
