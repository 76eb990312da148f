package procguard

import "syscall"

// childAttr puts a server in a process group of its own, so that a signal
// reaches the helpers it starts, and has the kernel kill it should
// mcplens die without stopping it (SIGKILL, a crash). The parent-death
// signal follows the thread that started the child, which the Go runtime
// ends only for a goroutine that exits locked to it; mcplens locks none.
func childAttr(*syscall.SysProcAttr) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
