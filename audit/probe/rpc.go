package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcplens/mcplens/internal/jsonx"
)

var (
	errTimeout = errors.New("no answer within the probe's deadline")
	errClosed  = errors.New("the server closed its output")
	errStalled = errors.New("the server stopped reading its input")
	errNoMore  = errors.New("the exchange ended without the answer")
	errStray   = errors.New("a response to another id came instead")
	errGaveUp  = errors.New("not asked: the server left the last requests unanswered, and the audit stopped waiting")
)

// A peer carries messages to and from one server: a child's stdio or a
// streamable HTTP endpoint.
type peer interface {
	// send writes one message (or bytes that are none); over HTTP it
	// POSTs them and queues the messages the response carried.
	send(ctx context.Context, raw []byte) error
	// next returns the next message from the server; errNoMore over HTTP
	// once the exchange's messages are read, errTimeout when ctx ends.
	next(ctx context.Context) ([]byte, error)
}

// A message is one JSON-RPC message as read from the wire.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
	raw     []byte
}

type rpcError struct {
	Code    int
	Message string
	// badShape says the code is no integer or the message no string.
	badShape bool
}

func (e *rpcError) UnmarshalJSON(b []byte) error {
	var raw struct {
		Code    json.RawMessage `json:"code"`
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	codeErr := json.Unmarshal(raw.Code, &e.Code)
	msgErr := json.Unmarshal(raw.Message, &e.Message)
	e.badShape = codeErr != nil || msgErr != nil || len(raw.Message) == 0 || raw.Message[0] != '"'
	return nil
}

func (m message) response() bool { return m.Method == "" && (m.Result != nil || m.Error != nil) }
func (m message) request() bool  { return m.Method != "" && len(m.ID) > 0 }

// classify says whether a stdout line is a JSON-RPC message (a JSON object
// or a batch), and if it is malformed as one, how.
func classify(line []byte) (msg bool, problem string) {
	if !json.Valid(line) || (line[0] != '{' && line[0] != '[') {
		return false, ""
	}
	if line[0] == '[' {
		return true, "a batch: the specification (from 2025-06-18) has no batches"
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return true, "not a JSON-RPC 2.0 message: " + err.Error()
	}
	return true, malformed(m)
}

// malformed says how m breaks JSON-RPC 2.0, "" when it does not.
func malformed(m message) string {
	switch {
	case m.JSONRPC != "2.0":
		return `"jsonrpc" is not "2.0"`
	case m.Method != "" && (m.Result != nil || m.Error != nil):
		return "a message with both a method and a result or error"
	case m.Method == "" && m.Result == nil && m.Error == nil:
		return "neither a request, a notification nor a response"
	case m.Result != nil && m.Error != nil:
		return "a response with both a result and an error"
	case m.Method == "" && len(m.ID) == 0:
		return "a response without an id"
	case m.Error != nil && m.Error.badShape:
		return "an error without an integer code and a string message"
	}
	return ""
}

// sameID reports whether two JSON ids are the same value: the same string,
// or the same number.
func sameID(a, b json.RawMessage) bool {
	ca, errA := jsonx.Canonical(a)
	cb, errB := jsonx.Canonical(b)
	return errA == nil && errB == nil && bytes.Equal(ca, cb)
}

// A client numbers requests and matches answers over a peer.
type client struct {
	p  peer
	t  *tape
	id int
	// others are the messages read while waiting that answered nothing
	// asked: notifications, stray responses.
	others []message
	// retyped are the answers taken whose id changed type.
	retyped []retypedID
	// silent counts the requests in a row that went unanswered.
	silent int
	// stopOnStray ends a wait at the first response to another id: over
	// stdio, where one request is outstanding at a time, it can only be a
	// changed id.
	stopOnStray bool
	// meta is merged into every request's params: the stateless
	// revisions' _meta. nil on a session that ran initialize.
	meta map[string]any
}

// call sends method with params (nil: none) and waits for its response.
func (c *client) call(ctx context.Context, method string, params any) (message, error) {
	c.id++
	id := json.RawMessage(strconv.Itoa(c.id))
	raw, err := encodeRequest(id, method, params, c.meta)
	if err != nil {
		return message{}, err
	}
	return c.roundTrip(ctx, raw, id)
}

// encodeRequest is a request (id nil: a notification).
func encodeRequest(id json.RawMessage, method string, params any, meta map[string]any) ([]byte, error) {
	req := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		req["id"] = id
	}
	if meta != nil {
		p := map[string]any{}
		if params != nil {
			b, err := json.Marshal(params)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(b, &p); err != nil {
				return nil, fmt.Errorf("params of %s are not an object", method)
			}
		}
		p["_meta"] = meta
		params = p
	}
	if params != nil {
		req["params"] = params
	}
	return json.Marshal(req)
}

// notify sends a notification.
func (c *client) notify(ctx context.Context, method string, params any) error {
	raw, err := encodeRequest(nil, method, params, c.meta)
	if err != nil {
		return err
	}
	if err := c.p.send(ctx, raw); err != nil {
		return err
	}
	c.drain(ctx)
	return nil
}

// roundTrip sends raw and waits for the response whose id is id.
func (c *client) roundTrip(ctx context.Context, raw []byte, id json.RawMessage) (message, error) {
	if c.silent >= maxSilent {
		return message{}, errGaveUp
	}
	if err := c.p.send(ctx, raw); err != nil {
		return message{}, c.count(err)
	}
	m, err := c.await(ctx, id)
	return m, c.count(err)
}

// maxSilent is how many requests in a row may go unanswered before the
// audit stops asking: a server that answers nothing costs three probes'
// deadlines, not forty.
const maxSilent = 3

// count keeps the run of unanswered requests.
func (c *client) count(err error) error {
	switch {
	case errors.Is(err, errTimeout), errors.Is(err, errStalled):
		c.silent++
	case err == nil, errors.Is(err, errStray):
		c.silent = 0
	}
	return err
}

// await reads messages until the response to id; what else comes is
// answered (a server's request) or kept in others.
func (c *client) await(ctx context.Context, id json.RawMessage) (message, error) {
	for {
		raw, err := c.p.next(ctx)
		if err != nil {
			return message{}, err
		}
		m, ok := decode(raw)
		if !ok {
			continue
		}
		if m.response() && sameID(m.ID, id) {
			return m, nil
		}
		if m.response() && retyped(m.ID, id) {
			// The answer, its id turned from a number to a string or
			// back: taken, and kept as a finding (jsonrpc.id-echo).
			if len(c.retyped) < maxEvidence {
				c.retyped = append(c.retyped, retypedID{asked: id, got: m.ID})
			}
			return m, nil
		}
		if m.response() && c.stopOnStray {
			c.others = append(c.others, m)
			return message{}, errStray
		}
		c.take(ctx, m)
	}
}

// A retypedID is an answer whose id changed type.
type retypedID struct{ asked, got json.RawMessage }

// retyped reports whether got is asked with its type changed: 7 and "7".
func retyped(got, asked json.RawMessage) bool {
	g, a := bytes.TrimSpace(got), bytes.TrimSpace(asked)
	if len(g) == 0 || len(a) == 0 || (g[0] == '"') == (a[0] == '"') {
		return false
	}
	unquote := func(b []byte) []byte {
		var s string
		if json.Unmarshal(b, &s) == nil {
			return []byte(s)
		}
		return b
	}
	return sameID(unquote(g), unquote(a))
}

// drain reads what an HTTP exchange carried beyond its answer; over stdio
// it returns at once (nothing is waited for).
func (c *client) drain(ctx context.Context) {
	if _, ok := c.p.(*httpPeer); !ok {
		return
	}
	for {
		raw, err := c.p.next(ctx)
		if err != nil {
			return
		}
		if m, ok := decode(raw); ok {
			c.take(ctx, m)
		}
	}
}

// take handles a message nobody waited for: a server's request is
// refused as a client declaring nothing refuses it (ping answered), the
// rest kept.
func (c *client) take(ctx context.Context, m message) {
	if m.request() {
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if m.Method == "ping" {
			reply["result"] = map[string]any{}
		} else {
			reply["error"] = map[string]any{"code": -32601, "message": "mcplens audit answers no requests"}
		}
		if b, err := json.Marshal(reply); err == nil {
			_ = c.p.send(ctx, b)
		}
		return
	}
	if len(c.others) < maxQueued {
		c.others = append(c.others, m)
	}
}

func decode(raw []byte) (message, bool) {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, false
	}
	m.raw = raw
	return m, true
}

// strayResponses returns and forgets the responses kept in others.
func (c *client) strayResponses() []message {
	var out, rest []message
	for _, m := range c.others {
		if m.response() {
			out = append(out, m)
		} else {
			rest = append(rest, m)
		}
	}
	c.others = rest
	return out
}
