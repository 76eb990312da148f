//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// deafCall prepares `mcplens call` of the tool echo of a server that stops
// reading its stdin after tools/list, with arguments of 1 MB: more than the
// pipe holds. It returns the command, not started, and the server's path.
func deafCall(t *testing.T, flags ...string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	lens := build(t, "..")
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"deaf": map[string]any{"command": server, "args": []string{"-mode", "stop-reading"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfgPath, argsPath := filepath.Join(dir, "deaf.json"), filepath.Join(dir, "args.json")
	args := `{"text":"` + strings.Repeat("x", 1<<20) + `"}`
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(argsPath, []byte(args), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lens, append([]string{"call", cfgPath, "echo", "--args", "@" + argsPath}, flags...)...)
	return cmd, server
}

// startCall starts cmd with its stdout and stderr kept, and returns where its
// exit arrives.
func startCall(t *testing.T, cmd *exec.Cmd) (stdout, stderr *bytes.Buffer, done <-chan error) {
	t.Helper()
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan error, 1)
	go func() { ch <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	})
	return stdout, stderr, ch
}

// callExit waits for the command's end, failing the test when it still
// runs after a deadline far past any bound mcplens sets here.
func callExit(t *testing.T, done <-chan error, stderr *bytes.Buffer) int {
	t.Helper()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(60 * time.Second):
		t.Fatalf("mcplens call still running after 60s; stderr so far:\n%s", stderr)
	}
	return 0
}

// pipeHeld returns how many bytes wait unread in the stdin pipe of process
// pid, or -1 when it cannot tell.
func pipeHeld(pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil {
		return -1
	}
	defer f.Close()
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return -1
	}
	return int(n)
}

// TestCallTimeoutBoundsAStalledWrite: --timeout bounds the call too, even
// when the request cannot be written because the server stopped reading.
func TestCallTimeoutBoundsAStalledWrite(t *testing.T) {
	cmd, _ := deafCall(t, "--timeout", "8s") // it bounds the connect too: generous for a loaded machine
	_, stderr, done := startCall(t, cmd)
	if code := callExit(t, done, stderr); code != exitFound {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	if got := stderr.String(); !strings.Contains(got, "stopped reading its stdin") || !strings.Contains(got, "--timeout") {
		t.Errorf("stderr does not say the server stopped reading and how to raise the limit:\n%s", got)
	}
}

// TestCallEndsOnASignalWhileBlocked: a signal ends `mcplens call` while its
// request is stuck in the pipe of a server that does not read.
func TestCallEndsOnASignalWhileBlocked(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, server := deafCall(t)
			_, stderr, done := startCall(t, cmd)
			// Blocked: the server's stdin pipe is full of the request.
			deadline := time.Now().Add(20 * time.Second)
			for {
				pids := children(server)
				if len(pids) == 1 && pipeHeld(pids[0]) >= 32<<10 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the request never filled the server's pipe; stderr:\n%s", stderr)
				}
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			if code := callExit(t, done, stderr); code != exitFound {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitFound, stderr)
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("stderr does not say the call was interrupted:\n%s", stderr)
			}
			if left := gone(server); len(left) > 0 {
				t.Errorf("server processes %v outlived mcplens", left)
			}
		})
	}
}
