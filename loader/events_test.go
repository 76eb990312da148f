package loader

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestEventQueue(t *testing.T) {
	q := newEventQueue()
	// Nobody reads yet: far more events than the channel holds. Server a
	// changes state every time; b relists again and again.
	const n = 5 * eventBuffer
	for i := range n {
		state := mcpsession.Ready
		if i%2 == 1 {
			state = mcpsession.Failed
		}
		q.push(mcpsession.Event{Server: "a", State: state, Err: string(rune('a' + i%26))})
		q.push(mcpsession.Event{Server: "a", Frames: true})
		q.push(mcpsession.Event{Server: "b", Frames: true})
		q.push(mcpsession.Event{Server: "b", State: mcpsession.Ready, Err: fmt.Sprint(i)})
	}
	q.close()
	q.push(mcpsession.Event{Server: "late", State: mcpsession.Failed}) // after close: dropped

	states, frames := 0, 0
	var bs []string
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-q.out:
			if !ok {
				if states != n {
					t.Errorf("state changes of a delivered %d, want all %d", states, n)
				}
				if frames > 2*eventBuffer+2 {
					t.Errorf("frames events %d, want them coalesced", frames)
				}
				// b's Ready events replace one another while they wait:
				// the channel's worth, then the last one.
				if len(bs) > eventBuffer+2 || bs[len(bs)-1] != fmt.Sprint(n-1) {
					t.Errorf("b's Ready events delivered: %d, last %q; want at most %d, the last %d", len(bs), bs[len(bs)-1], eventBuffer+2, n-1)
				}
				return
			}
			switch {
			case ev.Server == "late":
				t.Errorf("event pushed after close was delivered")
			case ev.Frames:
				frames++
			case ev.Server == "b":
				bs = append(bs, ev.Err)
			default:
				states++
			}
		case <-timeout:
			t.Fatal("channel not closed")
		}
	}
}
