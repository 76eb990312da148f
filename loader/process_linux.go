package loader

import "syscall"

// childAttr puts a server child in a process group of its own, so signals
// reach any helpers it starts, and asks the kernel to kill it should
// mcplens die without shutting it down (SIGKILL, a crash): no child
// outlives mcplens even then. The parent-death signal follows the thread
// that started the child, which the Go runtime only ends for a goroutine
// that exits locked to it, and mcplens locks none.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
