package loader

import (
	"sync"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
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
	out  chan mcpsession.Event
	wake chan struct{} // capacity 1: "the queue changed"

	mu            sync.Mutex
	queue         []mcpsession.Event
	framesPending map[string]bool
	closed        bool
}

func newEventQueue() *eventQueue {
	q := &eventQueue{
		out:           make(chan mcpsession.Event, eventBuffer),
		wake:          make(chan struct{}, 1),
		framesPending: map[string]bool{},
	}
	go q.pump()
	return q
}

// push queues ev; after close it is dropped.
func (q *eventQueue) push(ev mcpsession.Event) {
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
func (q *eventQueue) superseded(ev mcpsession.Event) int {
	if ev.Frames || ev.State != mcpsession.Ready {
		return -1
	}
	for i := len(q.queue) - 1; i >= 0; i-- {
		old := q.queue[i]
		if old.Server != ev.Server || old.Frames {
			continue
		}
		if old.State == mcpsession.Ready {
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
func (q *eventQueue) pop() (ev mcpsession.Event, ok, closed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) == 0 {
		return mcpsession.Event{}, false, q.closed
	}
	ev = q.queue[0]
	q.queue[0] = mcpsession.Event{}
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
func (q *eventQueue) send(ev mcpsession.Event) bool {
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
