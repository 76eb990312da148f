package ui

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/mcpsession"
)

// A Backend is what the interface needs from a loader session. A
// *loader.Session is one.
type Backend interface {
	Events() <-chan mcpsession.Event
	FrameLog(server string) *mcpsession.FrameLog
	Stderr(server string) string
	Call(ctx context.Context, server, wire string, args json.RawMessage) (mcpsession.CallResult, error)
}

// eventMsg carries one loader event into Update.
type eventMsg mcpsession.Event

// eventsClosedMsg says the backend will send no more events.
type eventsClosedMsg struct{}

// eventsMsg carries every event that was waiting, oldest first, so that a
// burst of servers arriving costs one rebuild of the surface rather than
// one each: with many servers, rebuilding per event made connecting cost
// servers × rows.
type eventsMsg []mcpsession.Event

// maxEventBatch bounds the events delivered at once.
const maxEventBatch = 256

// waitEvent returns the command that delivers the backend's next events:
// it waits for one, then takes those already queued behind it.
func waitEvent(events <-chan mcpsession.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-events
		if !ok {
			return eventsClosedMsg{}
		}
		batch := eventsMsg{ev}
		for len(batch) < maxEventBatch {
			select {
			case ev, ok := <-events:
				if !ok {
					return batch // the next wait reports the close
				}
				batch = append(batch, ev)
			default:
				return batch
			}
		}
		return batch
	}
}
