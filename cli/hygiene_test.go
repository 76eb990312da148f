//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// The tests below build the real mcplens binary and the hostile server,
// run mcplens on a config of misbehaving servers (one ignores stdin closing
// and SIGTERM, one never answers initialize, one floods list_changed, one
// floods stderr, one is slow, one is a shell that leaves a helper ignoring
// SIGTERM behind in its process group), end it every way it can end, and
// check the process table: no server process may outlive mcplens, nor its
// process guard, and the terminal must be left as it was found.

// hygieneConfig writes a config of hostile servers and returns its path.
func hygieneConfig(t *testing.T, dir, server string) string {
	t.Helper()
	servers := map[string]any{}
	for label, mode := range map[string]string{
		"stubborn": "stubborn", "silent": "silent-initialize", "flood": "list-changed-flood",
		"stderr": "stderr-flood", "slow": "slow-call", "ok": "ok",
	} {
		servers[label] = map[string]any{"command": server, "args": []string{"-mode", mode},
			"env": map[string]string{"API_TOKEN": "SECRET-IN-ENV"}}
	}
	// As `sh -c 'helper & exec server'` (npx and many wrappers do the
	// like): the helper is no child of mcplens, only a member of the
	// server's process group.
	servers["spawner"] = map[string]any{"command": "sh",
		"args": []string{"-c", `"$0" -mode stubborn </dev/null & exec "$0" -mode ok`, server}}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hostile.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// children returns the pids of live processes running the binary at path.
func children(path string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.HasPrefix(cmdline, []byte(path+"\x00")) {
			continue
		}
		// A zombie has ended; it waits only for a parent to reap it.
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// gone waits until no process runs path, and reports those still running
// after a generous deadline: a process that was sent SIGKILL takes a
// moment to die on a loaded machine, one that was forgotten never does.
func gone(path string) []int {
	deadline := time.Now().Add(20 * time.Second)
	for {
		left := children(path)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitChildren waits until n processes run path.
func waitChildren(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pids := children(path)
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d server processes started", len(pids), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A pty is a pseudo-terminal for mcplens to draw on.
type pty struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
}

func ioctl(fd uintptr, req uint, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(req), uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

// openPTY opens a pseudo-terminal of 40 rows and 160 columns and starts
// reading what is drawn on it.
func openPTY(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pty: %v", err)
	}
	var n uint32
	var unlock int32
	if err := ioctl(master.Fd(), syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatal(err)
	}
	if err := ioctl(master.Fd(), syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	ws := struct{ rows, cols, x, y uint16 }{40, 160, 0, 0}
	if err := ioctl(slave.Fd(), syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatal(err)
	}
	p := &pty{master: master, slave: slave}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { master.Close(); slave.Close() })
	return p
}

func (p *pty) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// cooked reports whether the terminal is in its ordinary mode (line
// editing and echo), as before mcplens put it in raw mode.
func (p *pty) cooked(t *testing.T) bool {
	t.Helper()
	var tio syscall.Termios
	if err := ioctl(p.slave.Fd(), syscall.TCGETS, unsafe.Pointer(&tio)); err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&syscall.ICANON != 0 && tio.Lflag&syscall.ECHO != 0
}

// rawMode waits until mcplens has put the terminal in raw mode.
func (p *pty) rawMode(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); p.cooked(t); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("mcplens never took the terminal within 20s; it drew:\n%q", p.output())
		}
	}
}

// exited waits for cmd to end and returns how long that took from since,
// and its exit code.
func exited(t *testing.T, cmd *exec.Cmd, done <-chan error, since time.Time, limit time.Duration) (time.Duration, int) {
	t.Helper()
	select {
	case err := <-done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return time.Since(since), code
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("mcplens still running %s after it was told to end", limit)
	}
	return 0, 0
}

func TestProcessHygiene(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	lens := hostile.Build(t, dir, ".", "mcplens")
	panicky := hostile.Build(t, dir, ".", "mcplens-panic", "-tags", "mcplens_panictest")
	cfg := hygieneConfig(t, dir, server)
	const servers = 8 // 7 servers, one with a helper

	tests := []struct {
		name string
		bin  string
		tty  bool
		// end ends mcplens once its servers run.
		end func(t *testing.T, cmd *exec.Cmd, p *pty)
		// code is the exit code wanted.
		code int
	}{
		{"q", lens, true, func(t *testing.T, _ *exec.Cmd, p *pty) { p.master.WriteString("q") }, 0},
		{"ctrl+c while connecting", lens, true, func(t *testing.T, _ *exec.Cmd, p *pty) { p.master.WriteString("\x03") }, 0},
		{"SIGTERM", lens, true, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGTERM) }, 0},
		{"SIGHUP", lens, true, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGHUP) }, 0},
		{"panic in the interface", panicky, true, func(t *testing.T, _ *exec.Cmd, p *pty) { p.master.WriteString("!") }, 1},
		// Headless (stdout not a terminal), mcplens prints the check
		// report of what it got so far and fails.
		{"SIGTERM, headless", lens, false, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGTERM) }, 1},
		{"SIGHUP, headless", lens, false, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGHUP) }, 1},
		{"SIGINT, headless", lens, false, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGINT) }, 1},
		// Nothing can be caught: the kernel kills the servers as mcplens
		// dies, and the guard their process groups (the terminal stays
		// raw; no program can help that).
		{"SIGKILL", lens, false, func(t *testing.T, cmd *exec.Cmd, _ *pty) { cmd.Process.Signal(syscall.SIGKILL) }, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(tt.bin, cfg)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color")
			var p *pty
			var stdout, stderr bytes.Buffer
			if tt.tty {
				p = openPTY(t)
				cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
			} else {
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			pids := waitChildren(t, server, servers)
			if tt.tty {
				p.rawMode(t)
			}
			if tt.name != "ctrl+c while connecting" {
				time.Sleep(500 * time.Millisecond) // connected, flooding, silent one still connecting
			}
			start := time.Now()
			tt.end(t, cmd, p)
			took, code := exited(t, cmd, done, start, 20*time.Second)
			t.Logf("mcplens exited %s after being told, code %d", took, code)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; output:\n%s%s", code, tt.code, stderr.String(), tail(p))
			}
			// The figure is measured by the shutdown benchmark; here only a
			// wait the escalation did not end fails (timing flakes under load).
			if took > 10*time.Second {
				t.Errorf("mcplens took %s to exit: the shutdown escalation did not end it", took)
			}
			if left := gone(server); len(left) > 0 {
				t.Errorf("server processes %v outlived mcplens (of %v)", left, pids)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			// The guard, the mcplens binary itself, exits once its pipe ends.
			if left := gone(tt.bin); len(left) > 0 {
				t.Errorf("processes %v of the mcplens binary (the guard) outlived mcplens", left)
				for _, pid := range left {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			out := stdout.String() + stderr.String()
			if tt.tty {
				out = p.output()
				if !p.cooked(t) {
					t.Errorf("the terminal was left in raw mode")
				}
				on, off := strings.LastIndex(out, "\x1b[?1049h"), strings.LastIndex(out, "\x1b[?1049l")
				if on < 0 || off < on {
					t.Errorf("the alternate screen was not left (entered at %d, left at %d)", on, off)
				}
			}
			if strings.Contains(out, "SECRET-IN-ENV") {
				t.Errorf("an env value was written to the terminal or the output")
			}
		})
	}
}

func tail(p *pty) string {
	if p == nil {
		return ""
	}
	out := p.output()
	return fmt.Sprintf("%q", out[max(0, len(out)-2000):])
}
