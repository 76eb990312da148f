package loader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/model"
)

// Multi-round requests (2026-07-28): a server that needs something of the
// client during a request answers it with an input_required result, the
// requests it needs answered (inputRequests) and an opaque requestState;
// the client answers them and sends the request again with the answers
// (inputResponses) and the requestState exactly as it came. The answers
// are the conn's own (answer): the same as to an elicitation/create,
// sampling/createMessage or roots/list the server sends on its own.

const (
	// MaxRounds bounds the rounds of one request: past it the request
	// fails ("more than 16 rounds"), nothing more is sent.
	MaxRounds = 16
	// MaxInputRequests bounds the input requests of one round (and of
	// one poll of a task): a round asking more is refused whole.
	MaxInputRequests = 16
)

// roundOptions are the options of mcp-go's client that make it answer the
// input_required results of tools/call with the conn's answers, within
// MaxRounds: a handler for each capability the handshake declares and none
// for another, which mcp-go would declare.
func (c *conn) roundOptions(caps model.Capabilities) []client.ClientOption {
	opts := []client.ClientOption{client.WithMaxInputRoundTrips(MaxRounds)}
	a := roundAnswerer{c}
	if caps.Elicitation != nil {
		opts = append(opts, client.WithElicitationHandler(a))
	}
	if caps.Sampling {
		opts = append(opts, client.WithSamplingHandler(a))
	}
	if caps.Roots != nil {
		opts = append(opts, client.WithRootsHandler(a))
	}
	return opts
}

// A roundAnswerer answers the input requests mcp-go hands it with the
// conn's answers.
type roundAnswerer struct{ c *conn }

func (a roundAnswerer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	var out mcp.ElicitationResult
	return &out, a.reply(ctx, model.MethodElicit, req.Params, &out)
}

func (a roundAnswerer) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var out mcp.CreateMessageResult
	return &out, a.reply(ctx, model.MethodCreateMessage, req.CreateMessageParams, &out)
}

func (a roundAnswerer) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var out mcp.ListRootsResult
	return &out, a.reply(ctx, model.MethodRootsList, nil, &out)
}

func (a roundAnswerer) reply(ctx context.Context, method string, params any, out any) error {
	raw, _ := json.Marshal(params)
	result, err := a.c.inputAnswer(ctx, method, raw)
	if err != nil {
		return err
	}
	return json.Unmarshal(result, out)
}

// inputAnswer answers one input request, method with params, as the conn
// answers the same request sent on its own; an answer that is an error
// (a capability not declared, a sampling request rejected, a question over
// its limit) is returned as the error.
func (c *conn) inputAnswer(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId("input"), Method: method}
	if len(params) > 0 && string(params) != "null" {
		req.Params = params
	}
	resp, err := c.answer(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s was answered with error %d: %s", method, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, nil
}

// explainRound adds to mcp-go's word for an input request it had no
// answer for (no handler: the capability is not declared) why that is,
// and takes a round refused for its size (crowdedRound) out of the
// transport error mcp-go wraps it in.
func explainRound(err error) error {
	if crowd := (*crowdedError)(nil); errors.As(err, &crowd) {
		return crowd
	}
	if err == nil || !strings.Contains(err.Error(), "handler configured") {
		return err
	}
	return fmt.Errorf("%w (the server asked, in an input_required result, for what the client profile does not declare; such a client refuses it)", err)
}

// answerInputs answers a round's inputRequests (a JSON object of
// {method, params} by key) and returns the inputResponses, by the same
// keys; at most MaxInputRequests, each answered in turn, by key.
func (c *conn) answerInputs(ctx context.Context, requests json.RawMessage) (map[string]json.RawMessage, error) {
	var asked map[string]struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if len(requests) > 0 {
		if err := json.Unmarshal(requests, &asked); err != nil {
			return nil, fmt.Errorf("the inputRequests are not an object of requests: %v", err)
		}
	}
	if len(asked) > MaxInputRequests {
		return nil, crowded(len(asked))
	}
	out := make(map[string]json.RawMessage, len(asked))
	for _, key := range slices.Sorted(maps.Keys(asked)) { // asked in the same order every time
		r := asked[key]
		answer, err := c.inputAnswer(ctx, r.Method, r.Params)
		if err != nil {
			return nil, fmt.Errorf("input request %q: %w", model.Sanitize(key), err)
		}
		out[key] = answer
	}
	return out, nil
}

// crowded is the error of a round of n input requests, over
// MaxInputRequests.
func crowded(n int) error { return &crowdedError{n: n} }

type crowdedError struct{ n int }

func (e *crowdedError) Error() string {
	return fmt.Sprintf("%d input requests in one round, over mcplens's bound of %d; none was answered", e.n, MaxInputRequests)
}

// crowdedRound refuses the answer to a tools/call whose input_required
// round asks more than MaxInputRequests questions, before mcp-go answers
// them (each at once, on a goroutine of its own): the round is refused
// whole, as inRounds and a task's refuse theirs.
func crowdedRound(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) error {
	if req.Method != string(mcp.MethodToolsCall) || resp == nil || resp.Error != nil {
		return nil
	}
	requests, _, more := inputRequired(resp.Result)
	var asked map[string]json.RawMessage
	if !more || json.Unmarshal(requests, &asked) != nil || len(asked) <= MaxInputRequests {
		return nil
	}
	return crowded(len(asked))
}

// inRounds sends one of the lister's requests (prompts/get,
// resources/read) and, while the server answers input_required, answers
// its input requests and sends it again with the answers and the
// requestState as it came, within MaxRounds. It returns the last result.
func (c *conn) inRounds(ctx context.Context, l *lister, method mcp.MCPMethod, params map[string]any, room int64) ([]byte, int, error) {
	for round := 1; ; round++ {
		result, size, err := l.request(ctx, method, params, room)
		if err != nil || result == nil {
			return result, size, err
		}
		requests, state, more := inputRequired(result)
		if !more {
			return result, size, nil
		}
		if round >= MaxRounds {
			return nil, 0, fmt.Errorf("%s still asked for input after %d rounds, mcplens's bound; it was not sent again", method, round)
		}
		answers, err := c.answerInputs(ctx, requests)
		if err != nil {
			return nil, 0, fmt.Errorf("round %d of %s: %w", round, method, err)
		}
		next := make(map[string]any, len(params)+2)
		for k, v := range params {
			next[k] = v
		}
		next["inputResponses"] = answers
		delete(next, "requestState")
		if state != nil {
			next["requestState"] = state
		}
		params = next
	}
}

// inputRequired reports whether a result asks for input, with its
// inputRequests and requestState, both as sent.
func inputRequired(result []byte) (requests, state json.RawMessage, more bool) {
	values := make([][]byte, 3)
	if !jsonMembers(result, []string{"resultType", "inputRequests", "requestState"}, values) {
		var v struct {
			ResultType    json.RawMessage `json:"resultType"`
			InputRequests json.RawMessage `json:"inputRequests"`
			RequestState  json.RawMessage `json:"requestState"`
		}
		if json.Unmarshal(result, &v) != nil {
			return nil, nil, false
		}
		values = [][]byte{v.ResultType, v.InputRequests, v.RequestState}
	}
	var kind string
	if json.Unmarshal(values[0], &kind) != nil || kind != string(mcp.ResultTypeInputRequired) {
		return nil, nil, false
	}
	return values[1], values[2], true
}
