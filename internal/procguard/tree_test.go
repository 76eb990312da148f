//go:build linux

package procguard

import (
	"github.com/mcplens/mcplens/internal/testkit/proctest"
	"os/exec"
	"syscall"
	"testing"
)

// A Tree started with Start leads its own group, and Kill ends the helper
// the root left behind along with the root.
func TestTreeKillEndsTheHelpers(t *testing.T) {
	cmd := exec.Command("sh", "-c", `trap "" TERM HUP INT; sleep 301 & exec sleep 300`)
	tree, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	t.Cleanup(func() { syscall.Kill(-tree.Pid(), syscall.SIGKILL) })
	go cmd.Wait()
	if pgid, _ := syscall.Getpgid(tree.Pid()); pgid != tree.Pid() {
		t.Fatalf("the root is in group %d, want its own (%d)", pgid, tree.Pid())
	}
	proctest.WaitFor(t, "the tree's two processes to run", func() bool { return len(proctest.GroupMembers(tree.Pid())) == 2 })
	// SIGTERM is ignored by both: the group stays.
	if err := tree.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	tree.Kill()
	proctest.WaitFor(t, "the tree to be killed", func() bool { return len(proctest.GroupMembers(tree.Pid())) == 0 })
}

// A command that cannot start leaves no tree.
func TestTreeStartFails(t *testing.T) {
	if tree, err := Start(exec.Command("/nonexistent/mcplens-no-such-server")); err == nil || tree != nil {
		t.Fatalf("Start = %v, %v; want an error", tree, err)
	}
}
