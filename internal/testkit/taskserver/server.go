package taskserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// State is the requestState of every input_required the server answers:
// quotes, a backslash and non-ASCII, which a client must echo exactly.
const State = "round-1 \"é\" \\ <state>"

// A Server is the test server and what it saw.
type Server struct {
	mcp *server.MCPServer

	mu        sync.Mutex
	seq       int
	ext       map[string]*extTask
	cancelled []string // the tasks/cancel requests, by task id, in order
	badState  []string // a requestState that came back changed
}

// New returns the server.
func New() *Server {
	s := &Server{ext: map[string]*extTask{}}
	m := server.NewMCPServer("taskserver", "1.0.0",
		server.WithTaskCapabilities(true, true, true),
		server.WithExtensions(map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}),
		server.WithPromptCapabilities(false))
	m.AddTool(mcp.NewTool("ask", mcp.WithDescription("asks a name (elicitation) and the roots, in one input_required round")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text, more := s.round(req.Params.MultiRoundTripParams)
			if more != nil {
				return more.ToolResult(), nil
			}
			return mcp.NewToolResultText(text), nil
		})
	m.AddTool(mcp.NewTool("endless", mcp.WithDescription("asks for the roots in every round, for ever")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return server.NewInputRequestBuilder(State).Roots("roots").ToolResult(), nil
		})
	m.AddTool(mcp.NewTool("crowd", mcp.WithDescription("asks for the roots 17 times in one input_required round, one more than a client answers")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if n := len(req.Params.InputResponses); n > 0 {
				return mcp.NewToolResultText(fmt.Sprintf("%d answers", n)), nil
			}
			b := server.NewInputRequestBuilder(State)
			for i := range 17 {
				b.Roots(fmt.Sprintf("q%d", i))
			}
			return b.ToolResult(), nil
		})
	m.AddPrompt(mcp.NewPrompt("ask-prompt", mcp.WithPromptDescription("asks a name and the roots first")),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			text, more := s.round(req.Params.MultiRoundTripParams)
			if more != nil {
				return more.PromptResult(), nil
			}
			return mcp.NewGetPromptResult("asked", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text))}), nil
		})
	m.AddTool(mcp.NewTool("slow", mcp.WithDescription("a 2025-11-25 task that ends after ms milliseconds"),
		mcp.WithNumber("ms"), mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// mcp-go ends the context of a tool it runs as a task with the
			// tools/call's answer: the task runs on regardless.
			ms := req.GetFloat("ms", 300)
			<-time.After(time.Duration(ms) * time.Millisecond)
			return mcp.NewToolResultText(fmt.Sprintf("slow done after %vms", ms)), nil
		})
	m.AddTool(mcp.NewTool("forever", mcp.WithDescription("a 2025-11-25 task that runs a minute, to be cancelled"),
		mcp.WithTaskSupport(mcp.TaskSupportOptional)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-time.After(time.Minute) // its context ends at once (see slow)
			return mcp.NewToolResultText("forever ended"), nil
		})
	m.AddTool(mcp.NewTool("ext-task", mcp.WithDescription("a 2026-07-28 task (tasks extension) that asks a topic; forever: never ends"),
		mcp.WithBoolean("forever"), mcp.WithString("hostile", mcp.Enum("long-id", "many-inputs", "unasked", "flood", "long-status"))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("ext-task runs only for a client that declares the tasks extension"), nil
		})
	s.mcp = m
	return s
}

// MCP is the mcp-go server under the package's own handling.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Cancelled returns the ids of the tasks a tasks/cancel named, in order.
func (s *Server) Cancelled() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cancelled...)
}

// BadStates returns the requestStates that came back other than sent.
func (s *Server) BadStates() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.badState...)
}

// round is one round of ask: the first asks for a name and the roots
// (more set); the second, given the answers and State back, says hello.
func (s *Server) round(p mcp.MultiRoundTripParams) (string, *server.InputRequestBuilder) {
	if len(p.InputResponses) == 0 {
		return "", server.NewInputRequestBuilder(State).
			Elicit("name", mcp.ElicitationParams{Message: "Your name?", RequestedSchema: map[string]any{
				"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "default": "lens"}}}}).
			Roots("roots")
	}
	if p.RequestState != State {
		s.mu.Lock()
		s.badState = append(s.badState, p.RequestState)
		s.mu.Unlock()
		return "requestState changed: " + p.RequestState, nil
	}
	name, roots := "(none)", -1
	if r, ok := p.InputResponses["name"]; ok && r.DecodeFor(mcp.MethodElicitationCreate) == nil && r.Elicitation != nil {
		name = fmt.Sprintf("%s %v", r.Elicitation.Action, r.Elicitation.Content)
	}
	if r, ok := p.InputResponses["roots"]; ok && r.DecodeFor(mcp.MethodListRoots) == nil && r.Roots != nil {
		roots = len(r.Roots.Roots)
	}
	return fmt.Sprintf("hello %s; %d roots", name, roots), nil
}

// An extTask is a task of the tasks extension.
type extTask struct {
	id       string
	polls    int
	topic    string // the answer, once tasks/update gave it
	forever  bool
	many     bool // asks 17 questions at once
	flood    bool // never ends, and each poll's answer follows floodNotes notes of its status
	long     bool // never ends, its statusMessage 1 MiB
	canceled bool
}

var errNotMine = errors.New("not the extension's")

// floodNotes is how many notes of its status go before each answer to
// tasks/get of a flooding task.
const floodNotes = 50

// intercept answers a request of the tasks extension (the ext-task
// call, and tasks/get, tasks/update, tasks/cancel of its tasks) with the
// lines to send, the answer last; any other message is errNotMine, for
// mcp-go.
func (s *Server) intercept(line []byte) ([][]byte, error) {
	answer, err := s.answer(line)
	if err != nil {
		return nil, err
	}
	var req struct {
		Method string `json:"method"`
		Params struct {
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(line, &req)
	s.mu.Lock()
	t := s.ext[req.Params.TaskID]
	flood := req.Method == "tasks/get" && t != nil && t.flood
	s.mu.Unlock()
	var lines [][]byte
	for i := 0; flood && i < floodNotes; i++ {
		note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/tasks",
			"params": map[string]any{"taskId": req.Params.TaskID, "status": "working"}})
		lines = append(lines, note)
	}
	return append(lines, answer), nil
}

// answer is intercept's answer alone.
func (s *Server) answer(line []byte) ([]byte, error) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
			TaskID    string         `json:"taskId"`
			Meta      struct {
				Caps struct {
					Extensions map[string]any `json:"extensions"`
				} `json:"io.modelcontextprotocol/clientCapabilities"`
			} `json:"_meta"`
			InputResponses map[string]struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			} `json:"inputResponses"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 {
		return nil, errNotMine
	}
	p := req.Params
	if req.Method == "tasks/cancel" {
		s.mu.Lock()
		s.cancelled = append(s.cancelled, p.TaskID)
		s.mu.Unlock()
	}
	mine := req.Method == "tools/call" && p.Name == "ext-task" ||
		strings.HasPrefix(req.Method, "tasks/") && strings.HasPrefix(p.TaskID, "ext-")
	if !mine {
		return nil, errNotMine
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	reply := func(result any) ([]byte, error) {
		return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	if req.Method == "tools/call" {
		if _, ok := p.Meta.Caps.Extensions["io.modelcontextprotocol/tasks"]; !ok && p.Arguments["hostile"] != "unasked" {
			return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{
				"code": -32021, "message": "Missing required client capability",
				"data": map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}}})
		}
		s.seq++
		t := &extTask{id: fmt.Sprintf("ext-%d", s.seq), forever: p.Arguments["forever"] == true}
		switch p.Arguments["hostile"] {
		case "long-id":
			t.id += strings.Repeat("x", 2000)
		case "many-inputs":
			t.many = true
		case "flood":
			t.forever, t.flood = true, true
		case "long-status":
			t.forever, t.long = true, true
		}
		s.ext[t.id] = t
		return reply(t.state("task"))
	}
	t, ok := s.ext[p.TaskID]
	if !ok {
		return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32602, "message": "unknown task"}})
	}
	switch req.Method {
	case "tasks/get":
		t.polls++
		return reply(t.state("complete"))
	case "tasks/update":
		if r, ok := p.InputResponses["topic-1"]; ok && r.Action == "accept" {
			t.topic = fmt.Sprint(r.Content["topic"])
		} else if ok {
			t.topic = "(" + r.Action + ")"
		}
	case "tasks/cancel":
		t.canceled = true
	}
	return reply(map[string]any{"resultType": "complete"})
}

// state is the task as tasks/get (resultType "complete") or the creation
// (resultType "task") gives it: working on the first poll, then asking a
// topic until tasks/update gives it, then completed.
func (t *extTask) state(resultType string) map[string]any {
	st := map[string]any{"resultType": resultType, "taskId": t.id, "status": "working",
		"statusMessage": fmt.Sprintf("poll %d", t.polls), "createdAt": "2026-07-28T00:00:00Z",
		"lastUpdatedAt": "2026-07-28T00:00:00Z", "ttlMs": 60000, "pollIntervalMs": 20}
	if t.long {
		st["statusMessage"] = strings.Repeat("a long status ", 1<<20/14)
	}
	switch {
	case t.canceled:
		st["status"] = "cancelled"
	case t.forever || t.polls < 1:
	case t.many:
		st["status"] = "input_required"
		asks := map[string]any{}
		for i := range 17 {
			asks[fmt.Sprintf("q%d", i)] = map[string]any{"method": "roots/list"}
		}
		st["inputRequests"] = asks
	case t.topic == "":
		st["status"] = "input_required"
		st["inputRequests"] = map[string]any{"topic-1": map[string]any{"method": "elicitation/create", "params": map[string]any{
			"mode": "form", "message": "Which topic?", "requestedSchema": map[string]any{"type": "object",
				"properties": map[string]any{"topic": map[string]any{"type": "string", "default": "tasks"}}}}}}
	default:
		st["status"] = "completed"
		st["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "researched " + t.topic}}, "isError": false}
	}
	return st
}
