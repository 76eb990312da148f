package mcpsession

import (
	"fmt"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// A State is where one server's connection stands.
type State int

const (
	Connecting State = iota
	Ready
	Failed
	Closed
	// Disconnected: stopped on request (loader's Session.Disconnect)
	// until Connect or Restart starts it again.
	Disconnected
)

func (s State) String() string {
	switch s {
	case Connecting:
		return "connecting"
	case Ready:
		return "ready"
	case Failed:
		return "failed"
	case Closed:
		return "closed"
	case Disconnected:
		return "disconnected"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// An Event reports a change on one server.
type Event struct {
	Server string
	State  State
	// Err says what failed (Failed), including how the process ended; on
	// Ready it is a note about an incomplete or failed (re)listing.
	Err string
	// Stderr is the tail of the server's stderr, set with Failed.
	Stderr   string
	Protocol string // the negotiated protocol version
	// ServerName and ServerVersion are the serverInfo the server gave:
	// for display only, never an identity (the label is).
	ServerName, ServerVersion string
	// Facts are the rest of what the server said of itself, set with Ready.
	Facts ServerFacts
	// Tools is what the server advertised, in its order: set with Ready,
	// again after every relisting.
	Tools []model.Tool
	// Offers are its resources, templates and prompts: set with Ready,
	// again after every relisting (offers.go).
	Offers Offers
	// HostsApps, set with Ready, says the handshake the server was listed
	// under declares MCP Apps: that client keeps app-only tools from its
	// model (model.Catalogue.HostsApps).
	HostsApps bool
	// Frames marks a "frames arrived on this server, nothing else" event.
	// Frames events are coalesced and carry no other field but Server.
	Frames bool
	// Deadline, set with Connecting, is when the connect gives up: a view
	// counts down to it. A stdio server whose process was slow to start
	// sends Connecting again with the later deadline that holds.
	Deadline time.Time
	// Transport is the server's transport (config.TransportStdio, ...), set with
	// Connecting.
	Transport string
	// Findings are the protocol faults the server committed so far (text
	// that is not JSON on stdout, frames that are not JSON-RPC, answers to
	// ids nobody asked for), the first of each kind, as Kind "protocol".
	// Set on Ready and Failed; a new kind of fault on a Ready server sends
	// its Ready event again.
	Findings []model.Finding
	// NeedsLogin, set with Failed, says the server waits for a login
	// (Options.HTTPAuth); Err says how to log in.
	NeedsLogin bool
	// Declare, set with Connecting by a source of servers no config lists
	// (the taps mcplens watch finds as they start), is the server's entry:
	// a snapshot adds the server it does not know yet.
	Declare *config.ServerSpec
}

// Offers are what a server offers beside its tools, listed at connect when
// it declares the capability and again on its list_changed: resources,
// resource templates and prompts, each row as listed. They are bounded as
// tools are (Limits.Page, Limits.Listing, the pages a listing follows);
// a listing that fails or stops early leaves a note, never fails the
// server.
type Offers struct {
	// Resources and Templates are listed when the server declares
	// resources; Prompts when it declares prompts.
	Resources []model.Resource
	Templates []model.ResourceTemplate
	Prompts   []model.Prompt
	// Notes say which listing failed or stopped early, and why.
	Notes []string
	// Subscribe reports whether the server declared resources
	// subscriptions; Completions whether it declared completions.
	Subscribe, Completions bool
}
