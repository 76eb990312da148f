//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// quitLimit is how long mcplens may take to exit after q beside a server
// flooding it with large re-listings: the shutdown escalation (0.8 s) and
// a second, with room for a loaded machine. The figure is logged.
const quitLimit = 3 * time.Second

// TestQuitUnderRelistFlood runs mcplens on a terminal beside a server that
// sends tools/list_changed 100 times a second and answers each tools/list
// with 6 MB, lets the flood run, and presses q: mcplens exits within
// quitLimit, leaving no server behind.
func TestQuitUnderRelistFlood(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	lens := hostile.Build(t, dir, ".", "mcplens")
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"big": map[string]any{"command": server, "args": []string{"-mode", "list-changed-flood-big"}},
		"ok":  map[string]any{"command": server, "args": []string{"-mode", "ok"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "flood.json")
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(lens, cfg)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	p := openPTY(t)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	})
	waitChildren(t, server, 2)
	p.rawMode(t)
	time.Sleep(8 * time.Second) // not a wait for anything: the flood running

	start := time.Now()
	p.master.WriteString("q")
	took, code := exited(t, cmd, done, start, quitLimit)
	t.Logf("mcplens exited %s after q, under the flood", took.Round(time.Millisecond))
	if code != 0 {
		t.Errorf("exit code %d, want 0; output:\n%s", code, tail(p))
	}
	for deadline := time.Now().Add(10 * time.Second); len(children(server)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("server processes %v outlived mcplens", children(server))
		}
	}
}
