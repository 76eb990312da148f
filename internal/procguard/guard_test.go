//go:build linux

package procguard

import (
	"bytes"
	"github.com/mcplens/mcplens/internal/testkit/proctest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// The test binary doubles as the guard, as the mcplens binary does.
func init() {
	if len(os.Args) >= 2 && os.Args[1] == Subcommand {
		if err := Serve(os.Stdin); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// testGuard returns a guard run by this test binary, closed after the test.
func testGuard(t *testing.T) *Guard {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g := New(exe, Subcommand)
	t.Cleanup(func() { g.Close() })
	return g
}

// startGroup starts, in a process group of its own, a shell that leaves a
// helper ignoring SIGTERM, SIGHUP and SIGINT behind and becomes a sleep
// itself, as `sh -c 'helper & exec server'` does; it returns the group id
// once both run. The group is killed after the test.
func startGroup(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sh", "-c", `trap "" TERM HUP INT; sleep 301 & exec sleep 300`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	go cmd.Wait()
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	proctest.WaitFor(t, "the group's two processes to run", func() bool { return len(proctest.GroupMembers(pgid)) == 2 })
	return pgid
}

// ignores reports whether process pid ignores every one of sigs.
func ignores(pid int, sigs ...syscall.Signal) bool {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return false
	}
	_, rest, _ := bytes.Cut(status, []byte("SigIgn:\t"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	mask, err := strconv.ParseUint(string(line), 16, 64)
	if err != nil {
		return false
	}
	for _, sig := range sigs {
		if mask&(1<<(sig-1)) == 0 {
			return false
		}
	}
	return true
}

// orphan closes the guard's pipe without a word, as mcplens dying does.
func (g *Guard) orphan() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.w.Close()
	g.cmd.Wait()
	g.w, g.done = nil, true
}

func TestGuardKillsHeldGroupsWhenItsPipeEnds(t *testing.T) {
	g := testGuard(t)
	held, released := startGroup(t), startGroup(t)
	for _, pgid := range []int{held, released} {
		if err := g.Hold(pgid); err != nil {
			t.Fatal(err)
		}
	}
	g.Release(released)
	// A ctrl+c, a SIGTERM or a SIGHUP meant for mcplens does not end it.
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	proctest.WaitFor(t, "the guard to ignore SIGINT, SIGTERM and SIGHUP", func() bool { return ignores(g.cmd.Process.Pid, sigs...) })
	for _, sig := range sigs {
		g.cmd.Process.Signal(sig)
	}
	g.orphan() // returns once the guard has exited
	if state := g.cmd.ProcessState; !state.Exited() || state.ExitCode() != 0 {
		t.Errorf("the guard ended with %v, want exit status 0", state)
	}
	proctest.WaitFor(t, "the held group to be killed", func() bool { return len(proctest.GroupMembers(held)) == 0 })
	if left := proctest.GroupMembers(released); len(left) != 2 {
		t.Errorf("the released group has %d processes, want its 2 left alone", len(left))
	}
}

func TestGuardStartsAgainWhenKilled(t *testing.T) {
	g := testGuard(t)
	first, second := startGroup(t), startGroup(t)
	if err := g.Hold(first); err != nil {
		t.Fatal(err)
	}
	old := g.cmd
	old.Process.Kill()
	old.Wait()
	if err := g.Hold(second); err != nil {
		t.Fatal(err)
	}
	if g.cmd == old {
		t.Fatal("the guard was not started again")
	}
	g.orphan()
	proctest.WaitFor(t, "both groups to be killed", func() bool { return len(proctest.GroupMembers(first))+len(proctest.GroupMembers(second)) == 0 })
}

// TestGuardReadyBeforeTheServer: Ready starts the guard before any group
// exists, so that holding one is a write on a running guard's pipe: the
// guard Hold then tells is the one Ready started, and it kills the group
// when its pipe ends.
func TestGuardReadyBeforeTheServer(t *testing.T) {
	g := testGuard(t)
	if err := g.Ready(); err != nil {
		t.Fatal(err)
	}
	started := g.cmd
	if started == nil {
		t.Fatal("Ready started no guard")
	}
	if err := g.Ready(); err != nil || g.cmd != started {
		t.Fatalf("a second Ready started another guard (err %v)", err)
	}
	pgid := startGroup(t)
	if err := g.Hold(pgid); err != nil {
		t.Fatal(err)
	}
	if g.cmd != started {
		t.Fatal("Hold started another guard after Ready")
	}
	g.orphan()
	proctest.WaitFor(t, "the held group to be killed", func() bool { return len(proctest.GroupMembers(pgid)) == 0 })
}
