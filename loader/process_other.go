//go:build !linux

package loader

import "syscall"

// childAttr puts a server child in a process group of its own, so signals
// reach any helpers it starts too.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
