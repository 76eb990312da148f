package headertest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Options say what the server lists and which revision it speaks.
type Options struct {
	// Tools is the JSON array tools/list answers with, as it is.
	Tools string
	// Legacy makes the server answer server/discover -32601 (method not
	// found) and speak initialize at 2025-11-25.
	Legacy bool
}

// A Request is one POST the server got: its JSON-RPC method and headers.
type Request struct {
	Method string
	Header http.Header
	Body   []byte
}

// A Server is the running server.
type Server struct {
	// URL is its MCP endpoint; CanaryURL a path that serves nothing but
	// counts its requests.
	URL, CanaryURL string
	opts           Options
	mu             sync.Mutex
	reqs           []Request
	canary         atomic.Int64
}

// Resource and Prompt are what the server offers besides its tools: a
// resource whose URI has a space and a non-ASCII letter, a prompt.
const (
	ResourceURI = "file:///tmp/a b/é.txt"
	PromptName  = "greet"
)

// Start starts the server on 127.0.0.1; it stops when t ends.
func Start(t testing.TB, o Options) *Server {
	s := &Server{opts: o}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", s.serve)
	mux.HandleFunc("/canary/", func(w http.ResponseWriter, _ *http.Request) {
		s.canary.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":"string"}`)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	s.URL, s.CanaryURL = ts.URL+"/mcp", ts.URL+"/canary/schema.json"
	return s
}

// Requests returns every POST so far, in the order they came.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Last returns the last POST of method.
func (s *Server) Last(method string) (Request, bool) {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method {
			return reqs[i], true
		}
	}
	return Request{}, false
}

// CanaryHits counts the requests to CanaryURL.
func (s *Server) CanaryHits() int64 { return s.canary.Load() }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		return
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err != nil || json.Unmarshal(body, &msg) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: msg.Method, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	result, code := s.answer(msg.Method)
	reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
	if code != 0 {
		reply["error"] = map[string]any{"code": code, "message": "method not found: " + msg.Method}
	} else {
		if !s.opts.Legacy {
			result["resultType"] = "complete"
		}
		reply["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(reply)
}

// answer is the result of method, or the JSON-RPC error code it gets.
func (s *Server) answer(method string) (map[string]any, int) {
	caps := map[string]any{"tools": map[string]any{}, "resources": map[string]any{}, "prompts": map[string]any{}}
	info := map[string]any{"name": "headertest", "version": "1.0.0"}
	switch method {
	case "server/discover":
		if s.opts.Legacy {
			return nil, -32601
		}
		return map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": caps, "serverInfo": info}, 0
	case "initialize":
		return map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps, "serverInfo": info}, 0
	case "tools/list":
		tools := json.RawMessage(s.opts.Tools)
		if len(tools) == 0 {
			tools = json.RawMessage(`[]`)
		}
		return map[string]any{"tools": tools}, 0
	case "tools/call":
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "called"}}}, 0
	case "resources/list":
		return map[string]any{"resources": []any{map[string]any{"uri": ResourceURI, "name": "a"}}}, 0
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{}}, 0
	case "resources/read":
		return map[string]any{"contents": []any{map[string]any{"uri": ResourceURI, "text": "read"}}}, 0
	case "prompts/list":
		return map[string]any{"prompts": []any{map[string]any{"name": PromptName}}}, 0
	case "prompts/get":
		return map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hi"}}}}, 0
	}
	return nil, -32601
}
