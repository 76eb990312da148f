package loader

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// A Direction says which way a frame went.
type Direction int

const (
	Out Direction = iota // mcplens -> server
	In                   // server -> mcplens
)

func (d Direction) String() string {
	if d == Out {
		return "out"
	}
	return "in"
}

// A Frame is one line that crossed a server's stdio, byte for byte.
type Frame struct {
	Server string
	Dir    Direction
	At     time.Time
	// Bytes is the exact line as written or read, without its line end.
	// It holds at most MaxFrameBytes; Size says how long the line was.
	Bytes []byte
	// Size is the length of the whole line; larger than len(Bytes) when
	// the stored copy was cut.
	Size int
	// Junk marks an In line that is not JSON (a banner, a log line): the
	// protocol ignores it, the wire view shows it.
	Junk bool
}

// Truncated reports whether Bytes holds only the start of the line.
func (f Frame) Truncated() bool { return f.Size > len(f.Bytes) }

const (
	// MaxFrames is how many frames a Wire keeps per server.
	MaxFrames = 2000
	// MaxFrameBytes is how much of one line a Wire keeps.
	MaxFrameBytes = 64 << 10
)

// A Wire is a bounded, concurrency-safe log of the frames of one server:
// the last MaxFrames lines, each cut to MaxFrameBytes.
type Wire struct {
	server string
	notify func() // called after each frame, outside the lock

	mu    sync.Mutex
	ring  []Frame
	head  int // index in ring of the oldest frame once the ring is full
	total int
	watch func(dir Direction, line []byte) // sees whole lines, for Call
}

func newWire(server string, notify func()) *Wire {
	return &Wire{server: server, notify: notify}
}

// Frames returns a copy of the frames held, oldest first.
func (w *Wire) Frames() []Frame {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Frame, 0, len(w.ring))
	out = append(out, w.ring[w.head:]...)
	out = append(out, w.ring[:w.head]...)
	return out
}

// Len returns how many frames the server ever exchanged, including those no
// longer held: a watcher compares it to know whether anything is new.
func (w *Wire) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total
}

// record stores one whole line (its line end already removed).
func (w *Wire) record(dir Direction, line []byte) {
	f := Frame{
		Server: w.server,
		Dir:    dir,
		At:     time.Now(),
		Bytes:  bytes.Clone(line[:min(len(line), MaxFrameBytes)]),
		Size:   len(line),
		Junk:   dir == In && !json.Valid(line),
	}
	w.mu.Lock()
	if len(w.ring) < MaxFrames {
		w.ring = append(w.ring, f)
	} else {
		w.ring[w.head] = f
		w.head = (w.head + 1) % MaxFrames
	}
	w.total++
	watch := w.watch
	w.mu.Unlock()
	if watch != nil {
		watch(dir, line)
	}
	if w.notify != nil {
		w.notify()
	}
}

// setWatch installs (or with nil removes) a function that sees every later
// line whole, before it reaches the protocol.
func (w *Wire) setWatch(fn func(dir Direction, line []byte)) {
	w.mu.Lock()
	w.watch = fn
	w.mu.Unlock()
}

// A lineSplitter cuts a byte stream into lines for a Wire. A line longer
// than it can hold is kept cut, but still ends where the stream says.
type lineSplitter struct {
	wire    *Wire
	dir     Direction
	partial []byte
	size    int // length of the current line, including bytes not kept
}

// maxLineBytes bounds what a splitter buffers of one line. Lines are kept
// whole up to this size so a Call can show a large response intact.
const maxLineBytes = 16 << 20

func (s *lineSplitter) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			return
		}
		s.add(p[:i])
		s.flush()
		p = p[i+1:]
	}
}

func (s *lineSplitter) add(p []byte) {
	s.size += len(p)
	if room := maxLineBytes - len(s.partial); room > 0 {
		s.partial = append(s.partial, p[:min(room, len(p))]...)
	}
}

// flush records the current line, if any bytes were seen since the last.
func (s *lineSplitter) flush() {
	line := bytes.TrimSuffix(s.partial, []byte("\r"))
	s.wire.record(s.dir, line)
	s.partial = s.partial[:0]
	s.size = 0
}

// A tapReader records every line read from a server's stdout.
type tapReader struct {
	r     io.Reader
	split lineSplitter
	eof   chan struct{} // closed when r reports an error or end of file
	once  sync.Once
}

func newTapReader(r io.Reader, w *Wire) *tapReader {
	return &tapReader{r: r, split: lineSplitter{wire: w, dir: In}, eof: make(chan struct{})}
}

func (t *tapReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.split.feed(p[:n])
	if err != nil {
		t.once.Do(func() {
			if len(t.split.partial) > 0 || t.split.size > 0 {
				t.split.flush() // a last line without its newline
			}
			close(t.eof)
		})
	}
	return n, err
}

// A tapWriter records every line written to a server's stdin. Each line is
// recorded before it is written, so a request always precedes its response
// in the log.
type tapWriter struct {
	w     io.WriteCloser
	mu    sync.Mutex
	split lineSplitter
	once  sync.Once
	err   error
}

func newTapWriter(w io.WriteCloser, wire *Wire) *tapWriter {
	return &tapWriter{w: w, split: lineSplitter{wire: wire, dir: Out}}
}

func (t *tapWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.split.feed(p)
	return t.w.Write(p)
}

// Close closes the server's stdin once; later calls return the first result.
func (t *tapWriter) Close() error {
	t.once.Do(func() { t.err = t.w.Close() })
	return t.err
}
