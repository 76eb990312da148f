//go:build unix

package procguard

import (
	"bufio"
	"errors"
	"io"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// guarded: on unix a guard process holds the servers' process groups.
const guarded = true

// guardAttr starts the guard in a process group of its own: a ctrl+c on
// the terminal, which signals mcplens's group, must not reach it.
func guardAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// Serve is the guard process: it reads instructions from in ("+PGID"
// holds a process group, "-PGID" releases it), and when in reaches end of
// file or fails, it sends SIGKILL to every group still held and returns.
// It ignores SIGINT, SIGTERM and SIGHUP: a signal that ends mcplens's
// group or terminal must not end the guard before it has done its work.
func Serve(in io.Reader) error {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	held := map[int]bool{}
	tick := time.NewTicker(guardPoll)
	defer tick.Stop()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				for pgid := range held {
					_ = syscall.Kill(-pgid, syscall.SIGKILL)
				}
				return nil
			}
			pgid, err := strconv.Atoi(line[min(1, len(line)):])
			if err != nil || pgid <= 1 {
				continue // never kill(-1) or kill(0): every process, our own group
			}
			switch line[0] {
			case '+':
				held[pgid] = true
			case '-':
				delete(held, pgid)
			}
		case <-tick.C:
			for pgid := range held {
				if !groupExists(pgid) {
					delete(held, pgid)
				}
			}
		}
	}
}

// groupExists reports whether a process group has a member, zombies
// included: a group id stays taken until its last member is reaped.
func groupExists(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
