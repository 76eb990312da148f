package relay

import "syscall"

// childAttr puts the server in a process group of its own, so a signal the
// relay forwards reaches the helpers it starts and a terminal's signal
// reaches the server once (through the relay), and asks the kernel to kill
// it should the relay die without forwarding anything (SIGKILL, a crash).
// The parent-death signal follows the thread that started the server,
// which the Go runtime ends only for a goroutine that exits locked to it;
// the relay locks none.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
