package loader

import (
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// eventBuffer is the capacity of the channel Events returns.
const eventBuffer = 64

// flushPatience is how long, after Close, the queue waits for a reader to
// take each remaining event before it gives up and closes the channel.
const flushPatience = 250 * time.Millisecond

// An eventQueue is an unbounded queue in front of the Events channel: a slow
// reader never blocks a connection and never loses a state change. Frames
// events carry no data, so at most one per server waits in the queue; a
// Ready event replaces the server's Ready event still waiting when nothing
// else of that server came after it. However fast a server relists, what
// waits stays bounded.
type eventQueue struct {
	out  chan Event
	wake chan struct{} // capacity 1: "the queue changed"

	mu            sync.Mutex
	queue         []Event
	framesPending map[string]bool
	closed        bool
}

func newEventQueue() *eventQueue {
	q := &eventQueue{
		out:           make(chan Event, eventBuffer),
		wake:          make(chan struct{}, 1),
		framesPending: map[string]bool{},
	}
	go q.pump()
	return q
}

// push queues ev; after close it is dropped.
func (q *eventQueue) push(ev Event) {
	q.mu.Lock()
	if q.closed || (ev.Frames && q.framesPending[ev.Server]) {
		q.mu.Unlock()
		return
	}
	if ev.Frames {
		q.framesPending[ev.Server] = true
	}
	if i := q.superseded(ev); i >= 0 {
		q.queue[i] = ev
	} else {
		q.queue = append(q.queue, ev)
	}
	q.mu.Unlock()
	q.signal()
}

// superseded returns the index of the waiting event ev replaces, or -1.
func (q *eventQueue) superseded(ev Event) int {
	if ev.Frames || ev.State != Ready {
		return -1
	}
	for i := len(q.queue) - 1; i >= 0; i-- {
		old := q.queue[i]
		if old.Server != ev.Server || old.Frames {
			continue
		}
		if old.State == Ready {
			return i
		}
		return -1 // a state change of its own: keep both
	}
	return -1
}

// close stops accepting events. What is queued is still delivered to a
// reader that keeps reading; then the channel is closed.
func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *eventQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop takes the oldest event; ok is false when the queue is empty.
func (q *eventQueue) pop() (ev Event, ok, closed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) == 0 {
		return Event{}, false, q.closed
	}
	ev = q.queue[0]
	q.queue[0] = Event{}
	q.queue = q.queue[1:]
	if ev.Frames {
		q.framesPending[ev.Server] = false
	}
	return ev, true, q.closed
}

func (q *eventQueue) pump() {
	defer close(q.out)
	for {
		ev, ok, closed := q.pop()
		if !ok {
			if closed {
				return
			}
			<-q.wake
			continue
		}
		if !q.send(ev) {
			return
		}
	}
}

// send delivers ev, waiting as long as it takes before close and at most
// flushPatience after: Close must not be held hostage by a reader that left.
// It reports whether ev was delivered.
func (q *eventQueue) send(ev Event) bool {
	for {
		q.mu.Lock()
		closed := q.closed
		q.mu.Unlock()
		if closed {
			t := time.NewTimer(flushPatience)
			defer t.Stop()
			select {
			case q.out <- ev:
				return true
			case <-t.C:
				return false
			}
		}
		select {
		case q.out <- ev:
			return true
		case <-q.wake:
			// Something changed, perhaps close: look again.
		}
	}
}

// maxInstructions bounds the instructions a server's Facts keep: they are
// shown and reported, never sent on, and a server may send megabytes.
const maxInstructions = 4 << 10

// ServerFacts are what a server said of itself when it connected, beyond
// its name and version: display only, never an identity.
type ServerFacts struct {
	// Capabilities lists the capabilities the server declared, each with
	// its flags: "tools(listChanged)", "logging", ...
	Capabilities []string
	// Instructions is the server's hint to the model, as sent, cut to
	// maxInstructions bytes (Cut says so).
	Instructions string
	Cut          bool
	// Title and Website are the serverInfo's title and websiteUrl.
	Title, Website string
}

// factsOf returns the facts of an initialize answer.
func factsOf(init *mcp.InitializeResult) ServerFacts {
	f := ServerFacts{
		Capabilities: capabilityNames(init.Capabilities),
		Instructions: init.Instructions,
		Title:        init.ServerInfo.Title,
		Website:      init.ServerInfo.WebsiteURL,
	}
	if len(f.Instructions) > maxInstructions {
		n := maxInstructions
		for n > 0 && !utf8.RuneStart(f.Instructions[n]) {
			n--
		}
		f.Instructions, f.Cut = f.Instructions[:n], true
	}
	return f
}

// capabilityNames lists the capabilities c declares, in the specification's
// order, each with the flags it sets.
func capabilityNames(c mcp.ServerCapabilities) []string {
	var out []string
	add := func(declared bool, name string, flags ...string) {
		if !declared {
			return
		}
		if len(flags) > 0 {
			name += "(" + strings.Join(flags, ",") + ")"
		}
		out = append(out, name)
	}
	flag := func(set bool, name string) []string {
		if set {
			return []string{name}
		}
		return nil
	}
	add(c.Tools != nil, "tools", flag(c.Tools != nil && c.Tools.ListChanged, "listChanged")...)
	var res []string
	if r := c.Resources; r != nil {
		res = append(flag(r.Subscribe, "subscribe"), flag(r.ListChanged, "listChanged")...)
	}
	add(c.Resources != nil, "resources", res...)
	add(c.Prompts != nil, "prompts", flag(c.Prompts != nil && c.Prompts.ListChanged, "listChanged")...)
	add(c.Logging != nil, "logging")
	add(c.Completions != nil, "completions")
	add(c.Sampling != nil, "sampling")
	add(c.Elicitation != nil, "elicitation")
	add(c.Roots != nil, "roots")
	add(c.Tasks != nil, "tasks")
	add(len(c.Experimental) > 0, "experimental", sortedKeys(c.Experimental)...)
	add(len(c.Extensions) > 0, "extensions", sortedKeys(c.Extensions)...)
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
