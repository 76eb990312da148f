//go:build !linux

package relay

import "syscall"

// childAttr puts the server in a process group of its own, so a signal the
// relay forwards reaches the helpers it starts and a terminal's signal
// reaches the server once (through the relay).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
