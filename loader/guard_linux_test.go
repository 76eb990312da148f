package loader

import (
	"os"
	"testing"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/internal/testkit/proctest"
	"github.com/mcplens/mcplens/loader/config"
)

// testGuard returns a guard run by this test binary, closed after the test.
func testGuard(t *testing.T) *procguard.Guard {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g := procguard.New(exe, procguard.Subcommand)
	t.Cleanup(func() { g.Close() })
	return g
}

// TestSessionGuardsEveryServer checks that a session with a guard has it
// hold each server's group while it runs, and release it once killed.
func TestSessionGuardsEveryServer(t *testing.T) {
	g := testGuard(t)
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{{Label: "a", Command: "sh", Args: []string{"-c", "sleep 301 & exec sleep 300"}}}}
	s := Open(cfg, Options{Guard: g})
	proctest.WaitFor(t, "the server to start", func() bool { return s.Pid("a") != 0 })
	pid := s.Pid("a")
	if !g.Holds(pid) {
		t.Errorf("the guard does not hold the group of server a (%d)", pid)
	}
	s.Close()
	if g.Holds(pid) {
		t.Errorf("the guard still holds the group of server a after Close")
	}
	proctest.WaitFor(t, "server a's group to be gone", func() bool { return len(proctest.GroupMembers(pid)) == 0 })
}
