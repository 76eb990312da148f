package relay

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/recording"
)

// pipeGrace is how long the server's stdout and stderr may stay idle after
// it exits before the relay stops reading them: a grandchild that
// inherited them must not keep the relay alive.
var pipeGrace = 500 * time.Millisecond

// bufSize is the size of each read the relay passes on.
const bufSize = 256 << 10

// A Stdio relay runs a stdio server and stands between it and the client
// that ran the relay: every byte passes both ways as it came, and a copy
// goes to Copy, which can never slow or break the passthrough.
type Stdio struct {
	Command string
	Args    []string
	Env     []string // nil: the relay's own environment
	Dir     string   // "": the relay's own directory

	// The client's side: what it writes to the server, and where the
	// server's stdout and stderr go.
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	// Copy receives a copy of every frame (nil: none).
	Copy *Copier
	// Signals are forwarded to the server's process group as they arrive
	// (the caller has signal.Notify fill it: SIGINT, SIGTERM, SIGHUP). On
	// Windows any of them ends the server's job (procguard.Tree).
	Signals <-chan os.Signal
	// Guard, when set, kills the server's process group should the relay
	// die before it could (SIGKILL, the OOM killer): the parent-death
	// signal ends the server alone, not the helpers it started.
	Guard *procguard.Guard
}

// Run starts the server and passes bytes until it exits and its output is
// drained, and returns its exit status: its exit code, or 128 plus the
// signal that killed it. Once the server has exited, what is left of its
// process group (the helpers it started) is killed. The error is for a server that could not start.
// When the client closes stdin, the server's stdin is closed; when the
// client stops reading stdout, the server's stdout is closed, as a pipe
// between them would have been.
func (s *Stdio) Run() (int, error) {
	cmd, err := procguard.Command(s.Command, s.Args...) // npx.cmd on Windows
	if err != nil {
		return 0, err
	}
	cmd.Env, cmd.Dir = s.Env, s.Dir
	inR, inW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return 0, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return 0, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := s.Guard.Ready(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return 0, err
	}
	tree, err := procguard.Start(cmd)
	if err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return 0, err
	}
	defer tree.Close()
	closeAll(inR, outW, errW) // the server's ends
	pid := cmd.Process.Pid
	// The guard is told as soon as the group exists, before the server
	// has had the time to start anything.
	if err := s.Guard.Hold(pid); err != nil {
		tree.Kill()
		_ = cmd.Wait()
		closeAll(inW, outR, errR)
		return 0, err
	}
	widen(inW)
	widen(outR)
	for _, f := range []any{s.Stdin, s.Stdout} {
		if f, ok := f.(*os.File); ok {
			widen(f) // the client's pipes, when they are
		}
	}

	var exited atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		drain(s.Stdout, outR, s.Copy.Stream(recording.ServerToClient, Lines), &exited)
	}()
	go func() { defer wg.Done(); drain(s.Stderr, errR, s.Copy.Stream(recording.Stderr, Lines), &exited) }()
	go feed(inW, s.Stdin, s.Copy.Stream(recording.ClientToServer, Lines))

	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-s.Signals:
				_ = tree.Signal(sig) // the group, else the server alone
			case <-done:
				return
			}
		}
	}()
	waitErr := cmd.Wait()
	close(done)
	// No helper outlives its server; none left is fine. The group's id
	// stays taken while a member lives, so this reaches no stranger.
	tree.Kill()
	s.Guard.Release(pid)
	exited.Store(true)
	outR.SetReadDeadline(time.Now().Add(pipeGrace))
	errR.SetReadDeadline(time.Now().Add(pipeGrace))
	wg.Wait()
	closeAll(outR, errR)
	return exitStatus(cmd.ProcessState, waitErr), nil
}

// feed passes the client's bytes to the server's stdin until either side
// ends, then closes the server's stdin.
func feed(dst *os.File, src io.Reader, copy *Stream) {
	if feedSpliced(dst, src, copy) {
		return
	}
	defer dst.Close()
	buf := make([]byte, bufSize)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
			copy.Write(buf[:n])
		}
		if err != nil {
			copy.End()
			return
		}
	}
}

// drain passes the server's output to dst until the server's end closes,
// or dst fails (then the server's end is closed, so that it sees the
// broken pipe it would have seen), or the server has exited and the pipe
// stayed idle for pipeGrace.
func drain(dst io.Writer, src *os.File, copy *Stream, exited *atomic.Bool) {
	if drainSpliced(dst, src, copy, exited) {
		return
	}
	defer copy.End()
	buf := make([]byte, bufSize)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				src.Close()
				return
			}
			copy.Write(buf[:n])
			if exited.Load() {
				src.SetReadDeadline(time.Now().Add(pipeGrace))
			}
		}
		if err != nil {
			return
		}
	}
}

// exitStatus is the status a shell would give: the exit code, or 128 plus
// the signal that ended the process.
func exitStatus(ps *os.ProcessState, err error) int {
	if ps == nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ps = ee.ProcessState
		} else {
			return 1
		}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}
