package ui

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"
	"github.com/mcplens/mcplens/loader"
)

// A Backend is what the interface needs from a loader session. A
// *loader.Session is one.
type Backend interface {
	Events() <-chan loader.Event
	Wire(server string) *loader.Wire
	Stderr(server string) string
	Call(ctx context.Context, server, wire string, args json.RawMessage) (loader.CallResult, error)
}

// eventMsg carries one loader event into Update.
type eventMsg loader.Event

// eventsClosedMsg says the backend will send no more events.
type eventsClosedMsg struct{}

// waitEvent returns the command that delivers the backend's next event.
func waitEvent(events <-chan loader.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-events
		if !ok {
			return eventsClosedMsg{}
		}
		return eventMsg(ev)
	}
}
