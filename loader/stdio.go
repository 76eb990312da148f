package loader

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcplens/mcplens/mcpsession"
)

// startChild spawns the server's process and returns its client, or nil
// when it could not start (reported).
func (c *conn) startChild() *client.Client {
	if c.spec.Cwd != "" {
		if _, err := os.Stat(c.spec.Cwd); err != nil {
			c.fail(fmt.Sprintf("starting %q: working directory %q: %v", c.spec.Command, c.spec.Cwd, startErr(err)), "")
			return nil
		}
	}
	p, err := spawn(c.spec, c.stderr, c.s.opts.Guard)
	if err != nil {
		c.fail(fmt.Sprintf("starting %q: %v", c.spec.Command, startErr(err)), "")
		return nil
	}
	stdout := newTapReader(p.stdout, c, c.s.opts.Limits.Line)
	stdin := newTapWriter(p.stdin, c)
	c.pages = newPageTaker(c.s.opts.Limits.Page, stdin, stdout.eof)
	// The transport gets the tapped pipes and no stderr: stderr is drained
	// here, and the process is ours to reap. NewIO takes no options: its
	// logger is set as the stdio option does it, before it starts.
	io := transport.NewIO(stdout, stdin, nil)
	transport.WithCommandLogger(c.s.opts.Logger)(io)
	c.era = &eraWatch{}
	cl := c.newClient(watchedIO{io, c.era})

	c.s.wg.Go(func() { p.settle(stdout.eof) })
	c.mu.Lock()
	if c.closing.Load() {
		// Close ran while the child was starting; it found no process to
		// stop (closing is set before terminate looks), so stop it here.
		c.mu.Unlock()
		_ = p.stdin.Close()
		p.stop()
		return nil
	}
	c.proc, c.tap, c.client, c.lister = p, stdout, cl, &lister{pager: c.pages}
	c.mu.Unlock()
	c.s.wg.Go(func() { c.watchExit(p, stdout.eof) })
	return cl
}

// overLimit returns the error of a line of the child's stdout that went
// over the line limit, or nil.
func (c *conn) overLimit() *LimitError {
	c.mu.Lock()
	tap := c.tap
	c.mu.Unlock()
	if tap == nil {
		return nil
	}
	return tap.overLimit()
}

// lineOverLimit runs on the reading goroutine when a line of stdout goes
// over the line limit, which has ended the connection. A Ready server
// fails; a connecting one fails with its phase, reported by the connect.
func (c *conn) lineOverLimit(err *LimitError) {
	c.mu.Lock()
	ready := c.state == mcpsession.Ready
	c.mu.Unlock()
	if !ready || c.closing.Load() {
		return
	}
	c.s.wg.Go(func() {
		c.fail(err.Error(), c.stderr.String())
		c.terminate()
	})
}

// startErr drops the wrapping of a failed exec that only repeats the
// command: "fork/exec /x/y: no such file or directory" says less than
// `starting "/x/y": no such file or directory`.
func startErr(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		return execErr.Err
	}
	return err
}

// watchExit reports a child that dies after its connection was ready,
// once what it wrote before is read (its stdout to the end, which records
// its last frames, and its stderr), for at most pipeGrace. While
// connecting, the connect path reports the failure with its phase.
func (c *conn) watchExit(p *process, stdoutEOF <-chan struct{}) {
	<-p.exited
	<-c.attempt
	c.mu.Lock()
	ready := c.state == mcpsession.Ready
	c.mu.Unlock()
	if !ready || c.closing.Load() {
		return
	}
	grace := time.NewTimer(pipeGrace)
	defer grace.Stop()
read:
	for _, done := range []<-chan struct{}{stdoutEOF, p.stderrDone} {
		select {
		case <-done:
		case <-grace.C:
			break read
		}
	}
	c.fail("server exited ("+p.status()+")", c.stderr.String())
}
