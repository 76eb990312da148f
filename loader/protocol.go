package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

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
	// refuses says that the client drops the answers refuse names, as
	// mcp-go's stdio transport does; its HTTP transport takes a POST's
	// answer whatever its id. Set before the first frame.
	refuses bool
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

// await says that, until release, the requests of method are waited for
// by a context end cancels: an answer to one that mcplens's client cannot
// take (not JSON, its id of another type, inside a batch) ends that wait
// at once (at the next flush) with a *RefusedError, rather than leaving it
// to time out. One
// wait per method at a time: a server's connect, its listings and its
// calls each run one at a time.
func (m *monitor) await(method string, end context.CancelCauseFunc) {
	m.mu.Lock()
	m.waiters[method] = end
	m.mu.Unlock()
}

// release ends what await began.
func (m *monitor) release(method string) {
	m.mu.Lock()
	delete(m.waiters, method)
	m.mu.Unlock()
}

// A RefusedError says that a server answered a request in a form the
// protocol cannot take: its client would drop the answer and wait on.
type RefusedError struct {
	Request string // the request's id, as written
	Why     string // why the answer was refused
	Got     string // the start of what was received
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the answer to request %s was refused: %s; received %s", e.Request, e.Why, e.Got)
}

// refusal returns the reason ctx was cancelled for when it is a refused
// answer (see await), else err.
func refusal(ctx context.Context, err error) error {
	var refused *RefusedError
	if errors.As(context.Cause(ctx), &refused) {
		return refused
	}
	return err
}

// check is the Wire's check: it returns the problem of one frame, or "".
func (m *monitor) check(dir Direction, line []byte, junk, valid bool) string {
	if dir == Out {
		m.sent(line, valid)
		return ""
	}
	if junk {
		if problem := m.brokenAnswer(line); problem != "" {
			m.fault(faultMalformed, problem, fmt.Sprintf("%s: %s", problem, clip(line)))
			return problem
		}
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

// brokenAnswer returns the problem of a line that is not JSON but reads as
// the answer to a pending request (a NaN in its result, nesting too deep
// for a decoder), ending the wait for it; "" for any other junk.
func (m *monitor) brokenAnswer(line []byte) string {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return ""
	}
	var v [4][]byte
	if !jsonMembers(trimmed, []string{"id", "result", "error", "method"}, v[:]) {
		return ""
	}
	id, answer := v[0], v[1] != nil || v[2] != nil
	if len(id) == 0 || !answer || v[3] != nil {
		return ""
	}
	why := "it is not JSON"
	var raw json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		why = "it is not JSON: " + jsonProblem(err)
	}
	return m.refuse(canonicalID(id), why, line)
}

// jsonProblem words a decoding error for a person.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	switch {
	case !errors.As(err, &syntax):
		return err.Error()
	case strings.HasSuffix(syntax.Error(), "exceeded max depth"):
		return fmt.Sprintf("nested deeper than a JSON decoder reads (%d levels), at byte %d", maxJSONDepth, syntax.Offset)
	}
	return fmt.Sprintf("%v, at byte %d", syntax, syntax.Offset)
}

// maxJSONDepth is how deep encoding/json (and so mcp-go) reads nested
// values.
const maxJSONDepth = 10000

// refuse ends the wait for the pending request key with why its answer,
// line, was refused, and returns the frame's problem; "" when no request
// with that id is pending, or the monitor does not refuse answers.
func (m *monitor) refuse(key, why string, line []byte) string {
	if !m.refuses {
		return ""
	}
	m.mu.Lock()
	end, ok := m.pending[key]
	if ok {
		delete(m.pending, key)
	}
	m.mu.Unlock()
	if !ok {
		return ""
	}
	id := strings.TrimPrefix(key, "n:") // a canonical id reads as JSON, a number marked
	if end != nil {
		// Ended by flush, once the frame is on the Wire: whoever reports
		// the refusal finds the frame there.
		err := &RefusedError{Request: id, Why: why, Got: clip(line)}
		m.mu.Lock()
		m.ending = append(m.ending, func() { end(err) })
		m.nEnding.Store(int32(len(m.ending)))
		m.mu.Unlock()
	}
	return fmt.Sprintf("refused as the answer to request %s: %s", id, why)
}

// flush ends the waits for the answers refused so far. The stdio tap calls
// it after recording each line.
func (m *monitor) flush() {
	if m.nEnding.Load() == 0 {
		return
	}
	m.mu.Lock()
	ending := m.ending
	m.ending = nil
	m.nEnding.Store(0)
	m.mu.Unlock()
	for _, end := range ending {
		end()
	}
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
		var end context.CancelCauseFunc
		if method := msg.Method; len(method) > 2 && method[0] == '"' {
			end = m.waiters[string(method[1:len(method)-1])]
		}
		m.pending[canonicalID(msg.ID)] = end
	case string(msg.Method) == `"`+string(mcp.MethodNotificationCancelled)+`"`:
		id := canonicalID(msg.Params.RequestID)
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
func (m *monitor) received(line []byte, valid bool) (problem, kind string) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		problem = fmt.Sprintf("not a JSON-RPC message: %s, not an object", jsonType(trimmed))
		if refused := m.batch(trimmed, line, valid); refused != "" {
			problem += "; " + refused
		}
		return problem, faultMalformed
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
	_, pending := m.pending[id]
	cancelled := m.cancelled[id]
	delete(m.pending, id)
	delete(m.cancelled, id)
	m.mu.Unlock()
	if pending || cancelled {
		return "", ""
	}
	if other, ok := otherTypeID(msg.ID); ok {
		why := fmt.Sprintf("its id %s is %s, and a response's id must be the request's, of the same type", clip(msg.ID), jsonType(msg.ID))
		if refused := m.refuse(other, why, line); refused != "" {
			return refused, faultStray
		}
	}
	return fmt.Sprintf("answers id %s, which no request is waiting for", clip(msg.ID)), faultStray
}

// otherTypeID returns the canonical form of the id of the other JSON type
// that reads the same: the number 1 for the string "1", and the string "1"
// for the number 1.
func otherTypeID(raw json.RawMessage) (string, bool) {
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" || !json.Valid([]byte(s)) || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
			return "", false
		}
		return canonicalID(json.RawMessage(s)), true
	}
	return canonicalID(json.RawMessage(strconv.Quote(string(raw)))), true
}

// batch refuses each answer a JSON array (a JSON-RPC batch, which MCP does
// not use and its client does not read) carries to a pending request, and
// says which. arr must be valid JSON for the scan.
func (m *monitor) batch(arr, line []byte, valid bool) string {
	if !valid {
		return ""
	}
	elems, ok := jsonElements(arr)
	if !ok {
		return ""
	}
	var refused []string
	for _, e := range elems {
		var v [4][]byte
		if !jsonMembers(e, []string{"id", "result", "error", "method"}, v[:]) || len(v[0]) == 0 || v[1] == nil && v[2] == nil || v[3] != nil {
			continue
		}
		if r := m.refuse(canonicalID(v[0]), "it came inside a JSON-RPC batch (an array), which MCP does not use", line); r != "" {
			refused = append(refused, r)
		}
	}
	return strings.Join(refused, "; ")
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
