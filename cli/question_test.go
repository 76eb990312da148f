//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// The tests below run the real mcplens on a pseudo-terminal, connected as
// VS Code (which declares sampling and elicitation) to a hostile server
// that asks a question of megabytes as soon as it is initialized: the
// screen must go on answering keys with the question open, and ctrl+c,
// SIGTERM and SIGHUP must each end mcplens and its server.

// askingConfig writes a config of one hostile server in mode, with flags.
func askingConfig(t *testing.T, dir, server, mode string, flags ...string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"asker": map[string]any{"command": server, "args": append([]string{"-mode", mode}, flags...)}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, mode+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// drawn waits until the terminal shows text, after from bytes of output.
func (p *pty) drawn(t *testing.T, from int, text string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(p.output()[from:], text); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal did not show %q within 30s; it shows:%s", text, tail(p))
		}
	}
}

// startLens starts mcplens on cfg on a new pseudo-terminal, connected as
// VS Code.
func startLens(t *testing.T, lens, cfg string) (*exec.Cmd, *pty, <-chan error) {
	t.Helper()
	p := openPTY(t)
	cmd := exec.Command(lens, "--client", "vscode", cfg)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	p.rawMode(t)
	return cmd, p, done
}

// rss returns the resident set of process pid now and at its peak, in
// bytes, from /proc.
func rss(pid int) (now, peak int64) {
	status, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	field := func(name string) int64 {
		_, rest, _ := bytes.Cut(status, []byte(name+":"))
		line, _, _ := bytes.Cut(rest, []byte("kB"))
		kb, _ := strconv.ParseInt(string(bytes.TrimSpace(line)), 10, 64)
		return kb << 10
	}
	return field("VmRSS"), field("VmHWM")
}

func TestBigQuestionTerminal(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	lens := hostile.Build(t, dir, ".", "mcplens")
	ends := []struct {
		name string
		end  func(cmd *exec.Cmd, p *pty)
	}{
		{"ctrl+c", func(_ *exec.Cmd, p *pty) { p.master.WriteString("\x03") }},
		{"SIGTERM", func(cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGTERM) }},
		{"SIGHUP", func(cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGHUP) }},
	}
	for _, q := range []struct{ mode, asks string }{
		{"big-sampling", "asks for a model's reply"},      // 4 MiB
		{"big-elicitation", "asks you to fill in a form"}, // 1 MiB
	} {
		cfg := askingConfig(t, dir, server, q.mode)
		for _, e := range ends {
			t.Run(q.mode+"/"+e.name, func(t *testing.T) {
				cmd, p, done := startLens(t, lens, cfg)
				p.drawn(t, 0, q.asks)
				// The screen answers keys with the question open: the
				// reader opens on its whole text, and esc closes it.
				at := len(p.output())
				p.master.WriteString("\x0f") // ctrl+o
				p.drawn(t, at, "lines 1–")
				at = len(p.output())
				p.master.WriteString("\x1b")
				p.drawn(t, at, "reads it in full")
				now, peak := rss(cmd.Process.Pid)
				start := time.Now()
				e.end(cmd, p)
				took, code := exited(t, cmd, done, start, 10*time.Second)
				t.Logf("%s with a %s question open: exited after %s, code %d; resident %.1f MiB, at most %.1f MiB",
					e.name, q.mode, took, code, float64(now)/(1<<20), float64(peak)/(1<<20))
				if code != 0 {
					t.Errorf("exit code %d, want 0; output:%s", code, tail(p))
				}
				if left := gone(server); len(left) > 0 {
					t.Errorf("server processes %v outlived mcplens", left)
					for _, pid := range left {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
				if !p.cooked(t) {
					t.Error("the terminal was left in raw mode")
				}
			})
		}
	}
}

// TestOverLimitQuestionTerminal: a 12 MiB sampling request, under the line
// limit and over the question limit, is refused: the server's row says so,
// the interface goes on, and mcplens stays small.
func TestOverLimitQuestionTerminal(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	lens := hostile.Build(t, dir, ".", "mcplens")
	cfg := askingConfig(t, dir, server, "big-sampling", "-size", strconv.Itoa(12<<20))
	cmd, p, done := startLens(t, lens, cfg)
	p.drawn(t, 0, "question limit")
	if strings.Contains(p.output(), "asks for a model's reply") {
		t.Error("a question over the limit was asked")
	}
	at := len(p.output())
	p.master.WriteString("w") // the interface goes on: the wire pane opens, the refusal in it
	p.drawn(t, at, "request too large")
	now, peak := rss(cmd.Process.Pid)
	t.Logf("after refusing a 12 MiB question: resident %.1f MiB, at most %.1f MiB", float64(now)/(1<<20), float64(peak)/(1<<20))
	if peak > 300<<20 {
		t.Errorf("mcplens grew to %.1f MiB refusing a 12 MiB question, want under 300 MiB", float64(peak)/(1<<20))
	}
	start := time.Now()
	p.master.WriteString("\x03")
	took, code := exited(t, cmd, done, start, 10*time.Second)
	t.Logf("ctrl+c: exited after %s, code %d", took, code)
	if left := gone(server); len(left) > 0 {
		t.Errorf("server processes %v outlived mcplens", left)
	}
}

// TestSignalStuckFrame: SIGTERM and SIGHUP end mcplens even while the
// interface is inside a frame that does not end (the test build's "~"
// takes a minute): the terminal is restored and no server outlives it.
func TestSignalStuckFrame(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	stuck := hostile.Build(t, dir, ".", "mcplens-panic", "-tags", "mcplens_panictest")
	cfg := askingConfig(t, dir, server, "ok")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, p, done := startLens(t, stuck, cfg)
			p.drawn(t, 0, "asker")
			waitChildren(t, server, 1)
			p.master.WriteString("~")
			time.Sleep(200 * time.Millisecond) // not a wait for a state: time for the key to reach the frame it stops
			start := time.Now()
			cmd.Process.Signal(sig)
			took, code := exited(t, cmd, done, start, 10*time.Second)
			t.Logf("%s in a stuck frame: exited after %s, code %d", sig, took, code)
			if code != 1 {
				t.Errorf("exit code %d, want 1 (ended without the interface); output:%s", code, tail(p))
			}
			if left := gone(server); len(left) > 0 {
				t.Errorf("server processes %v outlived mcplens", left)
			}
			if !p.cooked(t) {
				t.Error("the terminal was left in raw mode")
			}
		})
	}
}
