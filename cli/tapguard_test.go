//go:build linux

package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestTapKilledTakesItsServersHelpers: a real tap, its server a shell
// that leaves a helper behind and becomes the server itself (what npx and
// many wrappers do), is killed with SIGKILL; the server and its helper
// are gone soon after, the helper killed by the tap's process guard.
func TestTapKilledTakesItsServersHelpers(t *testing.T) {
	bin := build(t, "..")
	// The server and its helper run a copy of sleep under a name of this
	// test's own, so that /proc tells them apart from any other process.
	sleepy := filepath.Join(t.TempDir(), "sleepy")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sleepy, data, 0o755); err != nil {
		t.Fatal(err)
	}
	tap := exec.Command(bin, "tap", "--feed=false", "--", "sh", "-c", `trap "" TERM HUP INT; "$0" 301 & exec "$0" 300`, sleepy)
	stdin, err := tap.StdinPipe() // held open: the tap waits on its server
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	tap.Stdout, tap.Stderr = io.Discard, io.Discard
	if err := tap.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range children(sleepy) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	waitChildren(t, sleepy, 2)
	if err := tap.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	tap.Wait()
	if left := gone(sleepy); len(left) > 0 {
		t.Fatalf("processes %v of the killed tap's server still run", left)
	}
}
