package surfacediff

import (
	"fmt"
	"slices"
	"strings"
)

// A Class is the kind of one change between two surfaces.
type Class string

// The classes, in the order a diff lists a server's changes.
const (
	ServerAdded   Class = "server-added"   // the config declares a new server
	ServerRemoved Class = "server-removed" // a server is no longer declared
	ServerFailed  Class = "server-failed"  // a server that listed its tools now fails
	ServerChanged Class = "server-changed" // endpoint, protocol, capabilities or status changed
	Added         Class = "added"          // a tool is advertised that was not
	Removed       Class = "removed"        // a tool is no longer advertised
	// DefinitionChanged: a tool's definition changed, field by field.
	DefinitionChanged Class = "definition-changed"
	// NameChanged: a tool registered on both sides is registered under
	// another name: calls under the old name now fail.
	NameChanged Class = "registered-name-changed"
	// Displaced: a tool that was registered is now dropped or displaced.
	Displaced Class = "displaced"
	// OutcomeChanged: any other change of outcome (a lost tool now
	// registered, another reason).
	OutcomeChanged Class = "outcome-changed"
	// ProviderError: a provider now rejects a registered name.
	ProviderError Class = "provider-error"
	// ProviderChanged: any other change of a provider's verdict.
	ProviderChanged Class = "provider-changed"
	FindingNew      Class = "finding-new"  // a finding that was not there
	FindingGone     Class = "finding-gone" // a finding that is no longer there
)

// Classes lists every class, in order.
func Classes() []Class {
	return []Class{ServerAdded, ServerRemoved, ServerFailed, ServerChanged, Added, Removed, DefinitionChanged,
		NameChanged, Displaced, OutcomeChanged, ProviderError, ProviderChanged, FindingNew, FindingGone}
}

// DefaultFailOn are the classes that break a client that worked before:
// a tool or server gone, a name that no longer resolves, a definition the
// model was prompted with changed, a provider that now refuses the request.
func DefaultFailOn() []Class {
	return []Class{ServerRemoved, ServerFailed, Removed, DefinitionChanged, NameChanged, Displaced, ProviderError}
}

// Help says what a class means, for SARIF's rules and the README.
func (c Class) Help() string {
	switch c {
	case ServerAdded:
		return "The config declares a server the other side does not."
	case ServerRemoved:
		return "A server is no longer declared: every tool it gave is gone."
	case ServerFailed:
		return "A server that listed its tools now fails to start, connect or list: none of its tools reach the model."
	case ServerChanged:
		return "A server is reached another way, speaks another protocol, declares other capabilities, or its status changed."
	case Added:
		return "A tool is advertised that was not."
	case Removed:
		return "A tool is no longer advertised: prompts and agents that call it break."
	case DefinitionChanged:
		return "A tool's definition changed (description, schemas, annotations): review it, as a changed description is the rug-pull shape."
	case NameChanged:
		return "A tool is registered under another name: calls under the old name fail or reach another tool."
	case Displaced:
		return "A tool that was registered is now dropped or displaced by another server: the model can no longer call it."
	case OutcomeChanged:
		return "A tool's outcome under the policy changed otherwise (a lost tool is registered again, or lost for another reason)."
	case ProviderError:
		return "A provider now rejects a registered name: every request to that provider fails."
	case ProviderChanged:
		return "A provider's verdict on a registered name changed otherwise (a warning, or a rejection lifted)."
	case FindingNew:
		return "A finding that the other side does not have."
	case FindingGone:
		return "A finding that is no longer there."
	}
	return string(c)
}

// ParseFailOn reads --fail-on: classes separated by commas, "default"
// (DefaultFailOn, which may be combined with others), "all", or "none".
func ParseFailOn(list string) ([]Class, error) {
	var out []Class
	add := func(cs ...Class) {
		for _, c := range cs {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for w := range strings.SplitSeq(list, ",") {
		switch w = strings.TrimSpace(w); w {
		case "", "none", "never":
		case "default":
			add(DefaultFailOn()...)
		case "all":
			add(Classes()...)
		default:
			if !slices.Contains(Classes(), Class(w)) {
				return nil, fmt.Errorf("unknown change class %q in --fail-on (want some of: %s; or default, all, none)", w, classList())
			}
			add(Class(w))
		}
	}
	return out, nil
}

func classList() string {
	var names []string
	for _, c := range Classes() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
