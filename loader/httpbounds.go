package loader

import (
	"compress/gzip"
	"fmt"
	"io"
	"sync"
)

// A limitSlot carries the *LimitError a response went over back to the
// request waiting on it: mcp-go reports an event stream that broke off as
// "unexpected nil response", and a JSON body cut short as a decoding
// error.
type limitSlot struct {
	mu  sync.Mutex
	err *LimitError
}

type limitSlotKey struct{}

func (s *limitSlot) set(err *LimitError) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

func (s *limitSlot) get() *LimitError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// A capped reader hands on at most max bytes of r; past them, it fails
// with err, having read at most one byte more.
type capped struct {
	r   io.Reader
	max int64
	n   int64
	err *LimitError
}

func (c *capped) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, c.err
	}
	if room := c.max - c.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n - int(c.n-c.max), c.err
	}
	return n, err
}

// A gunzip inflates a gzip body as it is read. The header is read on the
// first Read, not when the response arrives.
type gunzip struct {
	r   io.Reader
	z   *gzip.Reader
	err error // why the header could not be read
}

func (g *gunzip) Read(p []byte) (int, error) {
	if g.z == nil && g.err == nil {
		g.z, g.err = gzip.NewReader(g.r)
		if _, over := g.err.(*LimitError); g.err != nil && !over {
			g.err = fmt.Errorf("decompressing the gzip body: %w", g.err)
		}
	}
	if g.err != nil {
		return 0, g.err
	}
	return g.z.Read(p)
}

// An errorBody hands on at most left bytes of an HTTP error response's
// body, then, when the body goes on, a note that it was cut (which ends
// up in the error mcp-go reports); the rest is never read.
type errorBody struct {
	body io.ReadCloser
	left int64
	err  *LimitError
	note []byte
	cut  bool
}

func (e *errorBody) Read(p []byte) (int, error) {
	if e.cut {
		if len(e.note) == 0 {
			return 0, io.EOF
		}
		n := copy(p, e.note)
		e.note = e.note[n:]
		return n, nil
	}
	if e.left <= 0 {
		return 0, io.EOF
	}
	n, err := e.body.Read(p[:min(int64(len(p)), e.left)])
	e.left -= int64(n)
	if e.left > 0 || err != nil {
		return n, err
	}
	var one [1]byte
	if m, _ := io.ReadFull(e.body, one[:]); m == 1 {
		e.cut, e.note = true, []byte(" … [cut: "+e.err.Error()+"]")
	}
	return n, nil
}

func (e *errorBody) Close() error { return e.body.Close() }
