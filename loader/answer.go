package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/model"
)

// Answers say how mcplens answers the requests a server sends it: with
// fixed answers headless, where there is nobody to ask, or by asking
// someone (Ask).
type Answers struct {
	// Roots are the folders roots/list answers with, as absolute paths,
	// until Session.SetRoots changes them.
	Roots []string
	// Elicit is the answer to every elicitation/create; "" declines.
	Elicit ElicitAnswer
	// SamplingReply, when set, is the text every sampling/createMessage is
	// answered with; "" rejects the request, as a user would.
	SamplingReply string
	// Ask, when set, answers elicitation/create and sampling/createMessage
	// instead of Elicit and SamplingReply: it is given the request and
	// blocks the server's request until someone answers or ctx ends (then
	// the elicitation is cancelled, the sampling rejected). It runs on a
	// goroutine of its own for each request.
	Ask func(ctx context.Context, q Question) Reply
}

// A Question is a request a server sent that someone is asked to answer.
type Question struct {
	Server string
	// Method is model.MethodElicit or model.MethodCreateMessage.
	Method string
	// Params are the request's params, as the server sent them.
	Params json.RawMessage
}

// A Reply is someone's answer to a Question.
type Reply struct {
	// Action is what was done with it: accept, decline or cancel; a
	// sampling request not accepted is rejected.
	Action mcp.ElicitationResponseAction
	// Content is an accepted elicitation's content: for a form, each
	// field's value.
	Content map[string]any
	// Text is an accepted sampling request's reply.
	Text string
}

// An ElicitAnswer is how an elicitation is answered.
type ElicitAnswer string

const (
	ElicitDecline        ElicitAnswer = "decline"
	ElicitCancel         ElicitAnswer = "cancel"
	ElicitAcceptDefaults ElicitAnswer = "accept-defaults" // accept, with each field's default
)

// ElicitAnswers lists the answers --elicit takes.
func ElicitAnswers() []ElicitAnswer {
	return []ElicitAnswer{ElicitDecline, ElicitAcceptDefaults, ElicitCancel}
}

// errUserRejected is the code of the specification's example of a client
// answering a sampling request its user rejected.
const errUserRejected = -1

// answer is the handler of the requests a server sends: it answers those
// the handshake declares a capability for, and ping, and refuses the others
// with "method not found", as a client that never declared them does. The
// answer goes out through the tapped transport, so the frame log shows the
// request and the answer like any frames.
func (c *conn) answer(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	caps, answers := c.hs.Capabilities, c.s.opts.Answers
	switch {
	case req.Method == string(mcp.MethodPing):
		return result(req.ID, struct{}{})
	case caps.Tasks != nil && strings.HasPrefix(req.Method, "tasks/"):
		return noTasks(req)
	case !caps.Declares(req.Method):
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "Method not found", nil), nil
	case req.Method == model.MethodRootsList:
		return result(req.ID, mcp.ListRootsResult{Roots: roots(c.s.Roots())})
	}
	// sampling/createMessage or elicitation/create: a question for the user
	params, refusal := c.question(req)
	switch {
	case refusal != nil:
		return refusal, nil
	case answers.Ask != nil:
		return c.ask(ctx, req, params)
	case req.Method == model.MethodCreateMessage:
		if answers.SamplingReply == "" {
			return rejected(req.ID)
		}
		return sampled(req.ID, answers.SamplingReply)
	}
	// elicitation/create
	switch answers.Elicit {
	case ElicitAcceptDefaults:
		return result(req.ID, mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
			Action: mcp.ElicitationResponseActionAccept, Content: defaults(params),
		}})
	case ElicitCancel:
		return result(req.ID, mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}})
	}
	return result(req.ID, mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}})
}

// noTasks answers a tasks/ request of a server to a client that declares
// tasks: mcplens answers every request at once, never as a task, so it
// lists none and knows none by id.
func noTasks(req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == "tasks/list" {
		return result(req.ID, map[string]any{"tasks": []any{}})
	}
	return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS, "Task not found: mcplens runs no task", nil), nil
}

// question returns a question's params as JSON, or, when they are over
// Limits.Question, the error that answers the request, the refusal noted
// among the server's faults: a question is read by a person, on a screen,
// and nothing bigger than the limit is shown or kept.
func (c *conn) question(req transport.JSONRPCRequest) (json.RawMessage, *transport.JSONRPCResponse) {
	var params json.RawMessage
	if req.Params != nil {
		params, _ = json.Marshal(req.Params)
	}
	limit := c.s.opts.Limits.WithDefaults().Question
	if int64(len(params)) <= limit {
		return params, nil
	}
	over := &LimitError{Limit: "question", Max: limit,
		What: fmt.Sprintf("a question (%s) of %d bytes", req.Method, len(params))}
	if c.monitor != nil {
		c.monitor.fault(faultQuestion, over.Error(), over.Error()+"; it was answered with an error")
	}
	msg := fmt.Sprintf("request too large: %d bytes of params, over this client's limit of %s",
		len(params), bounded.FormatSize(limit))
	return nil, transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS, msg, nil)
}

// ask answers an elicitation or a sampling request with what Ask replies.
func (c *conn) ask(ctx context.Context, req transport.JSONRPCRequest, params json.RawMessage) (*transport.JSONRPCResponse, error) {
	q := Question{Server: c.spec.Label, Method: req.Method, Params: params}
	r := c.s.opts.Answers.Ask(ctx, q)
	if r.Action == "" || ctx.Err() != nil {
		r = Reply{Action: mcp.ElicitationResponseActionCancel}
	}
	if req.Method == model.MethodCreateMessage {
		if r.Action != mcp.ElicitationResponseActionAccept {
			return rejected(req.ID)
		}
		return sampled(req.ID, r.Text)
	}
	res := mcp.ElicitationResponse{Action: r.Action}
	if r.Action == mcp.ElicitationResponseActionAccept {
		res.Content = r.Content
	}
	return result(req.ID, mcp.ElicitationResult{ElicitationResponse: res})
}

// sampled is a sampling request answered with text.
func sampled(id mcp.RequestId, text string) (*transport.JSONRPCResponse, error) {
	return result(id, mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
		Model:           "mcplens",
		StopReason:      "endTurn",
	})
}

// rejected is a sampling request its user rejected.
func rejected(id mcp.RequestId) (*transport.JSONRPCResponse, error) {
	return transport.NewJSONRPCErrorResponse(id, errUserRejected, "User rejected sampling request", nil), nil
}

func result(id mcp.RequestId, v any) (*transport.JSONRPCResponse, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return transport.NewJSONRPCResultResponse(id, b), nil
}

// roots is the folders as roots: file URIs, named by their last element.
func roots(dirs []string) []mcp.Root {
	out := make([]mcp.Root, 0, len(dirs))
	for _, d := range dirs {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(d)}
		out = append(out, mcp.Root{URI: u.String(), Name: filepath.Base(d)})
	}
	return out
}

// defaults is the content of a form elicitation accepted as it was
// offered: each requested field that has a default, with it (SEP-1034).
func defaults(raw json.RawMessage) map[string]any {
	var p struct {
		RequestedSchema struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	content := map[string]any{}
	if json.Unmarshal(raw, &p) != nil {
		return content
	}
	for name, prop := range p.RequestedSchema.Properties {
		if len(prop.Default) > 0 {
			content[name] = prop.Default
		}
	}
	return content
}
