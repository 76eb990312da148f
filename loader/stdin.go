package loader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// ErrStalled is wrapped by the error of a write to a server's stdin that
// was cut because the call it belonged to ended first: the server stopped
// reading its stdin.
var ErrStalled = errors.New("the server stopped reading its stdin")

// lateWriteGrace is how long a write that starts after its call ended may
// take: long enough for a small frame (the notifications/cancelled that
// follows a cancelled call) to go into a pipe with room, too short to wait
// on a server that does not read.
const lateWriteGrace = 100 * time.Millisecond

// A stdinPipe is the write end of a server's stdin. A write blocks while the
// pipe is full, that is for as long as the server does not read; bound ties
// the writes made during a call to the call's context, so a server that
// stops reading cannot hold a call (nor whoever waits behind it) past the
// call's end.
type stdinPipe struct {
	f *os.File // non-blocking, so a write deadline can cut a write

	mu      sync.Mutex
	call    context.Context // the call whose end bounds the writes; nil: none
	writing bool            // a write is in the pipe
	cut     bool            // a deadline is set on the write in progress
	stalled error           // set once a write was cut: the stream may hold half a line
}

func (s *stdinPipe) Write(p []byte) (int, error) {
	s.mu.Lock()
	if s.stalled != nil {
		s.mu.Unlock()
		return 0, s.stalled
	}
	if s.call != nil && s.call.Err() != nil {
		s.cut = true
		_ = s.f.SetWriteDeadline(time.Now().Add(lateWriteGrace))
	}
	s.writing = true
	s.mu.Unlock()

	n, err := s.f.Write(p)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.writing = false
	if s.cut {
		s.cut = false
		_ = s.f.SetWriteDeadline(time.Time{})
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.stalled = fmt.Errorf("%w: it took %d of %d bytes before the call ended", ErrStalled, n, len(p))
		err = s.stalled
	}
	return n, err
}

// Close closes the pipe; a write blocked in it returns at once.
func (s *stdinPipe) Close() error { return s.f.Close() }

// bound cuts the writes made while ctx runs that have not completed when
// it ends, until release is called: a write in the pipe is cut then, one
// that starts later gets lateWriteGrace. A cut write fails with ErrStalled,
// and so does every later one.
func (s *stdinPipe) bound(ctx context.Context) (release func()) {
	s.mu.Lock()
	s.call = ctx
	s.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.call == ctx && s.writing && !s.cut {
			s.cut = true
			_ = s.f.SetWriteDeadline(time.Now())
		}
	})
	return func() {
		stop()
		s.mu.Lock()
		s.call = nil
		s.mu.Unlock()
	}
}

// stalledErr returns why writes fail, once a write was cut.
func (s *stdinPipe) stalledErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stalled
}

// boundWrites bounds the writes to the server's stdin by ctx (see
// stdinPipe.bound) until the returned function is called. When a write was
// cut, that function reports the server failed and stops it: a server that
// does not read cannot be talked to, and half a request may sit in its pipe.
func (c *conn) boundWrites(ctx context.Context) func() {
	p := c.process()
	if p == nil {
		return func() {} // HTTP: the request's context bounds it
	}
	release := p.stdin.bound(ctx)
	return func() {
		release()
		if err := p.stdin.stalledErr(); err != nil {
			c.fail(err.Error(), c.stderr.String())
			c.s.wg.Go(c.terminate)
		}
	}
}
