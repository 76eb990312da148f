package relay

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// A teePipe carries the copy of a spliced stream: the relay tees the bytes
// it passes into the pipe without blocking, and a goroutine of the
// teePipe's reads them and hands them to the Stream. When the pipe is full
// (the copy is behind) the bytes are not teed: the relay notes where the
// copy lost them, and the reader marks the Stream there. The nil *teePipe
// copies nothing.
type teePipe struct {
	s    *Stream
	r, w *os.File
	wfd  int

	mu   sync.Mutex
	teed int64   // bytes teed so far
	gaps []int64 // offsets in the copy at which bytes were left out

	done chan struct{}
}

// newTeePipe starts the copy of a stream to s; nil when s copies nothing
// or no pipe can be had.
func newTeePipe(s *Stream) *teePipe {
	if s == nil || s.c == nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	widen(w)
	t := &teePipe{s: s, r: r, w: w, wfd: rawFD(w), done: make(chan struct{})}
	go t.read()
	return t
}

// tee tees what waits in the pipe fd into the copy and returns how many
// bytes to pass: those teed, or when the copy is full, all that wait (the
// copy loses them). It returns 0 at the pipe's end and EAGAIN when
// nothing waits. Whatever tee says, the pipe itself is asked before the
// passthrough stops or skips: the copy never decides what passes.
func (t *teePipe) tee(fd int) (int, error) {
	if t == nil {
		return available(fd)
	}
	for try := 0; try < 2; try++ {
		m, err := unix.Tee(fd, t.wfd, spliceMax, unix.SPLICE_F_NONBLOCK)
		if err == nil && m > 0 {
			t.mu.Lock()
			t.teed += m
			t.mu.Unlock()
			return int(m), nil
		}
		if err != unix.EAGAIN {
			break // the end, or a tee that failed: the pipe says which
		}
		// Nothing waits, or the copy is full.
		if n, err := unix.IoctlGetInt(fd, unix.TIOCINQ); err != nil || n == 0 {
			return 0, unix.EAGAIN
		}
	}
	n, err := available(fd)
	if n > 0 {
		t.lose()
	}
	return n, err
}

// teeAll tees the n bytes waiting in the pipe fd into the copy. What the
// copy has no room for is left out of it (and noted): the bytes pass at
// once, whether or not the copy keeps up.
func (t *teePipe) teeAll(fd, n int) {
	if t == nil {
		return
	}
	m, err := unix.Tee(fd, t.wfd, min(n, spliceMax), unix.SPLICE_F_NONBLOCK)
	if err != nil {
		m = 0
	}
	t.mu.Lock()
	t.teed += m
	t.mu.Unlock()
	if int(m) < n {
		t.lose()
	}
}

// lose notes that the bytes passed next are left out of the copy.
func (t *teePipe) lose() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.gaps) == 0 || t.gaps[len(t.gaps)-1] != t.teed {
		t.gaps = append(t.gaps, t.teed)
	}
	t.s.c.dropped.Add(1)
}

// read hands the copy to the Stream, marking where bytes were left out,
// until the pipe's end.
func (t *teePipe) read() {
	defer close(t.done)
	defer t.s.End()
	buf := make([]byte, poolSize) // a chunk of the copier's reused size
	var off int64                 // of buf in the copy
	for {
		n, err := t.r.Read(buf)
		p := buf[:n]
		for g, ok := t.gapBefore(off + int64(n)); ok; g, ok = t.gapBefore(off + int64(n)) {
			k := g - (off + int64(n) - int64(len(p)))
			t.s.Write(p[:k])
			p = p[k:]
			t.s.gap = true
		}
		t.s.Write(p)
		off += int64(n)
		if err != nil {
			return
		}
	}
}

// gapBefore removes and returns the first gap at or before end.
func (t *teePipe) gapBefore(end int64) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.gaps) == 0 || t.gaps[0] > end {
		return 0, false
	}
	g := t.gaps[0]
	t.gaps = t.gaps[1:]
	return g, true
}

// close ends the copy once the reader has taken what was teed; for the
// nil *teePipe it ends copy, the stream it did not copy.
func (t *teePipe) close(copy *Stream) {
	if t == nil {
		copy.End()
		return
	}
	t.w.Close()
	<-t.done
	t.r.Close()
}
