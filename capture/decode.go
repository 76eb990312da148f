package capture

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/recording"
)

// A Server is one tapped server as its recording shows it.
type Server struct {
	Label string
	// Command or Upstream is what the tap ran or proxied (secrets masked).
	Command  []string
	Upstream string
	// Client, Capabilities and ClientProtocol are what the client's
	// initialize request sent.
	Client         model.ClientInfo
	Capabilities   []string
	ClientProtocol string
	Initialized    bool
	// HostsApps says the client's capabilities declare the MCP Apps
	// extension (model.DeclaresApps): its model does not see app-only
	// tools.
	HostsApps bool
	// Protocol, ServerName and ServerVersion are what the server answered.
	Protocol                  string
	ServerName, ServerVersion string
	// Facts are the rest of what the server's initialize answer said.
	Facts mcpsession.ServerFacts
	// Tools is the last listing the client received, pages joined.
	Tools  []model.Tool
	Listed bool
	// Dropped counts chunks of bytes the tap left out of the recording.
	Dropped int
	// Stderr is the tail of what the server wrote to stderr (at most
	// maxStderr lines), as recorded: not sanitized.
	Stderr []string
}

// Bounds on the stderr a Server keeps: its last maxStderr lines, each cut
// to maxStderrLine bytes.
const (
	maxStderr     = 40
	maxStderrLine = 1 << 10
)

// Ended is the event the end of the server's tap makes: Closed, its last
// listing kept, or Failed with its stderr when it never listed its tools.
func (sv *Server) Ended() mcpsession.Event {
	if !sv.Listed {
		return mcpsession.Event{Server: sv.Label, State: mcpsession.Failed, Err: "the tap ended before its server listed its tools",
			Stderr: strings.Join(sv.Stderr, "\n")}
	}
	return mcpsession.Event{Server: sv.Label, State: mcpsession.Closed, Err: "the tap ended"}
}

// addStderr keeps one line of the server's stderr.
func (sv *Server) addStderr(text string) {
	if len(text) > maxStderrLine {
		text = text[:maxStderrLine]
	}
	if len(sv.Stderr) == maxStderr {
		sv.Stderr = slices.Delete(slices.Clone(sv.Stderr), 0, 1) // a copy: a capture taken before keeps its own
	}
	sv.Stderr = append(sv.Stderr, text)
}

// An Observation is what one recorded line showed: a server's header, its
// client's initialize, a completed listing, a call made or answered.
type Observation struct {
	Server string
	Kind   Kind
	// Call is the call made or answered (CallMade, CallAnswered).
	Call *Call
}

// A Kind is what an Observation is of.
type Kind int

// The kinds of observation.
const (
	Tapped       Kind = iota // a recording's (or feed's) header: a server
	Initialize               // the client's initialize request
	Initialized              // the server's answer to it
	Listed                   // a complete tools/list answer
	CallMade                 // a tools/call request
	CallAnswered             // its answer
)

// A Decoder reads a recording line by line, keeping each server's state.
type Decoder struct {
	servers []*Server
	byLabel map[string]*Server
	calls   []*Call
	// pending are the requests awaiting an answer, by server and id.
	pending map[string]pending
	// early are answers awaiting their request, by server and id, and
	// earlyBytes the bytes of their results.
	early      map[string]early
	earlyBytes int
	// frames keep each server's frames (frames.go) when the decoder was
	// made to; nil otherwise.
	frames map[string]*mcpsession.FrameLog
	// maxCalls, when set, bounds the calls kept: the oldest are let go,
	// and counted in letGo.
	maxCalls int
	letGo    int
	// maxServers, when set, bounds the servers kept: the lines of one
	// more are not read, and tooMany says so.
	maxServers int
	tooMany    bool
}

type pending struct {
	method  string
	call    *Call
	paged   bool   // a tools/list with a cursor: its tools add to the listing
	version string // the revision a server/discover asked for
}

// NewDecoder returns a decoder with nothing read.
func NewDecoder() *Decoder {
	return &Decoder{byLabel: map[string]*Server{}, pending: map[string]pending{}, early: map[string]early{}}
}

// message is a JSON-RPC message's envelope.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Line reads one line of a recording and returns what it showed; a line
// that is not a recording's (or a frame that is not JSON-RPC) shows
// nothing.
func (d *Decoder) Line(b []byte) []Observation {
	var l recording.Line
	if json.Unmarshal(b, &l) != nil || l.Server == "" {
		return nil
	}
	if _, known := d.byLabel[l.Server]; !known && d.maxServers > 0 && len(d.servers) >= d.maxServers {
		d.tooMany = true
		return nil
	}
	sv := d.server(l.Server)
	switch {
	case l.Format != "":
		sv.Command, sv.Upstream = l.Command, l.Upstream
		return []Observation{{Server: sv.Label, Kind: Tapped}}
	case l.Dropped > 0:
		sv.Dropped += l.Dropped
		return nil
	}
	d.keepFrame(sv.Label, &l)
	if l.Dir == recording.Stderr {
		switch {
		case l.Text != nil:
			sv.addStderr(*l.Text)
		case l.Frame != nil:
			sv.addStderr(string(l.Frame))
		}
		return nil
	}
	if l.Frame == nil {
		return nil
	}
	msgs := []json.RawMessage{l.Frame}
	if f := bytes.TrimSpace(l.Frame); len(f) > 0 && f[0] == '[' {
		msgs = nil
		_ = json.Unmarshal(f, &msgs) // a batch
	}
	var out []Observation
	for _, raw := range msgs {
		var m message
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		out = append(out, d.message(sv, l.Dir, l.T, m)...)
	}
	return out
}

func (d *Decoder) server(label string) *Server {
	sv, ok := d.byLabel[label]
	if !ok {
		sv = &Server{Label: label}
		d.byLabel[label] = sv
		d.servers = append(d.servers, sv)
	}
	return sv
}

// maxEarly and maxEarlyBytes bound the answers kept waiting for their
// request: their number, and the bytes of their results (a recording's
// line may be as long as the line limit).
const (
	maxEarly      = 64
	maxEarlyBytes = 16 << 20
)

// maxPending bounds the requests kept waiting for their answer: past it
// (a server that answers nothing, a client that floods), those waiting
// are forgotten, and their calls stay unanswered.
const maxPending = 4096

// An early answer was recorded before its request: the copies of the two
// directions are read apart, so a recording may hold a quick answer first.
type early struct {
	t time.Time
	m message
}

// message reads one JSON-RPC message going dir.
func (d *Decoder) message(sv *Server, dir recording.Dir, t time.Time, m message) []Observation {
	key := sv.Label + "\x00" + string(bytes.TrimSpace(m.ID))
	if dir == recording.ClientToServer && m.Method != "" && m.ID != nil {
		var out []Observation
		if ob, ok := d.request(sv, key, t, m); ok {
			out = append(out, ob)
		}
		if e, ok := d.early[key]; ok {
			delete(d.early, key)
			d.earlyBytes -= len(e.m.Result)
			if ob, ok := d.answer(sv, key, e.t, e.m); ok {
				out = append(out, ob)
			}
		}
		return out
	}
	if dir != recording.ServerToClient || m.Method != "" || m.ID == nil {
		return nil
	}
	if _, ok := d.pending[key]; !ok {
		if len(d.early) < maxEarly && d.earlyBytes+len(m.Result) <= maxEarlyBytes {
			d.early[key] = early{t, m}
			d.earlyBytes += len(m.Result)
		}
		return nil
	}
	if ob, ok := d.answer(sv, key, t, m); ok {
		return []Observation{ob}
	}
	return nil
}

// answer reads the answer to the pending request key.
func (d *Decoder) answer(sv *Server, key string, t time.Time, m message) (Observation, bool) {
	p := d.pending[key]
	delete(d.pending, key)
	switch p.method {
	case "initialize":
		var r struct {
			ProtocolVersion string                         `json:"protocolVersion"`
			ServerInfo      struct{ Name, Version string } `json:"serverInfo"`
		}
		_ = json.Unmarshal(m.Result, &r)
		sv.Protocol, sv.ServerName, sv.ServerVersion = r.ProtocolVersion, r.ServerInfo.Name, r.ServerInfo.Version
		sv.Facts, _ = mcpsession.FactsOfInitialize(m.Result)
		return Observation{Server: sv.Label, Kind: Initialized}, true
	case "server/discover":
		if m.Result == nil || !discovered(sv, p.version, m.Result) {
			return Observation{}, false
		}
		return Observation{Server: sv.Label, Kind: Initialized}, true
	case "tools/list":
		if m.Result == nil {
			return Observation{}, false
		}
		tools, _, err := mcpsession.ToolsOfPage(m.Result)
		if err != nil {
			return Observation{}, false
		}
		if p.paged {
			tools = append(sv.Tools[:len(sv.Tools):len(sv.Tools)], tools...)
		}
		if sv.Upstream != "" { // streamable HTTP, proxied: the client rejects as the loader's does
			model.MarkRejected(tools, sv.Protocol)
		}
		sv.Tools, sv.Listed = tools, true
		return Observation{Server: sv.Label, Kind: Listed}, true
	case "tools/call":
		c := p.call
		c.Answered, c.Latency = true, max(t.Sub(c.Sent), 0)
		if m.Error != nil {
			c.IsError, c.Error = true, m.Error.Message
		} else {
			var r struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(m.Result, &r)
			c.IsError = r.IsError
		}
		return Observation{Server: sv.Label, Kind: CallAnswered, Call: c}, true
	}
	return Observation{}, false
}

// request reads a request the client sent.
func (d *Decoder) request(sv *Server, key string, t time.Time, m message) (Observation, bool) {
	p := pending{method: m.Method}
	if len(d.pending) >= maxPending {
		clear(d.pending)
	}
	defer func() { d.pending[key] = p }()
	switch m.Method {
	case "initialize":
		var r struct {
			ProtocolVersion string          `json:"protocolVersion"`
			ClientInfo      clientInfo      `json:"clientInfo"`
			Capabilities    json.RawMessage `json:"capabilities"`
		}
		_ = json.Unmarshal(m.Params, &r)
		sv.initialized(r.ClientInfo, r.ProtocolVersion, r.Capabilities)
		return Observation{Server: sv.Label, Kind: Initialize}, true
	case "server/discover":
		// A stateless revision's handshake: the client says who it is in
		// the request's _meta, as in every request after.
		var r struct {
			Meta struct {
				Version      string          `json:"io.modelcontextprotocol/protocolVersion"`
				ClientInfo   clientInfo      `json:"io.modelcontextprotocol/clientInfo"`
				Capabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
			} `json:"_meta"`
		}
		if json.Unmarshal(m.Params, &r) != nil || r.Meta.Version == "" {
			return Observation{}, false
		}
		sv.initialized(r.Meta.ClientInfo, r.Meta.Version, r.Meta.Capabilities)
		p.version = r.Meta.Version
		return Observation{Server: sv.Label, Kind: Initialize}, true
	case "tools/list":
		var r struct {
			Cursor json.RawMessage `json:"cursor"`
		}
		_ = json.Unmarshal(m.Params, &r)
		p.paged = r.Cursor != nil && string(r.Cursor) != "null"
	case "tools/call":
		var r struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &r)
		p.call = &Call{Server: sv.Label, Wire: r.Name, Args: clipArgs(r.Arguments), Sent: t}
		if d.maxCalls > 0 && len(d.calls) >= d.maxCalls {
			d.letGo += len(d.calls) - d.maxCalls*3/4
			d.calls = slices.Clone(d.calls[len(d.calls)-d.maxCalls*3/4:]) // the newest three quarters
		}
		d.calls = append(d.calls, p.call)
		return Observation{Server: sv.Label, Kind: CallMade, Call: p.call}, true
	}
	return Observation{}, false
}
