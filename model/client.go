package model

import (
	"fmt"
	"strings"
)

// A Client is one MCP client as mcplens emulates it, at one version: the
// naming policy it merges servers with, and the handshake it sends them.
// Servers change what they advertise by client (by its name, by the
// capabilities it declares, by its headers), so the surface a client builds
// is only seen by connecting as that client.
type Client struct {
	// Name is the profile's key, as given to --client ("vscode").
	Name string
	// Version is the client release the handshake was read for ("1.105");
	// "" for a profile that exists only as a naming policy.
	Version string
	// Policy names the client's naming policy (a Policy's Name): the
	// profile refers to it and never copies it.
	Policy string
	// Handshake is what the client sends when it connects.
	Handshake Handshake
	// Sources say where each fact of the handshake was read, and when.
	Sources []Source
}

// A Handshake is what a client tells a server when it connects: who it is,
// what it can answer, the protocol revision it asks for and the headers it
// always sends over HTTP.
type Handshake struct {
	ClientInfo      ClientInfo
	Capabilities    Capabilities
	ProtocolVersion string
	// Headers are sent on every HTTP request; a config's own headers of the
	// same name win.
	Headers []Header
}

// A ClientInfo is the initialize request's clientInfo.
type ClientInfo struct {
	Name, Version, Title string
}

// A Header is one HTTP header a client always sends.
type Header struct {
	Name, Value string
}

// Capabilities are the client capabilities a handshake declares. A nil
// pointer (or false) is a capability not declared, which the client
// refuses requests for.
type Capabilities struct {
	Roots       *RootsCapability
	Sampling    bool
	Elicitation *ElicitationCapability
	Tasks       *TasksCapability // tasks.go
	// Apps declares the MCP Apps extension (apps.go): extensions
	// {"io.modelcontextprotocol/ui": {mimeTypes: ["text/html;profile=mcp-app"]}}.
	// A client that hosts apps keeps app-only tools from its model.
	Apps bool
}

// A RootsCapability declares that the client answers roots/list.
type RootsCapability struct {
	// ListChanged says the client notifies when its roots change.
	ListChanged bool
}

// An ElicitationCapability declares the elicitation modes the client
// answers.
type ElicitationCapability struct {
	Form, URL bool
}

// The server-to-client requests a capability obliges a client to answer.
const (
	MethodRootsList     = "roots/list"
	MethodCreateMessage = "sampling/createMessage"
	MethodElicit        = "elicitation/create"
)

// Declares reports whether the capabilities oblige the client to answer a
// server's request of the given method; ping and the methods no capability
// governs are not declared.
func (c Capabilities) Declares(method string) bool {
	switch method {
	case MethodRootsList:
		return c.Roots != nil
	case MethodCreateMessage:
		return c.Sampling
	case MethodElicit:
		return c.Elicitation != nil
	}
	return false
}

// String is the capabilities as a short list for a header line: "roots,
// sampling, elicitation(form,url), tasks", or "none".
func (c Capabilities) String() string {
	var parts []string
	if c.Roots != nil {
		parts = append(parts, "roots")
	}
	if c.Sampling {
		parts = append(parts, "sampling")
	}
	if e := c.Elicitation; e != nil {
		var modes []string
		if e.Form {
			modes = append(modes, "form")
		}
		if e.URL {
			modes = append(modes, "url")
		}
		parts = append(parts, "elicitation("+strings.Join(modes, ",")+")")
	}
	if t := c.Tasks; t != nil {
		parts = append(parts, t.String()) // tasks.go
	}
	if c.Apps {
		parts = append(parts, "apps")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// A Source says where one fact of a profile was read (a URL, a file in the
// client's source, or that it is unconfirmed) and on what date.
type Source struct {
	// Field is the fact: "clientInfo", "capabilities.roots", ...
	Field string
	From  string
	Read  string // YYYY-MM-DD
}

// Key is the profile's NAME@VERSION, or NAME for a profile without a
// version.
func (c Client) Key() string {
	if c.Version == "" {
		return c.Name
	}
	return c.Name + "@" + c.Version
}

// Neutral reports whether the profile sends mcplens's own handshake.
func (c Client) Neutral() bool {
	return c.Handshake.ClientInfo == NeutralHandshake().ClientInfo && c.Handshake.Capabilities == Capabilities{}
}

// NeutralHandshake is the handshake mcplens sends as itself: clientInfo
// mcplens/dev, no capabilities, and the current revision, 2026-07-28,
// which it negotiates down from as the SDKs do (server/discover first; an
// unsupported version retried with one the server lists; initialize at
// 2025-11-25 when the server does not discover), the probe bounded by the
// era (a server that ignores unknown methods stalls it at most Probe).
func NeutralHandshake() Handshake {
	return Handshake{
		ClientInfo:      ClientInfo{Name: "mcplens", Version: "dev"},
		ProtocolVersion: Revision20260728,
	}
}

// ClientNamed returns the profile given as NAME or NAME@VERSION: NAME alone
// is the newest version profiled.
func ClientNamed(spec string) (Client, error) {
	name, version, versioned := strings.Cut(spec, "@")
	var found *Client
	clients := Clients()
	for i := range clients {
		c := &clients[i]
		if c.Name != name {
			continue
		}
		if versioned && c.Version == version || !versioned {
			found = c // the list holds a client's versions oldest first
		}
	}
	if found == nil {
		return Client{}, fmt.Errorf("unknown client %q (want one of: %s)", spec, strings.Join(ClientKeys(), ", "))
	}
	return *found, nil
}

// ClientKeys lists every profile's Key, in the order of Clients.
func ClientKeys() []string {
	var keys []string
	for _, c := range Clients() {
		keys = append(keys, c.Key())
	}
	return keys
}
