package loader

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
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

// TestSessionGuardsEveryServer checks that a session with a guard has it
// hold each server's group while it runs, and release it once killed.
func TestSessionGuardsEveryServer(t *testing.T) {
	g := testGuard(t)
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{{Label: "a", Command: "sh", Args: []string{"-c", "sleep 301 & exec sleep 300"}}}}
	s := Open(cfg, Options{Guard: g})
	waitFor(t, "the server to start", func() bool { return s.Pid("a") != 0 })
	pid := s.Pid("a")
	if !g.Holds(pid) {
		t.Errorf("the guard does not hold the group of server a (%d)", pid)
	}
	s.Close()
	if g.Holds(pid) {
		t.Errorf("the guard still holds the group of server a after Close")
	}
	waitFor(t, "server a's group to be gone", func() bool { return len(groupMembers(pid)) == 0 })
}
