package procguard

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Subcommand is the hidden argument that makes the mcplens binary run as a
// process guard: `mcplens __process-guard`, which calls Serve.
const Subcommand = "__process-guard"

// guardPoll is how often a guard forgets the groups that have emptied: a
// process group id is free for reuse once its last member is gone, and a
// guard must not kill a stranger's group that took it.
const guardPoll = time.Second

// guardExitWait bounds how long Close waits for the guard to exit once its
// pipe is closed.
const guardExitWait = time.Second

// A Guard is a process that outlives mcplens (the inspector, or a tap) to
// kill the process groups of its stdio servers should mcplens die without
// stopping them (SIGKILL, the OOM killer, a crash). The parent-death
// signal (Linux only) reaches only each server's own process; a helper it started
// (`sh -c 'helper & exec server'`, what npx runs) lives on in the server's
// process group, and the guard kills that group.
//
// The guard is the mcplens binary run with Subcommand, started with the
// first group held, in a process group of its own. It reads the groups it
// is to watch from a pipe whose only write end mcplens holds: when that
// reaches end of file, however mcplens ended, it kills each group still
// held and exits. A group is held from its server's start until its owner
// has killed it at shutdown, and the guard itself forgets a group once it
// is empty.
//
// A descendant that leaves the group (setsid, setpgid) escapes it. One
// Guard serves every server of a run; a nil Guard guards nothing. On
// Windows no guard runs and Hold does nothing: each server's Tree is a job
// object that Windows itself ends when mcplens's last handle to it closes,
// however mcplens ends.
type Guard struct {
	command string
	args    []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	w    *os.File // the write end of the guard's stdin
	held map[int]bool
	done bool // Close has run
}

// New returns a guard run as command args (the mcplens binary and
// Subcommand). Nothing starts until a server is about to (Ready) or a
// group is held.
func New(command string, args ...string) *Guard {
	return &Guard{command: command, args: args, held: map[int]bool{}}
}

// Hold tells the guard to kill the process group pgid should mcplens die.
// A guard that has exited (someone killed it) is started again and told
// every group held.
func (g *Guard) Hold(pgid int) error {
	return g.locked(func() error {
		g.held[pgid] = true
		if g.w != nil && g.tell('+', pgid) == nil {
			return nil
		}
		if err := g.restart(); err != nil {
			delete(g.held, pgid)
			return err
		}
		return nil
	})
}

// Ready starts the guard, if it is not running, before a server is: Hold
// then only writes a line on a pipe, and the instant between a server's
// start and its group being held (in which mcplens could die and leave a
// helper the server just forked) is that write, not the guard's own start.
func (g *Guard) Ready() error {
	return g.locked(func() error {
		if g.w != nil {
			return nil
		}
		return g.restart()
	})
}

// locked runs f under the guard's lock, on a guard that guards (not nil,
// on a platform with a guard process) and is not closed.
func (g *Guard) locked(f func() error) error {
	if g == nil || !guarded {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return errors.New("the process guard is closed")
	}
	return f()
}

// restart starts the guard and tells it every group held.
func (g *Guard) restart() error {
	if err := g.start(); err != nil {
		return fmt.Errorf("starting the process guard: %w", err)
	}
	for id := range g.held {
		if err := g.tell('+', id); err != nil {
			return fmt.Errorf("telling the process guard: %w", err)
		}
	}
	return nil
}

// Release tells the guard that the group pgid has been killed and reaped:
// its id may be reused by anyone from now on.
func (g *Guard) Release(pgid int) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.held[pgid] {
		return
	}
	delete(g.held, pgid)
	if g.w != nil {
		_ = g.tell('-', pgid) // a guard that is gone holds nothing
	}
}

// Holds reports whether the guard holds the group pgid.
func (g *Guard) Holds(pgid int) bool {
	if g == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held[pgid]
}

// tell writes one instruction: '+' to hold a group, '-' to release it.
// The pipe is never full in practice (the guard reads as it comes), and a
// guard that is gone fails the write at once (EPIPE).
func (g *Guard) tell(op byte, pgid int) error {
	_, err := g.w.Write(append(strconv.AppendInt([]byte{op}, int64(pgid), 10), '\n'))
	return err
}

// start runs the guard process, replacing one that has exited.
func (g *Guard) start() error {
	if g.w != nil {
		g.w.Close()
		old := g.cmd
		go old.Wait() // it has exited or will, on end of file
		g.cmd, g.w = nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command(g.command, g.args...)
	cmd.Stdin = r // stdout and stderr: /dev/null, so the guard holds no terminal or pipe of mcplens's
	cmd.Dir = "/"
	cmd.SysProcAttr = guardAttr()
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return err
	}
	r.Close()
	g.cmd, g.w = cmd, w
	return nil
}

// Close ends the guard: it kills whatever group is still held (none, once
// every session is closed) and exits. Close waits for it, at most a second.
func (g *Guard) Close() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	if g.w == nil {
		return nil
	}
	g.w.Close()
	exited := make(chan struct{})
	go func() {
		g.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(guardExitWait):
		return errors.New("the process guard did not exit")
	}
	return nil
}
