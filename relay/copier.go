package relay

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcplens/mcplens/recording"
)

// Sizes that bound the copy (never the passthrough).
const (
	// DefaultFrameCap is how much of one frame the copy keeps: a longer
	// frame is recorded cut, as text, with its full size in "cut".
	DefaultFrameCap = 256 << 10
	// queueBytes bounds the bytes waiting between the relay and the
	// recorder; beyond it chunks are dropped and counted.
	queueBytes = 512 << 10
	// queueChunks bounds the chunks waiting, whatever their size.
	queueChunks = 4096
	// MemoryLimit is the soft memory limit a relay process sets
	// (debug.SetMemoryLimit). The copy makes little garbage (its buffers
	// are reused, bytes past a frame's cap are never copied), so the
	// heap stays small; the limit keeps what garbage there is from
	// growing the process: a relay passing 1 MB frames stays near 10 MB
	// resident, half of it the binary's own pages.
	MemoryLimit = 8 << 20
)

// A Sink receives each encoded frame: one JSONL line, newline included.
// WriteLine may be slow; it is called from one goroutine only and must not
// keep line after it returns: the copier reuses it.
type Sink interface {
	WriteLine(line []byte)
	Close() error
}

// A Copier takes copies of the bytes a relay passes and encodes them, on a
// goroutine of its own, as frames for its sinks (a Recording, a Feed).
// Handing it bytes never blocks: when its queue is full the copy is
// dropped and counted, and the frame it belonged to is left out of the
// recording. The nil *Copier copies nothing.
type Copier struct {
	server   string
	frameCap int
	enc      *encoder
	sinks    []Sink

	mu     sync.RWMutex // held for reading while sending, for writing to close
	closed bool

	learning learning // headers whose secrets the encoder is to learn
	queue    chan chunk
	queued   atomic.Int64 // bytes in queue

	dropped atomic.Int64 // chunks dropped
	done    chan struct{}
	small   chan []byte // buffers for lines, see spare
	large   chan []byte
}

// A chunk is one piece of a stream handed to the copier, or the end of a
// stream.
type chunk struct {
	s    *Stream
	t    time.Time
	data []byte // a line's kept bytes (Lines), or a piece of the stream
	size int    // the line's size, more than len(data) when cut (Lines)
	skip int    // bytes past the frame cap, passed but not copied, before data
	gap  bool   // bytes of s were dropped before this chunk
	end  bool
}

// CopierOptions configure a Copier.
type CopierOptions struct {
	// Server is the label every frame carries.
	Server string
	// FrameCap is how much of one frame is kept (0: DefaultFrameCap).
	FrameCap int
	// Secrets are values masked wherever they appear in a frame, besides
	// the credential shapes every frame is masked for.
	Secrets []string
}

// NewCopier starts a copier writing to sinks.
func NewCopier(opts CopierOptions, sinks ...Sink) *Copier {
	if opts.FrameCap <= 0 {
		opts.FrameCap = DefaultFrameCap
	}
	c := &Copier{
		server:   opts.Server,
		frameCap: opts.FrameCap,
		enc:      newEncoder(opts.Server, opts.Secrets),
		sinks:    sinks,
		queue:    make(chan chunk, queueChunks),
		done:     make(chan struct{}),
		small:    make(chan []byte, 64),
		large:    make(chan []byte, 4),
	}
	go c.run()
	return c
}

// Framing says how a stream's bytes divide into frames.
type Framing int

const (
	// Lines: each newline-terminated line is a frame, and so is a last
	// line without one (stdio).
	Lines Framing = iota
	// Events: each server-sent event's data is a frame (text/event-stream).
	Events
	// Whole: the whole stream is one frame (an HTTP body).
	Whole
)

// A Stream is one direction of bytes handed to a Copier. Write is called
// by one goroutine at a time; it never blocks and never fails.
type Stream struct {
	c       *Copier
	dir     recording.Dir
	framing Framing
	meta    *recording.HTTP // nil for stdio
	gap     bool            // bytes were lost since the last chunk sent (Lines: of the line under way)
	pos     int             // bytes of the body handed so far (Whole)
	skipped int             // bytes past the frame cap not yet told (Whole)

	// The line under way (Lines), assembled by the writer.
	pending  []byte // its first frameCap bytes
	lineSize int    // its size so far

	// The assembly, touched by the copier's goroutine only.
	buf      []byte // what is kept of the line (or body) under way
	size     int    // its size so far, kept or not
	skip     bool   // it lost bytes: leave it out
	evData   []byte // the data of the event under way, a newline after each line
	evSize   int    // its size, kept or not
	evSkip   bool
	event    string // its name
	began    bool   // an event stream's opening was recorded
	metaDone bool   // meta was recorded
}

// Stream returns a stream of frames in direction dir.
func (c *Copier) Stream(dir recording.Dir, framing Framing) *Stream {
	return &Stream{c: c, dir: dir, framing: framing}
}

// Write hands a copy of p, passed now, to the copier (WriteAt).
func (s *Stream) Write(p []byte) (int, error) {
	s.WriteAt(p, time.Now())
	return len(p), nil
}

// WriteAt hands a copy of p, passed at time at, to the copier: a frame is
// recorded at the time its last byte passed. A stream of lines is
// assembled here, so that only whole frames cross to the copier's
// goroutine; of a line or body longer than the frame cap, the bytes past
// the cap are counted, not copied.
func (s *Stream) WriteAt(p []byte, at time.Time) {
	if s == nil || s.c == nil || len(p) == 0 {
		return
	}
	switch s.framing {
	case Lines:
		s.lines(p, at)
	case Events:
		s.hand(p, at) // an event's data lines are cut at the cap as they are taken
	default:
		keep := min(len(p), max(s.c.frameCap-s.pos, 0))
		s.hand(p[:keep], at)
		s.skipped += len(p) - keep // told with the next chunk
		s.pos += len(p)
	}
}

// lines adds p, passed at time at, to the line under way, handing over
// each line it ends.
func (s *Stream) lines(p []byte, at time.Time) {
	for len(p) > 0 {
		part, rest, ended := bytes.Cut(p, []byte{'\n'})
		if room := s.c.frameCap - len(s.pending); room > 0 {
			s.pending = append(s.pending, part[:min(room, len(part))]...)
		}
		s.lineSize += len(part)
		if !ended {
			return
		}
		s.handLine(at)
		p = rest
	}
}

// handLine hands the line under way to the copier as one frame: whole,
// or when it is longer than the cap, as much of its beginning as a cut
// frame records, stamped at. A line that lost bytes (gap) is left out.
func (s *Stream) handLine(at time.Time) {
	data, size, lost := s.pending, s.lineSize, s.gap
	s.lineSize, s.gap = 0, false
	if lost {
		s.pending = s.pending[:0]
		return
	}
	if size > len(data) {
		data = data[:min(len(data), CutKeep+cutMargin)]
	}
	if len(data) > smallFrame {
		s.pending = s.c.spare(true) // data goes to the copier, which recycles it
	} else {
		data, s.pending = s.c.clone(data), s.pending[:0]
	}
	if s.c.queued.Load()+int64(len(data)) > queueBytes {
		s.c.dropped.Add(1)
		s.c.recycle(data)
		return
	}
	s.c.send(chunk{s: s, t: at, data: data, size: size})
}

// hand queues a copy of data, passed at time at, after the bytes skipped
// before it.
func (s *Stream) hand(data []byte, at time.Time) {
	if len(data) == 0 {
		return
	}
	if s.c.queued.Load()+int64(len(data)) > queueBytes {
		s.c.dropped.Add(1)
		s.gap = true
		return
	}
	ch := chunk{s: s, t: at, data: s.c.clone(data), skip: s.skipped, gap: s.gap}
	s.skipped = 0
	s.gap = !s.c.send(ch)
}

// smallFrame is the size up to which a line is copied into a small buffer
// to hand to the copier; a larger one is handed in the buffer it was
// assembled in. The copier recycles both kinds (see spare), so that
// passing frames makes no garbage for a relay under its memory limit to
// collect.
const smallFrame = 4 << 10

// spare returns a buffer the copier recycled: a large one (which the
// caller's append may grow) or one of smallFrame bytes.
func (c *Copier) spare(large bool) []byte {
	pool := c.small
	if large {
		pool = c.large
	}
	select {
	case b := <-pool:
		return b[:0]
	default:
		if large {
			return nil
		}
		return make([]byte, 0, smallFrame)
	}
}

// clone returns a copy of p in a recycled buffer.
func (c *Copier) clone(p []byte) []byte {
	return append(c.spare(len(p) > smallFrame), p...)
}

// recycle keeps b, a line's buffer that has been recorded, for reuse.
func (c *Copier) recycle(b []byte) {
	pool := c.small
	switch {
	case cap(b) > smallFrame:
		pool = c.large
	case cap(b) < smallFrame:
		return
	}
	select {
	case pool <- b:
	default:
	}
}

// End marks the end of the stream: a frame still assembling is recorded.
func (s *Stream) End() {
	if s == nil || s.c == nil {
		return
	}
	if s.framing == Lines && (s.lineSize > 0 || s.gap) {
		s.handLine(time.Now()) // a last line without a newline
	}
	s.c.send(chunk{s: s, t: time.Now(), skip: s.skipped, gap: s.gap, end: true})
	s.pos, s.skipped = 0, 0
}

// send queues ch unless the queue is full or the copier closed.
func (c *Copier) send(ch chunk) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return false
	}
	select {
	case c.queue <- ch:
		c.queued.Add(int64(len(ch.data)))
		return true
	default:
		c.dropped.Add(1)
		return false
	}
}

// Dropped returns how many chunks of bytes the copy has lost so far.
func (c *Copier) Dropped() int64 {
	if c == nil {
		return 0
	}
	return c.dropped.Load()
}

// Close records what is still queued and the frames still assembling,
// then closes the sinks. Bytes handed over after Close are not copied.
func (c *Copier) Close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		close(c.queue)
	}
	c.mu.Unlock()
	<-c.done
	var first error
	for _, s := range c.sinks {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// run assembles frames from the queue until Close.
func (c *Copier) run() {
	defer close(c.done)
	open := map[*Stream]bool{}
	var reported int64
	for ch := range c.queue {
		c.queued.Add(-int64(len(ch.data)))
		if n := c.dropped.Load(); n > reported {
			c.emit(c.enc.dropped(ch.t, n-reported))
			reported = n
		}
		c.learnPending()
		s := ch.s
		open[s] = true
		s.take(ch)
		c.recycle(ch.data)
		if ch.end {
			delete(open, s)
		}
	}
	for s := range open {
		s.take(chunk{s: s, t: time.Now(), end: true})
	}
	if n := c.dropped.Load(); n > reported {
		c.emit(c.enc.dropped(time.Now(), n-reported))
	}
}

// emit hands one encoded line to every sink.
func (c *Copier) emit(line []byte) {
	if line == nil {
		return
	}
	for _, s := range c.sinks {
		s.WriteLine(line)
	}
}
