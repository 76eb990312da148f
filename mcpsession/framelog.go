package mcpsession

import (
	"bytes"
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
	// App names the MCP App a frame crossed to or from (its tool's wire
	// name), "" for the server's own frames. An app's frames are kept in
	// its server's log: Out is mcplens, the app's host, to the app; In is
	// the app to mcplens.
	App string
}

// Truncated reports whether Bytes holds only the start of the line.
func (f Frame) Truncated() bool { return f.Size > len(f.Bytes) }

const (
	// MaxFrames is how many frames a FrameLog keeps per server.
	MaxFrames = 2000
	// MaxFrameBytes is how much of one line a FrameLog keeps.
	MaxFrameBytes = 64 << 10
	// MaxLogBytes bounds the bytes a FrameLog holds in full. Past it, the
	// oldest frames are cut to OldFrameBytes (the wire pane shows a line's
	// first few hundred bytes at most), so a server's log stays within
	// about MaxLogBytes + MaxFrames × OldFrameBytes however it talks:
	// 2000 frames of 64 KB would be 125 MB.
	MaxLogBytes = 4 << 20
	// OldFrameBytes is how much of an old frame is kept once the FrameLog
	// holds more than MaxLogBytes.
	OldFrameBytes = 1 << 10
)

// A FrameLog is a bounded, concurrency-safe log of the frames of one
// server: the last MaxFrames lines, each cut to MaxFrameBytes, the oldest
// cut to OldFrameBytes once they add up to more than MaxLogBytes. It is the
// observer that keeps what the others said of each frame.
type FrameLog struct {
	server string

	mu    sync.Mutex
	ring  []Frame
	head  int // index in ring of the oldest frame once the ring is full
	total int
	held  int // bytes of the frames in ring
	cut   int // how many of the oldest frames are cut to OldFrameBytes
}

// Frames returns a copy of the frames held, oldest first.
func (l *FrameLog) Frames() []Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Frame, 0, len(l.ring))
	out = append(out, l.ring[l.head:]...)
	out = append(out, l.ring[:l.head]...)
	return out
}

// Len returns how many frames the server ever exchanged, including those no
// longer held: a watcher compares it to know whether anything is new.
func (l *FrameLog) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// NewFrameLog returns an empty frame log of server: a session's, whose
// frames it adds as they cross, or one of frames read back from elsewhere
// (a tap's recording).
func NewFrameLog(server string) *FrameLog { return &FrameLog{server: server} }

// Add keeps f, at most MaxFrameBytes of it, as a frame of the log's server
// at f.At, as it crossed the wire; Size is at least len(f.Bytes).
func (l *FrameLog) Add(f Frame) {
	f.Server, f.Size = l.server, max(f.Size, len(f.Bytes))
	f.Bytes = bytes.Clone(f.Bytes[:min(len(f.Bytes), MaxFrameBytes)])
	l.keep(f)
}

// keep holds kept, dropping the oldest frame when the ring is full.
func (l *FrameLog) keep(kept Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < MaxFrames {
		l.ring = append(l.ring, kept)
	} else {
		l.held -= len(l.ring[l.head].Bytes)
		l.ring[l.head] = kept
		l.head = (l.head + 1) % MaxFrames
		l.cut = max(0, l.cut-1) // the oldest frame, cut or not, is gone
	}
	l.held += len(kept.Bytes)
	l.total++
	l.trim()
}

// trim cuts the oldest frames not yet cut to OldFrameBytes until the ring
// holds at most MaxLogBytes, the newest frame excepted. Each frame is cut
// once, so over a session trimming costs a constant per frame. A cut frame
// gets a new, small array: a copy of Frames taken before still reads the
// old one.
func (l *FrameLog) trim() {
	for l.held > MaxLogBytes && l.cut < len(l.ring)-1 {
		f := &l.ring[(l.head+l.cut)%len(l.ring)]
		if len(f.Bytes) > OldFrameBytes {
			l.held -= len(f.Bytes) - OldFrameBytes
			f.Bytes = bytes.Clone(f.Bytes[:OldFrameBytes])
		}
		l.cut++
	}
}
