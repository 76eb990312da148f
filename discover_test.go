package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDiscoverHostileConfigs runs `mcplens --discover` in a folder whose
// .mcp.json nests a million levels deep and whose .cursor/mcp.json is a
// FIFO nobody writes to: each gets one line saying why it cannot be used,
// the file beside them is listed, and mcplens ends at once rather than
// crashing on the nesting or blocking on the FIFO.
func TestDiscoverHostileConfigs(t *testing.T) {
	bin := build(t, ".")
	home := t.TempDir()
	project := filepath.Join(home, "app")
	for _, d := range []string{".cursor", ".vscode"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	deep := strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000)
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(deep), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(project, ".cursor", "mcp.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".vscode", "mcp.json"), []byte(`{"servers": {"v": {"command": "v"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "--discover")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("mcplens --discover still running after a minute; stdout:\n%s", stdout.String())
	}
	if err != nil {
		t.Fatalf("mcplens --discover: %v\nstderr:\n%.2000s", err, stderr.String())
	}
	got := stdout.String()
	lines := strings.Split(got, "\n")
	for _, want := range []struct{ file, says string }{
		{".mcp.json ", filepath.Join(project, ".mcp.json") + ":1:513: nested more than 512 levels deep"},
		{".cursor/mcp.json ", "loading config: " + filepath.Join(project, ".cursor", "mcp.json") + " is a named pipe (FIFO), not a regular file"},
		{".vscode/mcp.json ", "vscode  1 server(s): v"},
	} {
		found := false
		for _, l := range lines {
			l = strings.TrimSpace(l)
			found = found || strings.HasPrefix(l, want.file) && strings.Contains(l, want.says)
		}
		if !found {
			t.Errorf("mcplens --discover printed\n%s\nwant a line for %s saying %q", got, want.file, want.says)
		}
	}
}
