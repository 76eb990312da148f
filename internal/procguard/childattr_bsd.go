//go:build unix && !linux

package procguard

import "syscall"

// childAttr puts a server in a process group of its own, so that a signal
// reaches the helpers it starts. There is no parent-death signal here
// (macOS): the guard alone ends the group should mcplens die.
func childAttr(*syscall.SysProcAttr) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
