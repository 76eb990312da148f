package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"

	"github.com/mcplens/mcplens/internal/bounded"
)

// An observer is told of every frame that crosses a server's connection,
// in the order the frames crossed it. Each frame is parsed once, by record,
// and every observer reads that one parse: the monitor names what the frame
// breaks of the protocol (problem), the FrameLog keeps it, the page taker
// takes the answers to the lister's own requests (taken), the capture of a
// Call keeps its exchange. A conn is the observer its taps are given; it
// hands each frame to those, in that order (conn.frame).
type observer interface {
	frame(f *frameInfo)
}

// A frameInfo is one frame as a tap saw it, with what its observers say of
// it. Its bytes are the tap's: an observer that keeps them copies them.
type frameInfo struct {
	dir mcpsession.Direction
	// line is the frame's bytes, its line end removed: the whole frame,
	// unless size is larger.
	line []byte
	size int
	// junk marks In text that is not JSON; valid, a line that is JSON
	// (checked by the tap, or here).
	junk, valid bool
	// env is the frame's envelope, read once; object says it could be
	// read (see parseEnvelope).
	env    envelope
	object bool
	// over is set for the start of a line abandoned over the line limit
	// (the monitor never sees it).
	over *LimitError

	// problem says how the frame breaks the protocol (see Frame.Problem):
	// the monitor's, or a tap's for a line over the limit.
	problem string
	// taken is set by the page taker: the frame answers a request of the
	// lister's own, which mcp-go never sent, and is not passed on to it.
	taken bool
}

// A frameKind is what a tap knows of the bytes of a frame it records.
type frameKind int

const (
	frameJSON      frameKind = iota // valid JSON: the tap checked
	frameUnchecked                  // not checked: a line cut short, or one mcplens's client wrote
	frameJunk                       // not JSON
)

// kindOf checks b: frameJSON or frameJunk.
func kindOf(b []byte) frameKind {
	if json.Valid(b) {
		return frameJSON
	}
	return frameJunk
}

// record parses one frame (a whole line, or the part of one that is junk
// or JSON) and tells obs of it, returning what the observers said. size is
// the length of the frame as it came, which is more than len(line) for a
// line cut short.
//
// A frame is checked for being JSON once, here or by the tap, and its
// envelope read once: reading them again per observer cost a few percent
// of a call's round trip.
func record(obs observer, dir mcpsession.Direction, line []byte, size int, kind frameKind) frameInfo {
	f := frameInfo{dir: dir, line: line, size: max(size, len(line)), junk: kind == frameJunk}
	f.valid = kind == frameJSON || kind == frameUnchecked && json.Valid(line)
	if trimmed := bytes.TrimLeft(line, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		f.env, f.object = parseEnvelope(line, f.valid)
	}
	obs.frame(&f)
	return f
}

// recordOver tells obs of the start of a line that went over the line limit
// and was abandoned there, at most MaxFrameBytes of it: size is how much of
// it was read, and err is the limit.
func recordOver(obs observer, dir mcpsession.Direction, start []byte, size int, err *LimitError) {
	start = start[:min(len(start), mcpsession.MaxFrameBytes)]
	f := frameInfo{dir: dir, line: start, size: max(size, len(start)), over: err}
	f.problem = fmt.Sprintf("over the %s line limit: abandoned after %d bytes, the rest not read", bounded.FormatSize(err.Max), size)
	f.env, f.object = parseEnvelope(start, false)
	obs.frame(&f)
}

// An envelope is what identifies a JSON-RPC message: the members of its top
// level. A member that is absent stays nil; one that is null holds "null".
// Read by scanning, each is a slice of the frame, not a copy: a result can
// be megabytes.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
}

// envelopeKeys are the members of an envelope, in its order.
var envelopeKeys = []string{"jsonrpc", "id", "method", "result", "error", "params"}

// parseEnvelope reads the envelope of line. For valid JSON it is what
// decoding line into an envelope gives, scanned when the scan can say so
// and decoded when not; ok is false when line is not an object. A line
// that is not valid JSON (junk, or the start of a line cut short) is
// scanned as far as its top level reads, ok saying whether the scan could.
func parseEnvelope(line []byte, valid bool) (env envelope, ok bool) {
	var v [6][]byte
	if jsonMembers(line, envelopeKeys, v[:]) {
		return envelope{JSONRPC: v[0], ID: v[1], Method: v[2], Result: v[3], Error: v[4], Params: v[5]}, true
	}
	if !valid {
		return envelope{}, false
	}
	return env, json.Unmarshal(line, &env) == nil
}

// answer reports whether the envelope is that of a response: an id, a
// result or an error, and no method.
func (e envelope) answer() bool {
	return len(e.ID) > 0 && (e.Result != nil || e.Error != nil) && e.Method == nil
}

// method returns the method, decoded; "" when there is none or it is not a
// string.
func (e envelope) method() string {
	return jsonString(e.Method)
}

// requestID returns params.requestId, of a notifications/cancelled.
func (e envelope) requestID() json.RawMessage {
	var v [1][]byte
	if jsonMembers(e.Params, []string{"requestId"}, v[:]) {
		return v[0]
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(e.Params, &p) != nil {
		return nil
	}
	return p.RequestID
}

// jsonString decodes a JSON string; anything else, or nothing, is "".
func jsonString(raw []byte) string { return jsonx.String(raw) }

// canonicalID makes ids comparable across encodings: 4, 4.0 and 4e0 are
// one id.
func canonicalID(raw json.RawMessage) string {
	if id, ok := plainID(raw); ok {
		return id
	}
	var n json.Number
	if len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &n) == nil {
		if f, err := n.Float64(); err == nil {
			return fmt.Sprintf("n:%v", f)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}
