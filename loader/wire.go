package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
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
	// Junk marks In text that is not JSON (a banner, a log line): the
	// protocol never sees it, the wire view shows it. When junk shares a
	// line with a JSON message, the two are recorded as separate frames,
	// in the order they came.
	Junk bool
	// Problem says how a frame breaks the protocol ("answers id 9999,
	// which no request is waiting for", "not a JSON-RPC 2.0 message: ...",
	// a line over the line limit); empty for a well-formed frame and for
	// junk, except junk that is the answer to a request and was refused
	// for it.
	Problem string
}

// Truncated reports whether Bytes holds only the start of the line.
func (f Frame) Truncated() bool { return f.Size > len(f.Bytes) }

const (
	// MaxFrames is how many frames a Wire keeps per server.
	MaxFrames = 2000
	// MaxFrameBytes is how much of one line a Wire keeps.
	MaxFrameBytes = 64 << 10
	// MaxWireBytes bounds the bytes a Wire holds in full. Past it, the
	// oldest frames are cut to OldFrameBytes (the wire pane shows a line's
	// first few hundred bytes at most), so a server's log stays within
	// about MaxWireBytes + MaxFrames × OldFrameBytes however it talks:
	// 2000 frames of 64 KB would be 125 MB.
	MaxWireBytes = 4 << 20
	// OldFrameBytes is how much of an old frame is kept once the Wire
	// holds more than MaxWireBytes.
	OldFrameBytes = 1 << 10
)

// A Wire is a bounded, concurrency-safe log of the frames of one server:
// the last MaxFrames lines, each cut to MaxFrameBytes, the oldest cut to
// OldFrameBytes once they add up to more than MaxWireBytes.
type Wire struct {
	server string
	notify func() // called after each frame, outside the lock

	mu    sync.Mutex
	ring  []Frame
	head  int // index in ring of the oldest frame once the ring is full
	total int
	held  int                                                    // bytes of the frames in ring
	cut   int                                                    // how many of the oldest frames are cut to OldFrameBytes
	watch func(dir Direction, line []byte, size int, valid bool) // sees lines, for Call
	// check, when set, names how a frame breaks the protocol. It is set
	// before the first frame and never changed. valid says that line is
	// valid JSON.
	check func(dir Direction, line []byte, junk, valid bool) string
}

// A frameKind is what a tap knows of the bytes of a frame it records.
type frameKind int

const (
	frameJSON      frameKind = iota // valid JSON: the tap checked
	frameUnchecked                  // not checked: a line cut short, or one mcplens's client wrote
	frameJunk                       // not JSON
)

// kindOf checks b: frameJSON or frameJunk.
func kindOf(b []byte) frameKind {
	if json.Valid(b) {
		return frameJSON
	}
	return frameJunk
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

// record stores one frame: a whole line (its line end already removed), or
// the part of one that is junk or JSON. size is the length of the frame as
// it came, which is more than len(line) for a line cut to maxLineBytes.
//
// A frame is checked for being JSON once, here or by the tap: the protocol
// checks and the call capture are told rather than checking again, which
// cost a few percent of a call's round trip.
func (w *Wire) record(dir Direction, line []byte, size int, kind frameKind) {
	junk := kind == frameJunk
	valid := kind == frameJSON || kind == frameUnchecked && json.Valid(line)
	f := w.frame(dir, line, size)
	f.Junk = junk
	if w.check != nil {
		f.Problem = w.check(dir, line, junk, valid)
	}
	// A junk frame with a problem is an answer the protocol refused: the
	// call it answers shows it.
	w.push(f, line, valid, !junk || f.Problem != "")
}

// recordOver stores the start of a line that went over the line limit and
// was abandoned there: size is how much of it was read, and problem says
// so. The protocol checks never see it; a Call does, cut.
func (w *Wire) recordOver(dir Direction, start []byte, size int, problem string) {
	f := w.frame(dir, start, size)
	f.Problem = problem
	w.push(f, f.Bytes, false, true)
}

// frame starts the Frame of a line, holding at most MaxFrameBytes of it.
func (w *Wire) frame(dir Direction, line []byte, size int) Frame {
	return Frame{
		Server: w.server,
		Dir:    dir,
		At:     time.Now(),
		Bytes:  bytes.Clone(line[:min(len(line), MaxFrameBytes)]),
		Size:   max(size, len(line)),
	}
}

// push adds f to the ring and shows line to the watch, when watched.
func (w *Wire) push(f Frame, line []byte, valid, watched bool) {
	w.mu.Lock()
	if len(w.ring) < MaxFrames {
		w.ring = append(w.ring, f)
	} else {
		w.held -= len(w.ring[w.head].Bytes)
		w.ring[w.head] = f
		w.head = (w.head + 1) % MaxFrames
		w.cut = max(0, w.cut-1) // the oldest frame, cut or not, is gone
	}
	w.held += len(f.Bytes)
	w.total++
	w.trim()
	watch := w.watch
	w.mu.Unlock()
	if watch != nil && watched {
		watch(f.Dir, line, f.Size, valid)
	}
	if w.notify != nil {
		w.notify()
	}
}

// trim cuts the oldest frames not yet cut to OldFrameBytes until the ring
// holds at most MaxWireBytes, the newest frame excepted. Each frame is cut
// once, so over a session trimming costs a constant per frame. A cut frame
// gets a new, small array: a copy of Frames taken before still reads the
// old one.
func (w *Wire) trim() {
	for w.held > MaxWireBytes && w.cut < len(w.ring)-1 {
		f := &w.ring[(w.head+w.cut)%len(w.ring)]
		if len(f.Bytes) > OldFrameBytes {
			w.held -= len(f.Bytes) - OldFrameBytes
			f.Bytes = bytes.Clone(f.Bytes[:OldFrameBytes])
		}
		w.cut++
	}
}

// setWatch installs (or with nil removes) a function that sees every later
// line but junk before it reaches the protocol: whole, unless size is
// larger than len(line).
func (w *Wire) setWatch(fn func(dir Direction, line []byte, size int, valid bool)) {
	w.mu.Lock()
	w.watch = fn
	w.mu.Unlock()
}

// maxLineBytes bounds what a tapWriter holds of one line written to a
// server (a line read from one is bounded by Limits.Line).
const maxLineBytes = 16 << 20

// tapReadSize is how much a tapReader reads from a pipe at once; every
// connection holds a buffer of this size for its whole life.
const tapReadSize = 16 << 10

// maxIdleBuffer is the most a tapReader keeps allocated between lines:
// one tools/list answer can be megabytes, and a hundred servers each
// holding buffers the size of their last one added up to more than the
// tools themselves.
const maxIdleBuffer = 64 << 10

// maxSalvageMisses bounds how many '{' of one junk line are tried as the
// start of a JSON message, so a line of many braces costs linear time.
const maxSalvageMisses = 8

// A tapReader stands between a server's stdout and the protocol. It records
// every line in the Wire, byte for byte, and hands the protocol only JSON:
// a line of junk (a banner, a log line) is recorded and dropped, and junk
// that shares a line with a JSON message (a log fragment written without
// its newline) is split off, so the message still gets through. Handing
// the protocol such a line whole would lose the message and stall its
// request until the timeout.
//
// A line is held until its end, up to the line limit. A line that goes
// over it is abandoned there, before anything else holds it: its start is
// recorded, the protocol never sees it, and the tapReader reads no more,
// returning a *LimitError, which ends the connection. A stream whose line
// cannot be read to its end cannot be trusted to be in step again.
type tapReader struct {
	r     io.Reader
	wire  *Wire
	buf   []byte // read buffer
	limit int64  // Limits.Line

	line []byte // the current line, up to limit
	size int    // its length so far

	out []byte // bytes for the protocol, from off
	off int
	err error // the error of the underlying reader, or a *LimitError, once seen

	eof  chan struct{} // closed when reading ends: an error, end of file, a line over the limit
	once sync.Once

	over atomic.Pointer[LimitError] // set when a line went over the limit
	// onOver, when set, is called once, on the reading goroutine, when a
	// line goes over the limit; it must not block.
	onOver func(*LimitError)

	pages *pageTaker // when set, takes the answers to the lister's requests
	// recorded, when set, is called after each line is recorded, on the
	// reading goroutine.
	recorded func()
}

func newTapReader(r io.Reader, w *Wire, limit int64) *tapReader {
	return &tapReader{r: r, wire: w, limit: limit, buf: make([]byte, tapReadSize), eof: make(chan struct{})}
}

// overLimit returns the error of a line that went over the limit, or nil.
func (t *tapReader) overLimit() *LimitError { return t.over.Load() }

func (t *tapReader) Read(p []byte) (int, error) {
	for t.off == len(t.out) && t.err == nil {
		t.out, t.off = t.out[:0], 0
		if cap(t.out) > maxIdleBuffer {
			t.out = nil // a big answer passed; do not hold its size
		}
		n, err := t.r.Read(t.buf)
		t.feed(t.buf[:n])
		if err != nil && t.err == nil {
			if len(t.line) > 0 || t.size > 0 {
				t.endLine() // a last line without its newline
			}
			t.err = err
			t.once.Do(func() { close(t.eof) })
		}
	}
	if t.off < len(t.out) {
		n := copy(p, t.out[t.off:])
		t.off += n
		return n, nil
	}
	return 0, t.err
}

func (t *tapReader) feed(p []byte) {
	for len(p) > 0 && t.err == nil {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.add(p)
			return
		}
		t.add(p[:i])
		if t.err != nil {
			return
		}
		t.endLine()
		p = p[i+1:]
	}
}

func (t *tapReader) add(p []byte) {
	if int64(t.size)+int64(len(p)) > t.limit {
		t.abandon(p)
		return
	}
	t.size += len(p)
	if need := len(t.line) + len(p); need > cap(t.line) {
		// Doubled, not left to append, which grows a large slice by a
		// quarter: a 250 KB line would be copied some fifteen times.
		t.line = slices.Grow(t.line, int(min(int64(max(need, 2*cap(t.line))), t.limit))-len(t.line))
	}
	t.line = append(t.line, p...)
}

// abandon gives up the current line, which p takes over the limit: its
// start is recorded, with how much of it was read, and reading ends with a
// *LimitError. Lines before it that the protocol has not read yet are
// still handed over first.
func (t *tapReader) abandon(p []byte) {
	t.size += len(p)
	start := t.line
	if len(start) < MaxFrameBytes {
		start = append(start, p[:min(len(p), MaxFrameBytes-len(start))]...)
	}
	err := &LimitError{Limit: "line", Max: t.limit, What: "a line of stdout"}
	t.wire.recordOver(In, start, t.size, fmt.Sprintf("over the %s line limit: abandoned after %d bytes, the rest not read", FormatSize(t.limit), t.size))
	t.line, t.size = nil, 0
	t.err = err
	t.over.Store(err)
	t.once.Do(func() { close(t.eof) })
	if t.onOver != nil {
		t.onOver(err)
	}
}

// endLine records the current line and passes its JSON on.
func (t *tapReader) endLine() {
	line := bytes.TrimSuffix(t.line, []byte("\r"))
	switch {
	case json.Valid(line):
		t.wire.record(In, line, len(line), frameJSON)
		if t.pages != nil {
			if stub, took := t.pages.offer(line); took {
				t.out = append(append(t.out, stub...), '\n')
				break
			}
		}
		if len(t.out) == 0 && len(line) == len(t.line) {
			// The line is all the protocol has to read: it is handed over
			// rather than copied, and the drained buffer holds the next.
			t.out, t.line = append(t.line, '\n'), t.out[:0]
			break
		}
		t.out = append(append(t.out, line...), '\n')
	default:
		for _, part := range splitJunk(line) {
			kind := frameJunk
			if part.json {
				kind = frameJSON // decoded as one value
			}
			t.wire.record(In, part.text, len(part.text), kind)
			if part.json {
				t.out = append(append(t.out, part.text...), '\n')
			}
		}
	}
	t.line, t.size = t.line[:0], 0
	if cap(t.line) > maxIdleBuffer {
		t.line = nil // do not hold a big line's buffer for the lines after
	}
	if t.recorded != nil {
		t.recorded()
	}
}

// A linePart is a piece of a line that is not JSON as a whole.
type linePart struct {
	text []byte
	json bool
}

// splitJunk cuts a line that is not JSON into the JSON objects it carries
// and the junk around them. Whitespace between parts is dropped; a line of
// only junk (or an empty line) is one junk part.
func splitJunk(line []byte) []linePart {
	var parts []linePart
	junk := func(b []byte) {
		if len(bytes.TrimSpace(b)) > 0 {
			parts = append(parts, linePart{text: b})
		}
	}
	start, pos, misses := 0, 0, 0
	lead := len(line) - len(bytes.TrimLeft(line, " \t"))
	for misses < maxSalvageMisses {
		j := bytes.IndexByte(line[pos:], '{')
		if j < 0 {
			break
		}
		j += pos
		dec := json.NewDecoder(bytes.NewReader(line[j:]))
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			if j == lead && isMessage(line) {
				// A JSON-RPC message that is not JSON (a NaN, nested too
				// deep): one frame, so the monitor can say why it is
				// refused, rather than pieces of it salvaged as messages.
				return []linePart{{text: line}}
			}
			misses++
			pos = j + 1
			continue
		}
		end := j + int(dec.InputOffset())
		junk(line[start:j])
		parts = append(parts, linePart{text: line[j:end], json: true})
		start, pos = end, end
	}
	junk(line[start:])
	if len(parts) == 0 {
		parts = append(parts, linePart{text: line})
	}
	return parts
}

// isMessage reports whether line, which starts with '{', reads as a
// JSON-RPC object up to its top-level "jsonrpc" member.
func isMessage(line []byte) bool {
	var v [1][]byte
	return jsonMembers(line, []string{"jsonrpc"}, v[:]) && v[0] != nil
}

// A tapWriter records every line written to a server's stdin. Each line is
// recorded before it is written, so a request always precedes its response
// in the log.
type tapWriter struct {
	w       io.WriteCloser
	wire    *Wire
	mu      sync.Mutex
	partial []byte
	size    int
	once    sync.Once
	err     error
}

func newTapWriter(w io.WriteCloser, wire *Wire) *tapWriter {
	return &tapWriter{w: w, wire: wire}
}

func (t *tapWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		chunk := rest
		if i >= 0 {
			chunk = rest[:i]
		}
		t.size += len(chunk)
		if room := maxLineBytes - len(t.partial); room > 0 {
			t.partial = append(t.partial, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			break
		}
		t.wire.record(Out, bytes.TrimSuffix(t.partial, []byte("\r")), t.size, frameUnchecked)
		t.partial, t.size = t.partial[:0], 0
		rest = rest[i+1:]
	}
	return t.w.Write(p)
}

// Close closes the server's stdin once; later calls return the first result.
func (t *tapWriter) Close() error {
	t.once.Do(func() { t.err = t.w.Close() })
	return t.err
}
