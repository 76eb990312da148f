package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
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
	// refuses says that the client drops the answers refuse names, as
	// mcp-go's stdio transport does; its HTTP transport takes a POST's
	// answer whatever its id. Set before the first frame.
	refuses bool
	// transportText says that text that is not JSON belongs to the
	// transport (an SSE endpoint event, the body of a 202), as over HTTP:
	// it is no fault. Set before the first frame.
	transportText bool
	// first is called, outside the lock, the first time each kind of
	// fault is seen.
	first func()

	mu sync.Mutex
	// pending holds the requests written and not yet answered, by
	// canonical id, each with what ends the wait for it (see await), or
	// nil.
	pending   map[string]context.CancelCauseFunc
	cancelled map[string]bool                    // ids given up with notifications/cancelled
	waiters   map[string]context.CancelCauseFunc // by method, see await
	ending    []func()                           // waits to end once the refused frame is recorded
	nEnding   atomic.Int32                       // len(ending), read without the lock
	findings  []model.Finding                    // the first fault of each kind, in order seen
	counts    map[string]int                     // faults per kind
}

// Kinds of protocol fault, in the Evidence of a Finding of kind "protocol".
const (
	faultJunk      = "junk"
	faultMalformed = "malformed"
	faultStray     = "stray"
	faultPaging    = "paging"
	faultQuestion  = "question" // a question over Limits.Question
)

func newMonitor(server string, first func()) *monitor {
	return &monitor{
		server:    server,
		first:     first,
		pending:   map[string]context.CancelCauseFunc{},
		cancelled: map[string]bool{},
		waiters:   map[string]context.CancelCauseFunc{},
		counts:    map[string]int{},
	}
}

// frame names how f breaks the protocol, in f.problem, and counts the
// fault. A line over the line limit is no message: the monitor never sees
// it.
func (m *monitor) frame(f *frameInfo) {
	switch {
	case f.over != nil:
		return
	case f.dir == mcpsession.Out:
		m.sent(f)
		return
	case f.junk && m.transportText:
		return
	case f.junk:
		if problem := m.brokenAnswer(f); problem != "" {
			m.fault(faultMalformed, problem, fmt.Sprintf("%s: %s", problem, mcpsession.Clip(f.line)))
			f.problem = problem
			return
		}
		m.fault(faultJunk, "", fmt.Sprintf("stdout carries text that is not JSON, which MCP's stdio transport forbids "+
			"(ignored; shown as junk in the wire pane); first: %q", mcpsession.Clip(f.line)))
		return
	}
	problem, kind := m.received(f)
	if problem != "" {
		m.fault(kind, problem, fmt.Sprintf("%s: %s", problem, mcpsession.Clip(f.line)))
	}
	f.problem = problem
}

// sent notes the id of each request written, and the ids given up.
func (m *monitor) sent(f *frameInfo) {
	if !f.valid || !f.object {
		return
	}
	env := f.env
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case env.Method == nil:
	case len(env.ID) > 0:
		if len(m.pending) >= maxPendingIDs {
			clear(m.pending) // requests long unanswered: forget them
		}
		m.pending[canonicalID(env.ID)] = m.waiters[env.method()]
	case env.method() == string(mcp.MethodNotificationCancelled):
		id := canonicalID(env.requestID())
		if _, ok := m.pending[id]; ok {
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
func (m *monitor) received(f *frameInfo) (problem, kind string) {
	line := f.line
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		problem = fmt.Sprintf("not a JSON-RPC message: %s, not an object", mcpsession.JSONType(trimmed))
		if refused := m.batch(trimmed, line, f.valid); refused != "" {
			problem += "; " + refused
		}
		return problem, faultMalformed
	}
	msg := f.env
	if !f.object {
		var raw json.RawMessage
		return fmt.Sprintf("not a JSON-RPC message: %v", json.Unmarshal(line, &raw)), faultMalformed
	}
	if string(msg.JSONRPC) != `"2.0"` {
		if msg.JSONRPC == nil {
			return `not a JSON-RPC 2.0 message: no "jsonrpc" member`, faultMalformed
		}
		return fmt.Sprintf(`not a JSON-RPC 2.0 message: "jsonrpc" is %s`, mcpsession.Clip(msg.JSONRPC)), faultMalformed
	}
	if msg.Method != nil {
		if msg.Method[0] != '"' {
			return fmt.Sprintf("malformed: method is %s, not a string", mcpsession.JSONType(msg.Method)), faultMalformed
		}
		if p := msg.Params; p != nil && p[0] != '{' && string(p) != "null" {
			return fmt.Sprintf("malformed: params is %s, not an object", mcpsession.JSONType(p)), faultMalformed
		}
		return "", "" // a request or a notification from the server
	}
	switch {
	case msg.Result == nil && msg.Error == nil:
		return "malformed: neither a request, a notification nor a response", faultMalformed
	case msg.Result != nil && msg.Error != nil:
		return "malformed: a response with both a result and an error", faultMalformed
	case msg.ID == nil:
		return "malformed: a response without an id", faultMalformed
	}
	switch msg.ID[0] {
	case '{', '[', 't', 'f':
		return fmt.Sprintf("malformed: the id is %s, not a string or a number", mcpsession.JSONType(msg.ID)), faultMalformed
	case 'n':
		return "", "" // an error about a request the server could not read
	}
	id := canonicalID(msg.ID)
	m.mu.Lock()
	_, pending := m.pending[id]
	cancelled := m.cancelled[id]
	delete(m.pending, id)
	delete(m.cancelled, id)
	m.mu.Unlock()
	if pending || cancelled {
		return "", ""
	}
	if other, ok := otherTypeID(msg.ID); ok {
		why := fmt.Sprintf("its id %s is %s, and a response's id must be the request's, of the same type", mcpsession.Clip(msg.ID), mcpsession.JSONType(msg.ID))
		if refused := m.refuse(other, why, line); refused != "" {
			return refused, faultStray
		}
	}
	return fmt.Sprintf("answers id %s, which no request is waiting for", mcpsession.Clip(msg.ID)), faultStray
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
