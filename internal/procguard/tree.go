package procguard

import (
	"os"
	"os/exec"
)

// Start starts cmd as the root of a Tree: its SysProcAttr is set for the
// platform (a process group of its own on unix, a job object on Windows;
// a command line set by Command is kept),
// and the tree is ready to be ended whole once Start returns. On an error
// nothing is left running.
func Start(cmd *exec.Cmd) (*Tree, error) {
	cmd.SysProcAttr = childAttr(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t, err := adopt(cmd.Process)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	return t, nil
}

// Kill ends every process of the tree at once (SIGKILL to the group, or
// the job terminated).
func (t *Tree) Kill() { _ = t.Signal(os.Kill) }
