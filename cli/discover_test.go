//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/peak"
)

// TestDiscoverHostileConfigs runs `mcplens --discover` in a folder whose
// .mcp.json nests a million levels deep and whose .cursor/mcp.json is a
// FIFO nobody writes to: each gets one line saying why it cannot be used,
// the file beside them is listed, and mcplens ends at once rather than
// crashing on the nesting or blocking on the FIFO.
func TestDiscoverHostileConfigs(t *testing.T) {
	bin := build(t, "..")
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

// TestConfigFileBounds runs `mcplens check` on a 5 GB file, on /dev/zero
// and on a FIFO nobody writes to: each is refused with one line saying why
// (the first naming the limit and how to raise it), at once, with the
// process's peak memory that of reading nothing.
func TestConfigFileBounds(t *testing.T) {
	bin := build(t, "..")
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{huge, "huge.json is over the 4MiB config limit; raise it with --limit config=SIZE or MCPLENS_LIMIT_CONFIG"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
		{fifo, "fifo.json is a named pipe (FIFO), not a regular file"},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // against a hang only
		cmd := exec.CommandContext(ctx, bin, "check", tt.path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		rss, err := peak.Run(cmd)
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Fatalf("mcplens check %s still running after a minute", tt.path)
		}
		t.Logf("mcplens check %s: peak RSS %s", filepath.Base(tt.path), peak.MiB(rss))
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("mcplens check %s: exit %d (%v), said %q; want 2 and %q", tt.path, code, err, stderr.String(), tt.want)
		}
		// The kernel's figure for a child includes the test process's own
		// peak, which the child shared until it started mcplens: the bound
		// is above that.
		if limit := ownPeak(t) + 64<<20; rss > limit {
			t.Errorf("mcplens check %s peaked at %s, want under %s", tt.path, peak.MiB(rss), peak.MiB(limit))
		}
	}
}

// ownPeak returns the test process's peak resident set (VmHWM).
func ownPeak(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(kb, "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
