package probe

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// Bounds of the stdio prober.
const (
	// maxQueued is how many messages wait unread; a server that floods
	// stdout past it loses the oldest unread ones, never mcplens's memory.
	maxQueued = 1024
	// stderrKeep is how much of stderr is kept, the tail.
	stderrKeep = 8 << 10
)

// A stdioPeer is one server child whose stdin and stdout the audit drives
// line by line.
type stdioPeer struct {
	t     *tape
	cmd   interface{ Wait() error }
	tree  *procguard.Tree
	guard *procguard.Guard
	pid   int
	stdin io.WriteCloser
	// maxLine is the longest stdout line read whole (Limits.Line); the
	// rest of a longer line is read and dropped, the line junk.
	maxLine int

	mu     sync.Mutex
	queue  [][]byte
	wake   chan struct{} // signalled on each message and at end of stdout
	eof    bool
	junk   []mcpsession.Frame
	stderr bytes.Buffer
	// over is the last line over maxLine, as a problem, until a wait
	// that timed out says it (next).
	over string

	exited chan struct{}
}

// startStdio spawns spec's command as the clients do, in its own process
// group held by guard.
func startStdio(spec config.ServerSpec, guard *procguard.Guard, t *tape, maxLine int64) (*stdioPeer, error) {
	cmd, err := loader.ServerCommand(spec)
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := guard.Ready(); err != nil { // the guard runs before the server does
		return nil, err
	}
	tree, err := procguard.Start(cmd)
	if err != nil {
		return nil, err
	}
	p := &stdioPeer{t: t, cmd: cmd, tree: tree, guard: guard, pid: cmd.Process.Pid, stdin: stdin, maxLine: int(maxLine),
		wake: make(chan struct{}, 1), exited: make(chan struct{})}
	if err := guard.Hold(p.pid); err != nil {
		tree.Kill()
		_ = cmd.Wait()
		tree.Close()
		return nil, err
	}
	readDone := make(chan struct{}, 2)
	go func() { p.readStdout(stdout); readDone <- struct{}{} }()
	go func() { p.readStderr(stderr); readDone <- struct{}{} }()
	go func() {
		// Wait closes the pipes: the readers finish first.
		<-readDone
		<-readDone
		_ = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// readStdout reads stdout line by line, each line at most maxLine bytes
// kept, until end of file.
func (p *stdioPeer) readStdout(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, size, err := readLine(br, p.maxLine)
		if size > 0 || len(line) > 0 {
			p.line(line, size)
		}
		if err != nil {
			break
		}
	}
	p.mu.Lock()
	p.eof = true
	p.mu.Unlock()
	p.signal()
}

// readLine reads one line, keeping at most maxLine bytes of it; size is
// its whole length.
func readLine(br *bufio.Reader, maxLine int) (line []byte, size int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if room := maxLine - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		// size is the line's, without its end.
		if bytes.HasSuffix(chunk, []byte("\n")) {
			size--
			if bytes.HasSuffix(chunk, []byte("\r\n")) {
				size--
			}
		}
		return bytes.TrimRight(line, "\r\n"), size, err
	}
}

// line records one stdout line and queues the messages it carries: the
// line itself, or the JSON objects salvaged from a line of junk, as a
// session salvages them (the junk is a finding all the same).
func (p *stdioPeer) line(line []byte, size int) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return
	}
	msg, problem := classify(trimmed)
	if size > p.maxLine {
		problem = fmt.Sprintf("a line of %d bytes, over the %d-byte line limit", size, p.maxLine)
		msg = false
	}
	p.t.addSized(mcpsession.In, line, size, !msg, problem)
	msgs := [][]byte{trimmed}
	if !msg {
		msgs = nil
		if size <= p.maxLine {
			parts, isJSON := loader.SplitLine(trimmed)
			for i, part := range parts {
				if isJSON[i] {
					msgs = append(msgs, part)
				}
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if size > p.maxLine {
		p.over = problem
	}
	if !msg && len(p.junk) < maxEvidence {
		p.junk = append(p.junk, mcpsession.Frame{Dir: mcpsession.In, Bytes: bytes.Clone(line[:min(len(line), mcpsession.MaxFrameBytes)]), Size: size, Junk: true, At: time.Now()})
	}
	for _, m := range msgs {
		if len(p.queue) >= maxQueued {
			p.queue = p.queue[1:]
		}
		p.queue = append(p.queue, bytes.Clone(m))
	}
	p.signal()
}

func (p *stdioPeer) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *stdioPeer) readStderr(r io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		p.mu.Lock()
		p.stderr.Write(buf[:n])
		if over := p.stderr.Len() - stderrKeep; over > 0 {
			p.stderr.Next(over)
		}
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// send writes raw and a newline, bounded by ctx: a server that stops
// reading fails the probe, not the audit.
func (p *stdioPeer) send(ctx context.Context, raw []byte) error {
	p.t.add(mcpsession.Out, raw, false, "")
	done := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(append(bytes.Clone(raw), '\n'))
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return errStalled
	}
}

// next returns the next message, waiting until ctx ends; a wait that
// ends so says the line over the limit read meanwhile, if one was, which
// may have been the answer waited for.
func (p *stdioPeer) next(ctx context.Context) ([]byte, error) {
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			m := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			return m, nil
		}
		eof := p.eof
		p.mu.Unlock()
		if eof {
			return nil, errClosed
		}
		select {
		case <-p.wake:
		case <-ctx.Done():
			p.mu.Lock()
			over := p.over
			p.over = ""
			p.mu.Unlock()
			if over != "" {
				return nil, fmt.Errorf("%w; stdout carried %s meanwhile, which may have been it", errTimeout, over)
			}
			return nil, errTimeout
		}
	}
}

// noise returns the non-JSON-RPC lines stdout carried.
func (p *stdioPeer) noise() []mcpsession.Frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]mcpsession.Frame(nil), p.junk...)
}

// closeStdin closes the server's stdin and reports whether it exited
// within grace.
func (p *stdioPeer) closeStdin(grace time.Duration) bool {
	p.stdin.Close()
	select {
	case <-p.exited:
		return true
	case <-time.After(grace):
		return false
	}
}

// stop kills the server's process group and reaps it.
func (p *stdioPeer) stop() {
	p.stdin.Close()
	p.tree.Kill()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second): // a child that escaped its group keeps the pipes: leave it to the guard
	}
	p.tree.Close()
	p.guard.Release(p.pid)
}
