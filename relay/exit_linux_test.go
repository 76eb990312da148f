package relay

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runBriefly runs command through a relay, the client writing input then
// closing the server's stdin, and returns what reached the client's stdout
// once the relay has returned; it fails the test when the relay has not
// returned within 30 s.
func runBriefly(t *testing.T, input string, command ...string) string {
	t.Helper()
	inR, inW := blockingPipe(t)
	outR, outW := blockingPipe(t)
	var out strings.Builder
	var wg sync.WaitGroup
	wg.Go(func() { io.Copy(&out, outR) })
	wg.Go(func() { io.WriteString(inW, input); inW.Close() })
	c := NewCopier(CopierOptions{Server: "brief"})
	defer c.Close()
	s := Stdio{Command: command[0], Args: command[1:], Stdin: inR, Stdout: outW, Stderr: io.Discard, Copy: c}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := s.Run(); err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the relay of %q had not returned after 30 s", command)
	}
	outW.Close()
	wg.Wait()
	inR.Close()
	return out.String()
}

// blockingPipe returns a pipe in blocking mode, as a process's stdin and
// stdout usually are (os.Pipe's are not).
func blockingPipe(t *testing.T) (r, w *os.File) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
}

// TestRelayEndsWithServer: a relay returns as its server ends, its output
// passed, and does not wait out pipeGrace (an hour here), even when the
// copy's pipe is full as the server's ends (tee(2) then says EAGAIN at the
// end of the server's pipe, as if more were to come).
func TestRelayEndsWithServer(t *testing.T) {
	defer func(g time.Duration) { pipeGrace = g }(pipeGrace)
	pipeGrace = time.Hour
	copyPipeSize.Store(4096)
	defer copyPipeSize.Store(0)
	frames := strings.Repeat(`{"text":"`+strings.Repeat("x", 1<<20)+`"}`+"\n", 5)
	for i := range 20 {
		if got := runBriefly(t, frames, "cat"); got != frames {
			t.Fatalf("run %d passed %d bytes, want the %d sent", i, len(got), len(frames))
		}
	}
}

// TestRelayEndsWithoutGrandchild: a grandchild that inherited the
// server's stdout does not keep the relay once the server has exited and
// the pipe stayed idle for pipeGrace.
func TestRelayEndsWithoutGrandchild(t *testing.T) {
	defer func(g time.Duration) { pipeGrace = g }(pipeGrace)
	pipeGrace = 50 * time.Millisecond
	if got := runBriefly(t, "", "sh", "-c", "sleep 5 & echo hi"); got != "hi\n" {
		t.Errorf("passed %q, want hi", got)
	}
}

// TestRelayKillsHelpersAtExit: a helper left in the server's process
// group, deaf to SIGTERM, does not outlive the server's exit.
func TestRelayKillsHelpersAtExit(t *testing.T) {
	got := runBriefly(t, "", "sh", "-c", `trap "" TERM HUP INT; sleep 301 </dev/null >/dev/null 2>&1 & echo $!`)
	pid, err := strconv.Atoi(strings.TrimSpace(got))
	if err != nil {
		t.Fatalf("the server printed %q, want its helper's pid", got)
	}
	gone := func() bool { // no such process, or a zombie
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		i := bytes.LastIndexByte(stat, ')')
		return err != nil || i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
	}
	for deadline := time.Now().Add(20 * time.Second); !gone(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the helper %d still runs 20 s after its server exited", pid)
		}
	}
}
