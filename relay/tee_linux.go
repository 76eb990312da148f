package relay

import (
	"bytes"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// A teePipe carries the copy of a spliced stream: the relay tees the bytes
// it passes into the pipe without blocking, and a goroutine of the
// teePipe's reads them and hands them to the Stream. When the pipe is full
// (the copy is behind, or the pipe is small: past the user's soft limit
// on pipe memory a new pipe holds two pages) the relay passes the bytes
// by read and write instead, and holds a copy of them at their place in
// the copy (up to maxHeld bytes); beyond that it notes where the copy lost
// them, and the reader marks the Stream there. The nil *teePipe copies
// nothing.
type teePipe struct {
	s    *Stream
	r, w *os.File
	wfd  int

	mu     sync.Mutex
	teed   int64   // bytes teed so far
	stamps []stamp // when the bytes not yet read were passed
	marks  []mark  // what the copy holds besides the pipe, by offset
	held   int     // bytes in marks

	done chan struct{}
}

// A mark is bytes held at an offset of the copy, or (data nil) a gap;
// t is when the bytes passed.
type mark struct {
	at   int64
	data []byte
	t    time.Time
}

// A stamp says when the bytes of the copy up to offset end were passed
// (teed): a frame is recorded at the time its last byte passed, not at
// the time the copy read it, which may be later, and later on one
// direction than on the other.
type stamp struct {
	end int64
	t   time.Time
}

// maxStamps bounds the stamps a teePipe keeps: when a copy falls that far
// behind, the older half is let go, and the bytes they stamped take the
// time of the oldest stamp kept.
const maxStamps = 1024

// addTeed counts n more bytes teed, now; t.mu is held.
func (t *teePipe) addTeed(n int64) {
	t.teed += n
	if len(t.stamps) >= maxStamps {
		t.stamps = append(t.stamps[:0], t.stamps[maxStamps/2:]...)
	}
	t.stamps = append(t.stamps, stamp{end: t.teed, t: time.Now()})
}

// stampOf returns when the byte of the copy at offset off passed, and the
// end of the bytes passed at that time; stamps before off are let go.
func (t *teePipe) stampOf(off int64) (time.Time, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.stamps) > 0 && t.stamps[0].end <= off {
		t.stamps = t.stamps[1:]
	}
	if len(t.stamps) == 0 {
		return time.Now(), 1 << 62
	}
	return t.stamps[0].t, t.stamps[0].end
}

// write hands the copy's bytes p, which begin at offset off, to the
// Stream, each piece at the time it passed.
func (t *teePipe) write(p []byte, off int64) {
	for len(p) > 0 {
		at, end := t.stampOf(off)
		k := int(min(int64(len(p)), end-off))
		t.s.WriteAt(p[:k], at)
		p, off = p[k:], off+int64(k)
	}
}

// teeRead is the size of each read from a copy pipe.
const teeRead = 64 << 10

// copyPipeSize, when set, is the capacity asked for copy pipes instead of
// pipeSize: tests make it small to fill them.
var copyPipeSize atomic.Int64 // set by tests while an earlier test's relay may still be starting its copy

// Bounds on what a teePipe holds outside its pipe: a chunk of at most
// holdChunk bytes, at most maxHeld bytes in all.
const (
	holdChunk = 16 << 10
	maxHeld   = 128 << 10
)

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
	if n := copyPipeSize.Load(); n > 0 {
		setPipeSize(w, int(n))
	} else {
		widen(w)
	}
	t := &teePipe{s: s, r: r, w: w, wfd: rawFD(w), done: make(chan struct{})}
	go t.read()
	return t
}

// tee tees what waits in the pipe fd into the copy and returns how many
// bytes to pass: those teed, or when the copy is full, all that wait, with
// full set (pass them with passHeld). It returns 0 at the pipe's end and
// EAGAIN when nothing waits. Whatever tee says, the pipe itself is asked
// before the passthrough stops: the copy never decides what passes.
func (t *teePipe) tee(fd int) (n int, full bool, err error) {
	if t == nil {
		n, err = available(fd)
		return n, false, err
	}
	for try := 0; try < 2; try++ {
		m, err := unix.Tee(fd, t.wfd, spliceMax, unix.SPLICE_F_NONBLOCK)
		if err == nil && m > 0 {
			t.mu.Lock()
			t.addTeed(m)
			t.mu.Unlock()
			return int(m), false, nil
		}
		if err != unix.EAGAIN {
			break // the end, or a tee that failed: the pipe says which
		}
		// Nothing waits, or the copy is full: tee says EAGAIN for a full
		// copy even at the pipe's end, which the pipe itself tells (and
		// waiting for its hangup would wait for an edge long gone).
		if n, err := available(fd); err != nil || n == 0 {
			return 0, false, err
		}
	}
	n, err = available(fd)
	return n, n > 0, err
}

// teeSome tees up to n bytes waiting in the pipe fd into the copy and
// returns how many it took; the rest are to be passed with passHeld.
func (t *teePipe) teeSome(fd, n int) int {
	if t == nil {
		return n
	}
	m, err := unix.Tee(fd, t.wfd, min(n, spliceMax), unix.SPLICE_F_NONBLOCK)
	if err != nil || m <= 0 {
		return 0
	}
	t.mu.Lock()
	t.addTeed(m)
	t.mu.Unlock()
	return int(m)
}

// hold keeps a copy of p, passed by read and write, at the copy's current
// offset; past maxHeld the copy loses it instead.
func (t *teePipe) hold(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held+len(p) > maxHeld {
		t.loseLocked()
		return
	}
	t.marks = append(t.marks, mark{at: t.teed, data: bytes.Clone(p), t: time.Now()})
	t.held += len(p)
}

// lose notes that the bytes passed next are left out of the copy.
func (t *teePipe) lose() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.loseLocked()
}

// loseLocked notes, t.mu held, that the bytes passed next are left out
// of the copy.
func (t *teePipe) loseLocked() {
	if k := len(t.marks); k == 0 || t.marks[k-1].at != t.teed || t.marks[k-1].data != nil {
		t.marks = append(t.marks, mark{at: t.teed})
	}
	t.s.c.dropped.Add(1)
}

// read hands the copy to the Stream, the bytes held and the gaps at
// their places, until the pipe's end.
func (t *teePipe) read() {
	defer close(t.done)
	defer t.s.End()
	buf := make([]byte, teeRead)
	var off int64 // of buf in the copy
	for {
		n, err := t.r.Read(buf)
		p := buf[:n]
		at := off // the offset of p
		for m, ok := t.markBefore(off + int64(n)); ok; m, ok = t.markBefore(off + int64(n)) {
			k := m.at - at
			t.write(p[:k], at)
			p, at = p[k:], m.at
			if m.data != nil {
				t.s.WriteAt(m.data, m.t)
			} else {
				t.s.gap = true
			}
		}
		t.write(p, at)
		off += int64(n)
		if err != nil {
			for m, ok := t.markBefore(1 << 62); ok; m, ok = t.markBefore(1 << 62) {
				t.s.WriteAt(m.data, m.t) // held after the last byte teed
			}
			return
		}
	}
}

// markBefore removes and returns the first mark at or before end.
func (t *teePipe) markBefore(end int64) (mark, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.marks) == 0 || t.marks[0].at > end {
		return mark{}, false
	}
	m := t.marks[0]
	t.marks = t.marks[1:]
	t.held -= len(m.data)
	return m, true
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
