package ui

import (
	"context"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Every interface the interface asks of what feeds it is here: Backend,
// which every backend is, and the optional capabilities below, which a
// backend has or lacks. A *loader.Session has them all but
// ObservedBackend; an offline recording or mcplens watch's taps
// (capture) have Backend and ObservedBackend. The capabilities are found
// once, when the Model is made (capabilitiesOf), and read from
// env.can: a component asks env.can.logs != nil, never the backend's
// type. A new optional capability is one interface here, one field of
// capabilities and one line of capabilitiesOf.

// A Backend is what the interface needs from a loader session. A
// *loader.Session is one.
type Backend interface {
	Events() <-chan mcpsession.Event
	FrameLog(server string) *mcpsession.FrameLog
	Stderr(server string) string
	Call(ctx context.Context, server, wire string, args json.RawMessage) (mcpsession.CallResult, error)
}

// A reconnector is a backend that can connect a server again with another
// handshake, reporting whether the handshake differed from the one the
// server was connected with (a *loader.Session is one).
type reconnector interface {
	Reconnect(label string, h model.Handshake) bool
}

// A retrier is a backend that connects a server again with the handshake
// it had, as after a login (a *loader.Session is one).
type retrier interface {
	Retry(label string) bool
}

// A LogBackend is a Backend that also keeps the servers' log messages
// (notifications/message) and asks them for a level. A *loader.Session is
// one; a backend that is not shows an empty log pane.
type LogBackend interface {
	Logs(server string) ([]loader.LogMessage, int)
	SetLogLevel(server, level string) error
}

// An ObservedBackend is a Backend that shows what a real client did
// through a tap (a recording opened offline, or mcplens watch): the calls
// it made, and the clientInfo it sent.
type ObservedBackend interface {
	Observed() []capture.Call
	// Unkept counts what could not be kept of what the taps passed,
	// shown where the calls are.
	Unkept() capture.Unkept
	Client() (model.ClientInfo, model.Client, bool)
}

// An offersBackend is what the view needs of the session beyond Backend.
// A *loader.Session is one; a backend that is not gets a message saying so.
type offersBackend interface {
	ReadResource(ctx context.Context, server, uri string) (loader.ResourceRead, error)
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (loader.PromptResult, error)
	Complete(ctx context.Context, server string, ref loader.CompletionRef, arg, value string, known map[string]string) (loader.Completion, error)
	Subscribe(ctx context.Context, server, uri string) error
	Unsubscribe(ctx context.Context, server, uri string) error
	Subscribed(server, uri string) bool
	ResourceUpdates(server string) ([]loader.ResourceUpdate, int)
}

// A restarter is a Backend that restarts, disconnects and connects one
// server (a *loader.Session): x restarts the selected server, X
// disconnects it, or connects it when it is disconnected or failed. The
// loader's events say how it goes; the surface gives the status.
type restarter interface {
	Restart(label string) bool
	Disconnect(label string) bool
	Connect(label string) bool
}

// A rooter is a backend whose roots can change during the run (a
// *loader.Session is one): SetRoots answers roots/list with dirs from now
// on and returns the servers sent notifications/roots/list_changed.
type rooter interface {
	Roots() []string
	SetRoots(dirs []string) []string
}

// A protocolSwitcher is a backend that can force a protocol revision on
// every server from its next connect on ("" for each handshake's own); a
// *loader.Session is one: V cycles the revisions (protocol.go).
type protocolSwitcher interface {
	SetProtocol(revision string)
}

// capabilities are the optional parts of a backend, each nil when the
// backend lacks it. What a missing one means is decided where it is read:
// an empty log pane, a note in the footer, a message in the view.
type capabilities struct {
	reconnect reconnector      // c switches the client profile (clients.go)
	retry     retrier          // a login ends in a reconnect (login.go)
	logs      LogBackend       // the log pane (logpane.go)
	observed  ObservedBackend  // the calls pane and the tap's client (observed.go)
	offers    offersBackend    // the resources view's reads (resources.go)
	restart   restarter        // x and X (restart.go)
	roots     rooter           // the roots editor (roots.go)
	protocol  protocolSwitcher // V forces a revision (protocol.go)
}

// capabilitiesOf finds, once, what b can do beyond Backend.
func capabilitiesOf(b Backend) capabilities {
	var c capabilities
	c.reconnect, _ = b.(reconnector)
	c.retry, _ = b.(retrier)
	c.logs, _ = b.(LogBackend)
	c.observed, _ = b.(ObservedBackend)
	c.offers, _ = b.(offersBackend)
	c.restart, _ = b.(restarter)
	c.roots, _ = b.(rooter)
	c.protocol, _ = b.(protocolSwitcher)
	return c
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
