package loader

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader/config"
)

// Shutdown timing: how long a child gets after its stdin closes, and after
// SIGTERM, before the next step. With the final wait after SIGKILL a stop
// takes at most about stopBudget.
const (
	stdinGrace = 400 * time.Millisecond
	termGrace  = 400 * time.Millisecond
	killGrace  = 500 * time.Millisecond
	stopBudget = stdinGrace + termGrace + killGrace

	// pipeGrace is how long the pipes may stay open after the child exits:
	// a grandchild that inherited them must not keep a reader waiting.
	pipeGrace = 250 * time.Millisecond
)

// stderrTail bounds how much of a server's stderr is kept.
const stderrTail = 8 << 10

// A process is one server child: spawned, piped and reaped by the loader
// itself rather than by mcp-go, so every byte can be tapped and no child
// escapes shutdown. It leads its own process group, so signals reach any
// helpers it starts too, and the guard, when there is one, kills that group
// should mcplens die before it could.
type process struct {
	cmd    *exec.Cmd
	pid    int
	tree   *procguard.Tree // its process group, or its job object on Windows
	stdin  *stdinPipe      // write end
	stdout *os.File        // read end
	stderr *ring
	guard  *procguard.Guard // nil: none

	exited  chan struct{} // closed once the child is reaped
	waitErr error         // how it ended; read after exited is closed

	stderrDone chan struct{} // closed once stderr reached end of file
	releaseOne sync.Once
	released   chan struct{} // closed once the read ends are closed
	errR       *os.File
}

// ServerCommand is the command of a stdio server as the clients run it:
// found as they find it (procguard.Command: npx.cmd on Windows), with the
// environment of mcplens plus spec.Env, in spec.Cwd ("" is mcplens's own
// directory). The loader and the audit start servers with it.
func ServerCommand(spec config.ServerSpec) (*exec.Cmd, error) {
	cmd, err := procguard.Command(spec.Command, spec.Args...)
	if err != nil {
		return nil, err
	}
	cmd.Env = os.Environ()
	for _, kv := range spec.Env {
		cmd.Env = append(cmd.Env, kv.Key+"="+kv.Value)
	}
	cmd.Dir = spec.Cwd
	return cmd, nil
}

// spawn starts spec's command (ServerCommand) found as the clients find it
// (procguard.Command: npx.cmd on Windows), with the environment of mcplens
// plus spec.Env, and has guard hold its process group.
func spawn(spec config.ServerSpec, stderr *ring, guard *procguard.Guard) (*process, error) {
	cmd, err := ServerCommand(spec)
	if err != nil {
		return nil, err
	}

	var files []*os.File // every end, closed on failure
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := guard.Ready(); err != nil {
		closeAll()
		return nil, err
	}
	tree, err := procguard.Start(cmd)
	if err != nil {
		closeAll()
		return nil, err
	}
	// The child holds its own copies; ours would keep its stdout open
	// after it exits.
	inR.Close()
	outW.Close()
	errW.Close()
	// The guard is told as soon as the group exists, before the server
	// has had the time to start anything.
	if err := guard.Hold(cmd.Process.Pid); err != nil {
		tree.Kill()
		_ = cmd.Wait()
		tree.Close()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}

	p := &process{
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		tree:       tree,
		stdin:      &stdinPipe{f: inW},
		stdout:     outR,
		stderr:     stderr,
		guard:      guard,
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
		released:   make(chan struct{}),
		errR:       errR,
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := errR.Read(buf)
			p.stderr.Write(buf[:n])
			if err != nil {
				break
			}
		}
		close(p.stderrDone)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// status describes how the child ended, or "" while it runs.
func (p *process) status() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	if p.waitErr == nil {
		return "exit status 0"
	}
	var exitErr *exec.ExitError
	if errors.As(p.waitErr, &exitErr) {
		return exitErr.Error() // "exit status 3", "signal: killed"
	}
	return p.waitErr.Error()
}

// waitExit reports whether the child has been reaped within d.
func (p *process) waitExit(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// settle waits, after the child exited, until stdout (whose end of file is
// stdoutEOF) and stderr have been read to the end, at most pipeGrace; then
// it closes our read ends, which ends any read still blocked because a
// grandchild holds the other end. It ends at once when they are closed
// already (stop, once the child is reaped: nobody reads them after Close).
func (p *process) settle(stdoutEOF <-chan struct{}) {
	<-p.exited
	t := time.NewTimer(pipeGrace)
	defer t.Stop()
	for _, done := range []<-chan struct{}{stdoutEOF, p.stderrDone} {
		select {
		case <-done:
		case <-p.released:
			return
		case <-t.C:
			p.release()
			return
		}
	}
	p.release()
}

// release closes the read ends. Stdin stays open until the connection is
// closed: a write to a dead child then fails as a broken pipe rather than
// as a use of a closed file, and closing it is the connection's job.
func (p *process) release() {
	p.releaseOne.Do(func() {
		p.stdout.Close()
		p.errR.Close()
		close(p.released)
	})
}

// stop ends the child, escalating: stdin is closed (by the caller), then
// SIGTERM, then SIGKILL, each to the whole process group (on Windows both
// terminate the job). Whatever the leader did, the group is killed at the
// end so no helper outlives it; only then is the guard told to let the
// group go. A leader that could not be reaped keeps its group held.
func (p *process) stop() {
	if !p.waitExit(stdinGrace) {
		p.signal(syscall.SIGTERM)
		if !p.waitExit(termGrace) {
			p.signal(syscall.SIGKILL)
			p.waitExit(killGrace)
		}
	}
	p.tree.Kill() // stragglers in the group; none is fine
	if p.waitExit(0) {
		p.guard.Release(p.pid)
		p.tree.Close()
		// The connection is closed: its transport reads stdout no more,
		// so waiting pipeGrace for an end of file nobody reads would
		// only delay the exit.
		p.release()
	}
}

func (p *process) signal(sig syscall.Signal) { _ = p.tree.Signal(sig) }

// A ring keeps the last bytes written to it.
type ring struct {
	mu   sync.Mutex
	buf  []byte
	max  int
	lost int // bytes dropped from the front
}

func newRing(max int) *ring { return &ring{max: max} }

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		r.lost += over
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	return len(p), nil
}

// String returns the tail, marked when older output was dropped.
func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lost > 0 {
		return fmt.Sprintf("[%d earlier bytes dropped]\n%s", r.lost, r.buf)
	}
	return string(r.buf)
}
