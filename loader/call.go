package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Call calls the tool wire on server with args (a JSON object; empty means
// {}). Calls to one server run one at a time. The error is set when the
// call could not complete: the server is not ready, answered a JSON-RPC
// error, exited, or ctx ended, its answer was refused (a *RefusedError,
// at once), or the answer's line or its result is over its limit (a
// *LimitError; a line over the limit also fails the server, whose stream
// is no longer in step); whatever crossed the wire is still returned. A
// tool that reports failure (isError) is not an error here. When ctx ends
// first, the notifications/cancelled sent over stdio gives its cause
// (context.WithCancelCause, context.WithTimeoutCause) as the reason.
func (s *Session) Call(ctx context.Context, server, wire string, args json.RawMessage) (mcpsession.CallResult, error) {
	res := mcpsession.CallResult{Server: server, Wire: wire}
	c := s.conn(server)
	if c == nil {
		return res, fmt.Errorf("calling %q: no server %q", wire, server)
	}
	c.mu.Lock()
	state, cl := c.state, c.client
	c.mu.Unlock()
	if state != mcpsession.Ready {
		return res, fmt.Errorf("calling %q on %s: %w (%s)", wire, server, ErrNotReady, state)
	}
	// A progress token of our own asks the server for progress, which
	// goes to the function of WithProgress, if ctx has one.
	token := fmt.Sprintf("mcplens-%d", c.callSeq.Add(1))
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: wire, Meta: &mcp.Meta{ProgressToken: token}}}
	if asTask(ctx) {
		// 2026-07-28 has no task augmentation: its tasks are the
		// extension's, started by the server for a client declaring it,
		// whose call goes as any other.
		switch t := c.hs.Capabilities.Tasks; {
		case cl == nil || !mcp.IsModernProtocol(cl.ProtocolVersion()):
			req.Params.Task = &mcp.TaskParams{}
		case t == nil || !t.Extension:
			return res, fmt.Errorf("calling %q on %s: %w", wire, server, ErrTaskAtModern)
		}
	}
	if len(bytes.TrimSpace(args)) == 0 {
		req.Params.Arguments = map[string]any{}
	} else if !json.Valid(args) {
		return res, fmt.Errorf("calling %q on %s: arguments are not valid JSON", wire, server)
	} else {
		// Sent as given rather than through a map, which would reorder keys.
		req.Params.RawArguments = args
	}

	c.callMu.Lock()
	defer c.callMu.Unlock()
	defer c.boundWrites(ctx)()
	cap := &callCapture{resultLimit: s.opts.Limits.Result}
	c.capture.Store(cap)
	defer c.capture.Store(nil)
	if fn, ok := ctx.Value(progressKey{}).(func(Progress)); ok && fn != nil {
		c.progress.Store(callProgress{token: token, fn: fn})
		defer c.progress.Store(callProgress{})
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.monitor.await(string(mcp.MethodToolsCall), cancel)
	defer c.monitor.release(string(mcp.MethodToolsCall))

	start := time.Now()
	_, err := cl.CallTool(withReason(ctx), req)
	res.Latency = time.Since(start)
	answerErr := cap.fill(&res)
	switch over := c.overLimit(); {
	case err != nil && answerErr == nil && over == nil && isTask(res.Result):
		err = nil // mcp-go reads a task as a tool's result, which it is not (tasks.go)
	case err != nil && over != nil:
		err = over // the stream closed because the answer's line was over the limit
	case err != nil:
		err = explainRound(refusal(ctx, err)) // rounds.go
		if named := answeredError(res.Response); named != "" && !isRefused(err) {
			err = errors.New(named)
		}
	default:
		err = answerErr
	}
	if err == nil {
		err = c.followTask(ctx, &res) // tasks.go
	}
	if err != nil {
		return res, fmt.Errorf("calling %q on %s: %w", wire, server, tidy(err))
	}
	return res, nil
}

// A Progress is what a server last said about the progress of a call
// (notifications/progress).
type Progress struct {
	Progress float64
	Total    float64 // 0 when the server did not say
	Message  string
}

type progressKey struct{}

// WithProgress returns a context that makes a Call with it report each
// notifications/progress the server sends about that call to fn. fn runs
// on the connection's read loop: it must return quickly.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// A callProgress is the progress token of the call running on a server
// and where its progress goes.
type callProgress struct {
	token string
	fn    func(Progress)
}

// onProgress reports a notifications/progress for the call running, and
// ignores one for any other token.
func (c *conn) onProgress(params map[string]any) {
	cp, _ := c.progress.Load().(callProgress)
	if got, ok := params["progressToken"].(string); !ok || cp.fn == nil || got != cp.token {
		return
	}
	var p Progress
	p.Progress, _ = params["progress"].(float64)
	p.Total, _ = params["total"].(float64)
	p.Message, _ = params["message"].(string)
	p.Message = model.ClipText(p.Message, MaxStatusMessage) // as a task's status
	cp.fn(p)
}

// A callCapture observes a server's frames during one Call and keeps the
// tools/call requests written and the responses to them, whole (the
// FrameLog keeps frames cut to MaxFrameBytes and only the last MaxFrames).
type callCapture struct {
	resultLimit int64 // Limits.Result

	mu       sync.Mutex
	requests []capturedRequest
}

type capturedRequest struct {
	id               string // the id's JSON text
	line, response   []byte
	size             int   // the response line's, more than len(response) when cut
	valid            bool  // response is valid JSON, not cut short
	resultSize       int64 // the result's length, when over the limit
	sentAt, answered time.Time
}

// frame keeps the tools/call requests written and the answers to them:
// every frame but junk the monitor did not refuse as an answer.
func (c *callCapture) frame(f *frameInfo) {
	env := f.env
	if f.junk && f.problem == "" || !f.object || len(env.ID) == 0 || !f.valid && !json.Valid(env.ID) {
		return
	}
	id := canonicalID(env.ID)
	line, now := f.line, time.Now()
	var resultSize int64
	if f.dir == mcpsession.In && f.valid && int64(len(env.Result)) > c.resultLimit {
		resultSize, line = int64(len(env.Result)), line[:min(len(line), mcpsession.MaxFrameBytes)]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case f.dir == mcpsession.Out && env.method() == string(mcp.MethodToolsCall):
		c.requests = append(c.requests, capturedRequest{id: id, line: bytes.Clone(line), sentAt: now})
	case f.dir == mcpsession.In && env.Method == nil:
		for i := range c.requests {
			if r := &c.requests[i]; r.id == id && r.response == nil {
				r.response, r.size, r.answered, r.valid = bytes.Clone(line), f.size, now, f.valid
				r.resultSize = resultSize
			}
		}
	}
}

// fill sets the wire fields of res from the last tools/call of the Call:
// mcp-go repeats a call when the server asks for more input, and the last
// exchange is the one that produced the result. The error says why the
// answer cannot be shown whole: a result over the limit, or an answer
// that is not JSON or was cut short.
func (c *callCapture) fill(res *mcpsession.CallResult) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.requests) == 0 {
		return nil
	}
	r := c.requests[len(c.requests)-1]
	res.Request, res.Rounds = r.line, len(c.requests)
	if r.response == nil {
		return nil
	}
	res.Response, res.ResponseSize = r.response, r.size
	res.Latency = r.answered.Sub(r.sentAt)
	switch {
	case r.resultSize > 0:
		return &LimitError{Limit: "result", Max: c.resultLimit, What: "the result"}
	case r.size > len(r.response):
		return fmt.Errorf("the answer was cut short: %d of %d bytes read", len(r.response), r.size)
	case !r.valid:
		return errors.New("the answer is not JSON")
	}
	// The kept copy is read again, once per call: the frame's envelope
	// points into the tap's buffer.
	env, _ := parseEnvelope(r.response, true)
	result := env.Result
	if len(result) == 0 {
		return nil
	}
	res.Result = result
	if flag, _, ok := jsonMember(result, "isError"); ok {
		res.IsError = string(flag) == "true"
		return nil
	}
	var flag struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(result, &flag)
	res.IsError = flag.IsError
	return nil
}

// ErrNotReady is wrapped by Call errors for servers that are not Ready.
var ErrNotReady = errors.New("server is not ready")
