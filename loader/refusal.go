package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/mcpsession"
)

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

// brokenAnswer returns the problem of a line that is not JSON but reads as
// the answer to a pending request (a NaN in its result, nesting too deep
// for a decoder), ending the wait for it; "" for any other junk.
func (m *monitor) brokenAnswer(f *frameInfo) string {
	if !f.object || !f.env.answer() {
		return ""
	}
	why := "it is not JSON"
	var raw json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(f.line), &raw); err != nil {
		why = "it is not JSON: " + jsonProblem(err)
	}
	return m.refuse(canonicalID(f.env.ID), why, f.line)
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
		// Ended by flush, once the frame is in the FrameLog: whoever
		// reports the refusal finds the frame there.
		err := &RefusedError{Request: id, Why: why, Got: mcpsession.Clip(line)}
		m.mu.Lock()
		m.ending = append(m.ending, func() { end(err) })
		m.nEnding.Store(int32(len(m.ending)))
		m.mu.Unlock()
	}
	return fmt.Sprintf("refused as the answer to request %s: %s", id, why)
}

// flush ends the waits for the answers refused so far. The conn calls it
// once each frame is in its FrameLog.
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
		env, ok := parseEnvelope(e, true)
		if !ok || !env.answer() {
			continue
		}
		if r := m.refuse(canonicalID(env.ID), "it came inside a JSON-RPC batch (an array), which MCP does not use", line); r != "" {
			refused = append(refused, r)
		}
	}
	return strings.Join(refused, "; ")
}
