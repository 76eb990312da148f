package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// liveCalls bounds the calls a Live backend keeps: the oldest go first.
const liveCalls = 10_000

// frameTick is how often a Live backend tells of frames that arrived.
const frameTick = 100 * time.Millisecond

// ErrWatching is what a Live backend answers a call with.
var ErrWatching = errors.New("watching taps: the calls are the real client's to make")

// A Live backend serves the interface what the running taps show, as they
// show it: a server for each tap (declared by its first event, since no
// config lists it), connecting until its client's listing passes, then
// ready with that listing, again at each new one; its frames, the client's
// calls, and the end of each tap (Closed, or Failed with the server's
// stderr when it never listed).
type Live struct {
	events chan mcpsession.Event

	mu    sync.Mutex
	d     *Decoder
	feeds map[string]string    // feed socket → server label
	alias map[string][2][]byte // feed socket → its lines' label and what replaces it
	dirty map[string]bool      // servers whose frames arrived since the last tick
	// missed are the feed lines the taps said this backend did not get,
	// and made the calls the clients made, kept or not.
	missed, made int

	// The calls as Observed last copied them, and the changes to the
	// calls they are of: an interface asks after every event.
	observed            []Call
	changes, observedAt int
}

// NewLive follows the taps in dir (Follow) until ctx ends.
func NewLive(ctx context.Context, dir string) *Live {
	d := NewDecoder()
	d.frames, d.maxCalls = map[string]*mcpsession.FrameLog{}, liveCalls
	l := &Live{events: make(chan mcpsession.Event, 64), d: d, feeds: map[string]string{}, alias: map[string][2][]byte{},
		dirty: map[string]bool{}}
	lines := make(chan FeedLine, 256)
	go Follow(ctx, dir, lines)
	go l.run(ctx, lines)
	return l
}

// run turns the feeds' lines into events until ctx ends.
func (l *Live) run(ctx context.Context, lines <-chan FeedLine) {
	defer close(l.events)
	tick := time.NewTicker(frameTick)
	defer tick.Stop()
	for {
		var evs []mcpsession.Event
		select {
		case <-ctx.Done():
			return
		case fl := <-lines:
			evs = l.take(fl)
		case <-tick.C:
			evs = l.framesArrived()
		}
		for _, ev := range evs {
			select {
			case l.events <- ev:
			case <-ctx.Done():
				return
			}
		}
	}
}

// take reads one line of a feed, or its end, and returns the events it
// makes.
func (l *Live) take(fl FeedLine) []mcpsession.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	if fl.Line == nil {
		label, ok := l.feeds[fl.Feed]
		delete(l.feeds, fl.Feed)
		delete(l.alias, fl.Feed)
		if !ok {
			return nil
		}
		return []mcpsession.Event{l.d.byLabel[label].Ended()}
	}
	if n := FeedDropped(fl.Line); n > 0 {
		l.missed += n
		if label, ok := l.feeds[fl.Feed]; ok {
			l.dirty[label] = true // told with the frames
		}
		return nil
	}
	var evs []mcpsession.Event
	for _, ob := range l.d.Line(l.relabel(fl)) {
		sv := l.d.byLabel[ob.Server]
		switch ob.Kind {
		case Tapped:
			l.feeds[fl.Feed] = sv.Label
			spec := specOf(sv)
			evs = append(evs, mcpsession.Event{Server: sv.Label, State: mcpsession.Connecting, Declare: &spec,
				Transport: spec.Transport})
		case Listed:
			evs = append(evs, mcpsession.Event{Server: sv.Label, State: mcpsession.Ready, Tools: sv.Tools,
				Protocol: sv.Protocol, ServerName: sv.ServerName, ServerVersion: sv.ServerVersion, Facts: sv.Facts, HostsApps: sv.HostsApps})
		default:
			l.dirty[sv.Label] = true // told with the frames
		}
		if ob.Call != nil {
			l.changes++
		}
		if ob.Kind == CallMade {
			l.made++
		}
	}
	if label, ok := l.feeds[fl.Feed]; ok {
		l.dirty[label] = true
	}
	return evs
}

// relabel returns the line of fl, its server's label replaced when another
// running tap has that label already (two clients running the same
// server): the second is "LABEL#2", and so on, so that the requests of the
// two are never paired with each other's answers.
func (l *Live) relabel(fl FeedLine) []byte {
	if _, known := l.feeds[fl.Feed]; !known {
		var h struct{ Server string }
		if json.Unmarshal(fl.Line, &h) == nil && h.Server != "" && l.running(h.Server) {
			label := h.Server
			for n := 2; l.running(label); n++ {
				label = h.Server + "#" + strconv.Itoa(n)
			}
			from, _ := json.Marshal(h.Server)
			to, _ := json.Marshal(label)
			l.alias[fl.Feed] = [2][]byte{append([]byte(`"server":`), from...), append([]byte(`"server":`), to...)}
		}
	}
	a, ok := l.alias[fl.Feed]
	if !ok {
		return fl.Line
	}
	return bytes.Replace(fl.Line, a[0], a[1], 1)
}

// running reports whether a feed being read has the label.
func (l *Live) running(label string) bool {
	for _, v := range l.feeds {
		if v == label {
			return true
		}
	}
	return false
}

// framesArrived returns a Frames event for each server whose frames or
// calls changed since the last.
func (l *Live) framesArrived() []mcpsession.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var evs []mcpsession.Event
	for label := range l.dirty {
		evs = append(evs, mcpsession.Event{Server: label, Frames: true})
	}
	clear(l.dirty)
	return evs
}

// Events returns the taps' events; the channel closes when ctx ends.
func (l *Live) Events() <-chan mcpsession.Event { return l.events }

// FrameLog returns the frames the tap of server passed.
func (l *Live) FrameLog(server string) *mcpsession.FrameLog {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.d.frames[server]
}

// Stderr returns the tail of what server wrote to stderr.
func (l *Live) Stderr(server string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if sv, ok := l.d.byLabel[server]; ok {
		return strings.Join(sv.Stderr, "\n")
	}
	return ""
}

// Call fails: the calls are the client's.
func (l *Live) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{}, ErrWatching
}

// Observed returns a copy of the calls the clients made so far, in the
// order made: the backend goes on filling its own. The copy is made again
// only when a call was made or answered since; it is the caller's to read,
// not to change.
func (l *Live) Observed() []Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.observed == nil || l.observedAt != l.changes {
		l.observed, l.observedAt = copyCalls(l.d.calls), l.changes
	}
	return l.observed
}

// Unkept counts what the backend could not show: feed lines it did not
// get, chunks the taps left out of their copies, and calls let go past
// liveCalls.
func (l *Live) Unkept() Unkept {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := Unkept{Lines: l.missed, Calls: l.made - len(l.d.calls)}
	for _, sv := range l.d.servers {
		u.Chunks += sv.Dropped
	}
	return u
}

// Client returns the client profile matching the first clientInfo seen.
func (l *Live) Client() (model.ClientInfo, model.Client, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.d.Capture().Client()
}

// copyCalls copies the calls themselves, which a decoder still answers,
// in the order they were made: the feeds of two taps, or two recordings,
// are read one after the other.
func copyCalls(calls []*Call) []Call {
	out := make([]Call, len(calls))
	for i, c := range calls {
		out[i] = *c
	}
	bySent := func(a, b Call) int { return a.Sent.Compare(b.Sent) }
	if !slices.IsSortedFunc(out, bySent) {
		slices.SortStableFunc(out, bySent)
	}
	return out
}

// specOf is the config entry a tapped server stands for.
func specOf(sv *Server) config.ServerSpec {
	spec := config.ServerSpec{Label: sv.Label, Transport: config.TransportStdio}
	if sv.Upstream != "" {
		spec.URL, spec.Transport = sv.Upstream, config.TransportHTTP
	} else if len(sv.Command) > 0 {
		spec.Command, spec.Args = sv.Command[0], sv.Command[1:]
	}
	return spec
}
