//go:build unix

package procguard

import (
	"os"
	"syscall"
)

// A Tree is a server and the processes it starts: on unix, the process
// group it leads (its pid is the group's id). A descendant that leaves
// the group (setsid, setpgid) leaves the tree.
type Tree struct {
	p *os.Process
}

func adopt(p *os.Process) (*Tree, error) { return &Tree{p: p}, nil }

// Pid is the id of the tree's root, which is also its group's.
func (t *Tree) Pid() int { return t.p.Pid }

// Signal sends sig to the group, or to the root alone when the group is
// gone (the root left it); once the root is reaped, to no one.
func (t *Tree) Signal(sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return t.p.Signal(sig)
	}
	// A negative pid names the group the root leads (Setpgid).
	if err := syscall.Kill(-t.p.Pid, s); err != nil {
		return t.p.Signal(sig)
	}
	return nil
}

// Close lets the tree go; on unix there is nothing to release.
func (t *Tree) Close() {}
