//go:build linux

package procguard

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
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
	waitFor(t, "the group's two processes to run", func() bool { return len(groupMembers(pgid)) == 2 })
	return pgid
}

// groupMembers returns the live processes (zombies excluded) of group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		i := bytes.LastIndexByte(stat, ')')
		if err != nil || i < 0 {
			continue
		}
		// After the command: state, ppid, pgrp.
		f := bytes.Fields(stat[i+1:])
		if len(f) < 3 || string(f[0]) == "Z" || string(f[2]) != strconv.Itoa(pgid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// waitFor polls cond until it holds, failing the test after 20s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after 20s for %s", what)
		}
	}
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
	waitFor(t, "the guard to ignore SIGINT, SIGTERM and SIGHUP", func() bool { return ignores(g.cmd.Process.Pid, sigs...) })
	for _, sig := range sigs {
		g.cmd.Process.Signal(sig)
	}
	g.orphan() // returns once the guard has exited
	if state := g.cmd.ProcessState; !state.Exited() || state.ExitCode() != 0 {
		t.Errorf("the guard ended with %v, want exit status 0", state)
	}
	waitFor(t, "the held group to be killed", func() bool { return len(groupMembers(held)) == 0 })
	if left := groupMembers(released); len(left) != 2 {
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
	waitFor(t, "both groups to be killed", func() bool { return len(groupMembers(first))+len(groupMembers(second)) == 0 })
}
