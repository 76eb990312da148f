package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/recording"
)

// maxLine bounds one line of a live feed: a frame is cut at 256 KiB
// before it is recorded, and escaping at most sextuples it. A recording's
// file is read within the run's line limit instead (Read).
const maxLine = 8 << 20

// A Capture is what one or more recordings show: every tapped server, in
// the order first seen, and every call, in the order made.
type Capture struct {
	Servers []*Server
	Calls   []*Call
	// frames are each server's frames, when read from files.
	frames map[string]*mcpsession.FrameLog
	// Skipped says which lines of the files read were over the line limit
	// and left out (bounded.Count.Skipped, one per file), nil when none.
	Skipped error
	// LetGo counts the oldest calls let go to keep at most MaxReadCalls
	// (Read) or the interface's share (Live).
	LetGo int
}

// MaxReadCalls bounds the calls Read keeps of recordings: past it, the
// oldest quarter is let go (Capture.LetGo counts them), so that a file of
// millions of calls is read in bounded memory.
const MaxReadCalls = 100_000

// MaxReadServers bounds the servers Read (and WriteHAR) reads of
// recordings: a recording is of one client's servers, and each costs a
// few KiB to judge; more is an error.
const MaxReadServers = 50_000

// Capture returns what d has read so far. The values are d's: they change
// as d reads on.
func (d *Decoder) Capture() *Capture {
	calls := make([]*Call, len(d.calls))
	copy(calls, d.calls)
	servers := make([]*Server, len(d.servers))
	copy(servers, d.servers)
	return &Capture{Servers: servers, Calls: calls, frames: d.frames, LetGo: d.letGo}
}

// Server returns the server labelled label, or nil.
func (c *Capture) Server(label string) *Server {
	for _, sv := range c.Servers {
		if sv.Label == label {
			return sv
		}
	}
	return nil
}

// IsRecording reports whether the file at path is a regular file that
// begins as a tap's recording does. It never blocks (bounded.Open): a
// FIFO is not a recording, and the reader of a config says what it is.
func IsRecording(path string) bool {
	f, _, err := bounded.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return recording.IsHeader(head[:n])
}

// ReadOptions say how Read reads recordings.
type ReadOptions struct {
	// Lines bound each file and each of its lines.
	Lines bounded.Lines
	// Frames keeps each server's frames (FrameLog), for the wire pane; a
	// report has no use for them.
	Frames bool
}

// Read reads the recordings at paths, in order, into one capture. Each
// file is read line by line within o.Lines (bounded.Lines): a line over
// its line limit is skipped and said in Capture.Skipped; a file over its
// file limit is an error.
func Read(o ReadOptions, paths ...string) (*Capture, error) {
	d := NewDecoder()
	d.maxCalls, d.maxServers = MaxReadCalls, MaxReadServers
	if o.Frames {
		d.frames = map[string]*mcpsession.FrameLog{}
	}
	var skipped []error
	for _, path := range paths {
		n, err := eachLine(o.Lines, path, func(b []byte) error {
			if d.Line(b); d.tooMany {
				return errServers(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		skipped = append(skipped, n.Skipped())
	}
	c := d.Capture()
	c.Skipped = errors.Join(skipped...)
	return c, nil
}

// eachLine calls f with each line of the recording at path, read within
// lim, and refuses a file whose first line is not a recording's header.
func eachLine(lim bounded.Lines, path string, f func([]byte) error) (bounded.Count, error) {
	first := true
	return lim.Each(path, func(b []byte) error { // its errors name the file
		if first && !recording.IsHeader(b) {
			return fmt.Errorf("reading %s: not an mcplens tap recording", path)
		}
		first = false
		return f(b)
	})
}

// errServers says that recordings hold more servers than mcplens reads.
func errServers(path string) error {
	return fmt.Errorf("reading %s: the recordings hold over %d servers, more than mcplens reads", path, MaxReadServers)
}

// readLine returns the next line of r, without its newline; a line over
// maxLine is skipped whole.
func readLine(r *bufio.Reader) ([]byte, error) {
	var long []byte
	skipping := false
	for {
		part, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if skipping = skipping || len(long)+len(part) > maxLine; skipping {
				long = long[:0]
			} else {
				long = append(long, part...)
			}
			continue
		}
		switch {
		case skipping:
			part = nil
		case long != nil:
			part = append(long, part...)
		}
		return bytes.TrimRight(part, "\r\n"), err
	}
}

// Ordered returns c with its servers in the order of labels: those not
// among them after, in the order first seen. A first-wins policy's
// registry depends on the order, which a recording or feed does not hold:
// the client's config does.
func (c *Capture) Ordered(labels []string) *Capture {
	if len(labels) == 0 {
		return c
	}
	rank := func(sv *Server) int {
		if i := slices.Index(labels, sv.Label); i >= 0 {
			return i
		}
		return len(labels)
	}
	out := *c
	out.Servers = slices.Clone(c.Servers)
	slices.SortStableFunc(out.Servers, func(a, b *Server) int { return rank(a) - rank(b) })
	return &out
}

// Specs returns a config entry for each server of c, as the snapshot of a
// capture declares them: its label and what the tap ran or proxied.
func (c *Capture) Specs() []config.ServerSpec {
	specs := make([]config.ServerSpec, len(c.Servers))
	for i, sv := range c.Servers {
		specs[i] = specOf(sv)
	}
	return specs
}

// Events returns the loader events a session would have sent for the
// servers of c (EachEvent).
func (c *Capture) Events() []mcpsession.Event {
	var evs []mcpsession.Event
	c.EachEvent(func(ev mcpsession.Event) { evs = append(evs, ev) })
	return evs
}

// EachEvent hands f, one at a time, the loader events a session would
// have sent for the servers of c: each connecting, then ready with what it
// listed to the client (or failed, when the recording shows no listing).
// An event is a few KiB: a recording of many servers is folded one event
// at a time rather than held as a slice of them.
func (c *Capture) EachEvent(f func(mcpsession.Event)) {
	for _, sv := range c.Servers {
		f(mcpsession.Event{Server: sv.Label, State: mcpsession.Connecting})
		if !sv.Listed {
			f(mcpsession.Event{Server: sv.Label, State: mcpsession.Failed, Err: "the recording holds no tools/list answer",
				Stderr: strings.Join(sv.Stderr, "\n")})
			continue
		}
		f(mcpsession.Event{Server: sv.Label, State: mcpsession.Ready, Tools: sv.Tools,
			Protocol: sv.Protocol, ServerName: sv.ServerName, ServerVersion: sv.ServerVersion, Facts: sv.Facts, HostsApps: sv.HostsApps})
	}
}

// Client returns the client profile matching the clientInfo the recording
// shows (the first server's that sent one); ok is false when none does.
func (c *Capture) Client() (info model.ClientInfo, profile model.Client, ok bool) {
	for _, sv := range c.Servers {
		if sv.Initialized {
			p, ok := model.ClientByInfo(sv.Client)
			return sv.Client, p, ok
		}
	}
	return model.ClientInfo{}, model.Client{}, false
}

// ErrOffline is what a capture's backend answers a call with.
var ErrOffline = errors.New("offline recording: no server to call")

// A Backend serves a capture to the interface as a session would, with no
// server behind it: its events, then nothing; calls fail with ErrOffline.
type Backend struct {
	c      *Capture
	events chan mcpsession.Event
}

// NewBackend returns the backend of c.
func NewBackend(c *Capture) *Backend {
	evs := c.Events()
	b := &Backend{c: c, events: make(chan mcpsession.Event, len(evs))}
	for _, ev := range evs {
		b.events <- ev
	}
	close(b.events)
	return b
}

// Events returns the capture's events; the channel is closed after them.
func (b *Backend) Events() <-chan mcpsession.Event { return b.events }

// FrameLog returns the frames recorded of server (Capture.FrameLog).
func (b *Backend) FrameLog(server string) *mcpsession.FrameLog { return b.c.FrameLog(server) }

// Stderr returns "": a recording keeps stderr as frames.
func (b *Backend) Stderr(string) string { return "" }

// Observed returns the calls the recording shows the client made.
func (b *Backend) Observed() []Call { return copyCalls(b.c.Calls) }

// Unkept counts the chunks of bytes the taps left out of the recordings.
func (b *Backend) Unkept() Unkept {
	var u Unkept
	for _, sv := range b.c.Servers {
		u.Chunks += sv.Dropped
	}
	return u
}

// Client returns the client profile matching the recorded clientInfo.
func (b *Backend) Client() (model.ClientInfo, model.Client, bool) { return b.c.Client() }

// Call fails: there is no server.
func (b *Backend) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{}, ErrOffline
}
