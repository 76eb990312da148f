package loader

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcplens/mcplens/mcpsession"
)

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

// A tapReader stands between a server's stdout and the protocol. It tells
// its observer of every line, byte for byte, and hands the protocol only
// JSON, and none that answers a request the protocol never sent (taken):
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
	obs   observer // told of every line
	buf   []byte   // read buffer
	limit int64    // Limits.Line

	line []byte // the current line, up to limit
	size int    // its length so far

	out []byte // bytes for the protocol, from off
	off int
	err error // the error of the underlying reader, or a *LimitError, once seen

	eof  chan struct{} // closed when reading ends: an error, end of file, a line over the limit
	once sync.Once

	over atomic.Pointer[LimitError] // set when a line went over the limit
}

func newTapReader(r io.Reader, obs observer, limit int64) *tapReader {
	return &tapReader{r: r, obs: obs, limit: limit, buf: make([]byte, tapReadSize), eof: make(chan struct{})}
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
	if len(start) < mcpsession.MaxFrameBytes {
		start = append(start, p[:min(len(p), mcpsession.MaxFrameBytes-len(start))]...)
	}
	err := &LimitError{Limit: "line", Max: t.limit, What: "a line of stdout"}
	t.err = err
	t.over.Store(err)
	recordOver(t.obs, mcpsession.In, start, t.size, err)
	t.line, t.size = nil, 0
	t.once.Do(func() { close(t.eof) })
}

// endLine records the current line and passes its JSON on.
func (t *tapReader) endLine() {
	line := bytes.TrimSuffix(t.line, []byte("\r"))
	switch {
	case json.Valid(line):
		switch f := record(t.obs, mcpsession.In, line, len(line), frameJSON); {
		case f.taken:
		case len(t.out) == 0 && len(line) == len(t.line):
			// The line is all the protocol has to read: it is handed over
			// rather than copied, and the drained buffer holds the next.
			t.out, t.line = append(t.line, '\n'), t.out[:0]
		default:
			t.out = append(append(t.out, line...), '\n')
		}
	default:
		for _, part := range splitJunk(line) {
			kind := frameJunk
			if part.json {
				kind = frameJSON // decoded as one value
			}
			if f := record(t.obs, mcpsession.In, part.text, len(part.text), kind); part.json && !f.taken {
				t.out = append(append(t.out, part.text...), '\n')
			}
		}
	}
	t.line, t.size = t.line[:0], 0
	if cap(t.line) > maxIdleBuffer {
		t.line = nil // do not hold a big line's buffer for the lines after
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

// A tapWriter tells its observer of every line written to a server's
// stdin. Each line is recorded before it is written, so a request always
// precedes its response in the log. A Write is one whole, so the lines of
// writers sharing it never interleave.
type tapWriter struct {
	w       io.WriteCloser
	obs     observer
	mu      sync.Mutex
	partial []byte
	size    int
	once    sync.Once
	err     error
}

func newTapWriter(w io.WriteCloser, obs observer) *tapWriter {
	return &tapWriter{w: w, obs: obs}
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
		record(t.obs, mcpsession.Out, bytes.TrimSuffix(t.partial, []byte("\r")), t.size, frameUnchecked)
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
