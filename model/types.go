package model

import (
	"encoding/json"
	"strconv"
)

// A Tool is one row of a server's tools/list answer, kept as advertised.
type Tool struct {
	// Name is the wire name. It is meaningful only when NameOK is true.
	Name string
	// NameOK reports whether the row carries a usable name: present, a JSON
	// string, and not empty.
	NameOK bool
	// NameProblem says why the name is unusable ("missing name", "empty name",
	// "name is a number, not a string"); empty when NameOK.
	NameProblem string
	Title       string
	Description string
	// InputSchema is the row's inputSchema exactly as listed (may be nil).
	InputSchema json.RawMessage
	// Raw is the whole row exactly as listed.
	Raw json.RawMessage
	// FilteredBy says why the client's config withholds the row
	// ("excludeTools lists it"); "" when it does not. Such a row reaches no
	// policy: its outcome is Filtered.
	FilteredBy string
	// Rejected says why the client rejects the row's definition before
	// any naming ("rejected for its x-mcp-header: ..."; MarkRejected);
	// "" when it does not. Such a row reaches no policy: its outcome is
	// Dropped with this reason.
	Rejected string

	// App is what the row's _meta.ui says of its app (MCP Apps, apps.go);
	// nil when the row names none.
	App *ToolApp

	// withheld, set only on forModel's copy of a row, says why a client
	// that hosts apps keeps the row from the model.
	withheld string
}

// A Catalogue is what one server advertised, in the order it advertised it.
type Catalogue struct {
	// Server is the server label: the key in the config file.
	Server string
	Tools  []Tool
	// HostsApps says the client the server was listed for hosts MCP Apps
	// (its handshake declares the extension): it keeps app-only tools
	// from the model (apps.go).
	HostsApps bool
}

// An OutcomeKind is what a policy did with one advertised row.
type OutcomeKind int

const (
	// Registered: the row is in the registry under its wire name.
	Registered OutcomeKind = iota
	// Renamed: the row is in the registry under a name other than its wire name.
	Renamed
	// Dropped: the row never reached the registry (collision lost, invalid,
	// malformed, duplicate within one server, withheld by a failed server).
	Dropped
	// Displaced: the row was registered, then overwritten by a later route.
	Displaced
	// Filtered: the client withholds the row before any naming policy sees
	// it: its config (a tool filter, or a disabled server), or, for an
	// app-only tool, its hosting of MCP Apps.
	Filtered
)

// An Outcome is the fate of one advertised row under one policy.
type Outcome struct {
	Server string
	// Index is the row's position in its catalogue.
	Index int
	// Wire is the wire name ("" for a row without a usable name).
	Wire string
	// Name is the registered name, or for a dropped or displaced row the name
	// it would have had ("" when the policy could not form one).
	Name string
	Kind OutcomeKind
	// Reason says why, for Dropped and Displaced (and notes for Renamed).
	Reason string
	// By is the server label that won the name or displaced this row.
	By string
	// Alias is a policy's legacy alias for the row (qwen), not a registry key.
	Alias string
	// Untruncated is Name as it was before the policy cut it to its length
	// limit (codex, gemini-cli, vscode); "" when the name was not cut. Two
	// rows with one Name and different Untruncated collided by truncation.
	Untruncated string
}

// Live reports whether the outcome leaves a route in the registry.
func (o Outcome) Live() bool { return o.Kind == Registered || o.Kind == Renamed }

// A ServerResult is one server's part of a registry.
type ServerResult struct {
	Server     string
	Advertised int
	// Registered counts rows left live in the registry.
	Registered int
	// Missing lists advertised wire names with no live route, sorted.
	Missing []string
	// Failed is set when the policy fails the server as a whole (lionagi's
	// postcondition); Err says why in the policy's own words.
	Failed bool
	Err    string
	// Notes are server-level messages that do not fail it.
	Notes    []string
	Outcomes []Outcome
}

// A Route is where a registered name's calls go: fixed at discovery.
type Route struct {
	Name   string
	Server string
	Wire   string
	Index  int
}

// String returns the outcome kind as the UI and reports spell it.
func (k OutcomeKind) String() string {
	switch k {
	case Registered:
		return "registered"
	case Renamed:
		return "renamed"
	case Dropped:
		return "dropped"
	case Displaced:
		return "displaced"
	case Filtered:
		return "filtered"
	}
	return "OutcomeKind(" + strconv.Itoa(int(k)) + ")"
}

// live returns the kind of a row that reached the registry under name: a
// row keeps Registered only when the model sees exactly its wire name.
func live(name, wire string) OutcomeKind {
	if name == wire {
		return Registered
	}
	return Renamed
}
