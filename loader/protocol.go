package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/model"
)

// maxPendingIDs bounds how many unanswered (or cancelled) request ids a
// monitor remembers; past it, the oldest are forgotten together.
const maxPendingIDs = 4096

// A monitor follows the JSON-RPC exchange on one server's stdio and names
// what breaks the protocol: text that is not JSON on stdout, frames that
// are not JSON-RPC 2.0 messages, answers to ids no request is waiting for,
// and tools/list pages that never end. mcp-go drops the first three without
// a word; an inspector says so.
type monitor struct {
	server string
	// first is called, outside the lock, the first time each kind of
	// fault is seen.
	first func()

	mu        sync.Mutex
	pending   map[string]bool // ids of requests written and not yet answered
	cancelled map[string]bool // ids given up with notifications/cancelled
	findings  []model.Finding // the first fault of each kind, in order seen
	counts    map[string]int  // faults per kind
}

// Kinds of protocol fault, in the Evidence of a Finding of kind "protocol".
const (
	faultJunk      = "junk"
	faultMalformed = "malformed"
	faultStray     = "stray"
	faultPaging    = "paging"
)

func newMonitor(server string, first func()) *monitor {
	return &monitor{
		server:    server,
		first:     first,
		pending:   map[string]bool{},
		cancelled: map[string]bool{},
		counts:    map[string]int{},
	}
}

// message is what identifies a JSON-RPC message. Absent members stay nil;
// a member that is null holds "null".
type message struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  present         `json:"result"`
	Error   present         `json:"error"`
	Params  struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// present records that a member is there, null included, without keeping
// its value: a result can be megabytes, and only its presence is checked.
type present bool

func (p *present) UnmarshalJSON([]byte) error {
	*p = true
	return nil
}

// check is the Wire's check: it returns the problem of one frame, or "".
func (m *monitor) check(dir Direction, line []byte, junk, valid bool) string {
	if dir == Out {
		m.sent(line, valid)
		return ""
	}
	if junk {
		m.fault(faultJunk, "", fmt.Sprintf("stdout carries text that is not JSON, which MCP's stdio transport forbids "+
			"(ignored; shown as junk in the wire pane); first: %q", clip(line)))
		return ""
	}
	problem, kind := m.received(line, valid)
	if problem != "" {
		m.fault(kind, problem, fmt.Sprintf("%s: %s", problem, clip(line)))
	}
	return problem
}

// sent notes the id of each request written, and the ids given up.
func (m *monitor) sent(line []byte, valid bool) {
	if !valid {
		return
	}
	msg, ok := peekMessage(line)
	if !ok && json.Unmarshal(line, &msg) != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case msg.Method == nil:
	case len(msg.ID) > 0:
		if len(m.pending) >= maxPendingIDs {
			clear(m.pending) // requests long unanswered: forget them
		}
		m.pending[canonicalID(msg.ID)] = true
	case string(msg.Method) == `"`+string(mcp.MethodNotificationCancelled)+`"`:
		id := canonicalID(msg.Params.RequestID)
		if m.pending[id] {
			if len(m.cancelled) >= maxPendingIDs {
				clear(m.cancelled)
			}
			delete(m.pending, id)
			m.cancelled[id] = true // its answer may still come, and is no fault
		}
	}
}

// received checks one JSON frame from the server, returning its problem and
// the kind of fault.
func (m *monitor) received(line []byte, valid bool) (problem, kind string) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Sprintf("not a JSON-RPC message: %s, not an object", jsonType(trimmed)), faultMalformed
	}
	var msg message
	ok := false
	if valid {
		msg, ok = peekMessage(line)
	}
	if !ok {
		if err := json.Unmarshal(line, &msg); err != nil {
			return fmt.Sprintf("not a JSON-RPC message: %v", err), faultMalformed
		}
	}
	if string(msg.JSONRPC) != `"2.0"` {
		if msg.JSONRPC == nil {
			return `not a JSON-RPC 2.0 message: no "jsonrpc" member`, faultMalformed
		}
		return fmt.Sprintf(`not a JSON-RPC 2.0 message: "jsonrpc" is %s`, clip(msg.JSONRPC)), faultMalformed
	}
	if msg.Method != nil {
		if msg.Method[0] != '"' {
			return fmt.Sprintf("malformed: method is %s, not a string", jsonType(msg.Method)), faultMalformed
		}
		return "", "" // a request or a notification from the server
	}
	switch {
	case !bool(msg.Result) && !bool(msg.Error):
		return "malformed: neither a request, a notification nor a response", faultMalformed
	case bool(msg.Result && msg.Error):
		return "malformed: a response with both a result and an error", faultMalformed
	case msg.ID == nil:
		return "malformed: a response without an id", faultMalformed
	}
	switch msg.ID[0] {
	case '{', '[', 't', 'f':
		return fmt.Sprintf("malformed: the id is %s, not a string or a number", jsonType(msg.ID)), faultMalformed
	case 'n':
		return "", "" // an error about a request the server could not read
	}
	id := canonicalID(msg.ID)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.pending[id]:
		delete(m.pending, id)
	case m.cancelled[id]:
		delete(m.cancelled, id)
	default:
		return fmt.Sprintf("answers id %s, which no request is waiting for", clip(msg.ID)), faultStray
	}
	return "", ""
}

// fault counts one fault, keeping the first of each kind as a finding.
func (m *monitor) fault(kind, problem, evidence string) {
	m.mu.Lock()
	m.counts[kind]++
	first := m.counts[kind] == 1
	if first {
		m.findings = append(m.findings, model.Finding{
			Severity: model.Warn,
			Kind:     "protocol",
			Server:   m.server,
			Evidence: evidence,
		})
	}
	m.mu.Unlock()
	if first && m.first != nil {
		m.first()
	}
}

// listed notes a tools/list that could not follow its pages to the end (a
// cursor that repeats, too many pages): note is why, or "".
func (m *monitor) listed(note string) {
	if note != "" {
		m.fault(faultPaging, note, note)
	}
}

// list returns the findings so far, the first fault of each kind.
func (m *monitor) list() []model.Finding {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.findings) == 0 {
		return nil
	}
	return append([]model.Finding(nil), m.findings...)
}
