package stateless

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// Revision is the stateless revision the server speaks by default.
const Revision = "2026-07-28"

// Meta keys of the stateless revisions.
const (
	metaVersion = "io.modelcontextprotocol/protocolVersion"
	metaInfo    = "io.modelcontextprotocol/clientInfo"
	metaCaps    = "io.modelcontextprotocol/clientCapabilities"
	metaLevel   = "io.modelcontextprotocol/logLevel"
)

// maxBody bounds a request body the server reads.
const maxBody = 1 << 20

// Config turns the server's knobs; the zero Config is a well-behaved
// server of 2026-07-28.
type Config struct {
	// Supported are the revisions the server speaks (default Revision).
	Supported []string
	// RejectFirst answers the first request with -32022, whatever it
	// asked, listing Supported.
	RejectFirst bool
	// Legacy makes the server one of 2025-11-25: server/discover is
	// answered -32601 (HTTP 200, as the handshake revisions answer an
	// unknown method) and the session starts with initialize.
	Legacy bool
	// LoginStatus, when set (401 or 403), answers every request so, with
	// a Bearer challenge.
	LoginStatus int
	// TTLMs and Scope are the caching hints of tools/list.
	TTLMs int64
	Scope string
	// RefuseListed makes a Legacy server answer server/discover with
	// -32022 listing Supported, the revision asked among them: a server
	// that refuses a revision it says it supports.
	RefuseListed bool
	// Refusal, when set, is the message of a Legacy server's -32601 (a
	// hostile one, say), "Method not found" otherwise.
	Refusal string
	// LateTool, when set, makes the server answer subscriptions/listen:
	// once its first tools/list has been answered, it adds a tool of that
	// name, with no notification (the subscription is not yet
	// established), then acknowledges the subscription and holds the
	// stream open.
	LateTool string
	// AckAgain, with LateTool, has the listen stream acknowledge the
	// subscription AckAgain times more, each ackGap after the last, as a
	// hostile server might, and then notify tools/list_changed (Noted
	// says when).
	AckAgain int
}

// ackGap is the time between two of AckAgain's acknowledgements: longer
// than a client's pause between two listings, so that none is covered by
// the listing of the one before.
const ackGap = 150 * time.Millisecond

// A Request is one request that reached the server.
type Request struct {
	Method string
	// Header is the MCP-Protocol-Version header, "" when absent.
	Header string
	// Meta is the request's params._meta, nil when absent.
	Meta map[string]json.RawMessage
	// Params is the request's params, as sent.
	Params json.RawMessage
}

// MetaString is the string member key of the request's _meta, "" when
// absent.
func (r Request) MetaString(key string) string {
	var s string
	_ = json.Unmarshal(r.Meta[key], &s)
	return s
}

// A Server is the running server.
type Server struct {
	// URL is the MCP endpoint.
	URL string
	cfg Config

	mu       sync.Mutex
	requests []Request
	rejected bool
	added    []string
	listed   chan struct{} // closed when the first tools/list is answered
	once     sync.Once
	noted    int // the requests before the list_changed of AckAgain, -1 before
}

// Noted returns how many requests had reached the server when it sent
// the tools/list_changed that follows AckAgain's acknowledgements, -1
// until it has.
func (s *Server) Noted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.noted
}

// AddTool adds a tool named name to what tools/list answers from now on,
// with no notification: a client sees it when it lists again.
func (s *Server) AddTool(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.added = append(s.added, name)
}

// Start starts a server on 127.0.0.1, stopped when the test ends.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	if len(cfg.Supported) == 0 {
		cfg.Supported = []string{Revision}
	}
	s := &Server{cfg: cfg, listed: make(chan struct{}), noted: -1}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL + "/mcp"
	return s
}

// Requests returns the requests that reached the server, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Methods lists the methods of Requests, in order.
func (s *Server) Methods() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Method)
	}
	return out
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	var msg message
	if json.Unmarshal(body, &msg) != nil {
		reply(w, http.StatusBadRequest, nil, nil, rpcError(-32700, "parse error", nil))
		return
	}
	var params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(msg.Params, &params)
	req := Request{Method: msg.Method, Header: r.Header.Get("MCP-Protocol-Version"), Meta: params.Meta, Params: msg.Params}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	rejectNow := s.cfg.RejectFirst && !s.rejected
	s.rejected = true
	s.mu.Unlock()

	if st := s.cfg.LoginStatus; st != 0 {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+"http://"+r.Host+`/.well-known/oauth-protected-resource"`)
		w.WriteHeader(st)
		return
	}
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	if s.cfg.Legacy {
		s.legacy(w, msg)
		return
	}
	switch v := req.MetaString(metaVersion); {
	case rejectNow:
		reply(w, http.StatusBadRequest, msg.ID, nil, s.unsupported(req.Header))
	case msg.Method == "initialize":
		// A server of the stateless revisions alone names them in its
		// answer to initialize, which it does not speak.
		reply(w, http.StatusBadRequest, msg.ID, nil, s.unsupported(paramString(msg.Params, "protocolVersion")))
	case req.Header == "":
		reply(w, http.StatusBadRequest, msg.ID, nil, rpcError(-32020, "missing MCP-Protocol-Version header", nil))
	case req.Meta[metaVersion] == nil || req.Meta[metaCaps] == nil:
		reply(w, http.StatusBadRequest, msg.ID, nil, rpcError(-32602, "missing _meta protocolVersion or clientCapabilities", nil))
	case v != req.Header:
		reply(w, http.StatusBadRequest, msg.ID, nil, rpcError(-32020, "MCP-Protocol-Version header does not match _meta", nil))
	case !slices.Contains(s.cfg.Supported, v):
		reply(w, http.StatusBadRequest, msg.ID, nil, s.unsupported(v))
	default:
		s.modern(w, r, msg)
	}
}

// modern answers a valid request of the stateless revisions.
func (s *Server) modern(w http.ResponseWriter, r *http.Request, msg message) {
	switch msg.Method {
	case "subscriptions/listen":
		if s.cfg.LateTool == "" {
			reply(w, http.StatusNotFound, msg.ID, nil, rpcError(-32601, "Method not found: "+msg.Method, nil))
			return
		}
		s.listen(w, r)
	case "server/discover":
		reply(w, http.StatusOK, msg.ID, map[string]any{
			"resultType":        "complete",
			"supportedVersions": s.cfg.Supported,
			"capabilities":      map[string]any{"tools": map[string]any{}, "logging": map[string]any{}},
			"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "stateless", "version": "1.0.0"}},
			"ttlMs":             0,
			"cacheScope":        "public",
		}, nil)
	case "tools/list":
		reply(w, http.StatusOK, msg.ID, s.toolsList(), nil)
		s.once.Do(func() { close(s.listed) })
	case "tools/call":
		reply(w, http.StatusOK, msg.ID, map[string]any{
			"resultType": "complete",
			"content":    []any{map[string]any{"type": "text", "text": "echo " + paramString(msg.Params, "name")}},
		}, nil)
	default:
		reply(w, http.StatusNotFound, msg.ID, nil, rpcError(-32601, "Method not found: "+msg.Method, nil))
	}
}

// legacy answers as a server of 2025-11-25 (one session, never checked).
func (s *Server) legacy(w http.ResponseWriter, msg message) {
	switch msg.Method {
	case "server/discover":
		if s.cfg.RefuseListed {
			reply(w, http.StatusBadRequest, msg.ID, nil, s.unsupported(Revision))
			return
		}
		reply(w, http.StatusOK, msg.ID, nil, rpcError(-32601, cmp.Or(s.cfg.Refusal, "Method not found"), nil))
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "legacy-session")
		reply(w, http.StatusOK, msg.ID, map[string]any{
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "legacy", "version": "1.0.0"},
		}, nil)
	case "tools/list":
		reply(w, http.StatusOK, msg.ID, map[string]any{"tools": s.tools()}, nil)
	default:
		refusal := s.cfg.Refusal
		if refusal == "" {
			refusal = "Method not found"
		}
		reply(w, http.StatusOK, msg.ID, nil, rpcError(-32601, refusal, nil))
	}
}

// listen answers subscriptions/listen as LateTool says: a stream whose
// acknowledgement comes after a change it did not notify.
func (s *Server) listen(w http.ResponseWriter, r *http.Request) {
	select {
	case <-s.listed:
	case <-r.Context().Done():
		return
	}
	s.AddTool(s.cfg.LateTool)
	ack, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
		"params": map[string]any{"notifications": map[string]any{"toolsListChanged": true}}})
	if err != nil {
		panic(fmt.Sprintf("stateless: encoding the acknowledgement: %v", err))
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	send := func(frame []byte) {
		_, _ = fmt.Fprintf(w, "event: message\ndata: %s\n\n", frame)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send(ack)
	if s.cfg.AckAgain > 0 {
		for range s.cfg.AckAgain {
			select {
			case <-time.After(ackGap):
			case <-r.Context().Done():
				return
			}
			send(ack)
		}
		s.mu.Lock()
		s.noted = len(s.requests)
		s.mu.Unlock()
		send([]byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`))
	}
	<-r.Context().Done()
}

func (s *Server) tools() []any {
	tools := []any{map[string]any{"name": "echo", "description": "echoes", "inputSchema": map[string]any{"type": "object"}}}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range s.added {
		tools = append(tools, map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}})
	}
	return tools
}

func (s *Server) toolsList() map[string]any {
	res := map[string]any{"resultType": "complete", "tools": s.tools(), "ttlMs": s.cfg.TTLMs}
	if s.cfg.Scope != "" {
		res["cacheScope"] = s.cfg.Scope
	}
	return res
}

// unsupported is the -32022 error naming the versions supported.
func (s *Server) unsupported(requested string) map[string]any {
	return rpcError(-32022, "Unsupported protocol version", map[string]any{"supported": s.cfg.Supported, "requested": requested})
}

func rpcError(code int, message string, data any) map[string]any {
	e := map[string]any{"code": code, "message": message}
	if data != nil {
		e["data"] = data
	}
	return e
}

func reply(w http.ResponseWriter, status int, id json.RawMessage, result, rpcErr any) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if id == nil {
		msg["id"] = nil
	}
	if rpcErr != nil {
		msg["error"] = rpcErr
	} else {
		msg["result"] = result
	}
	b, err := json.Marshal(msg)
	if err != nil {
		panic(fmt.Sprintf("stateless: encoding an answer: %v", err))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func paramString(params json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(params, &m)
	var s string
	_ = json.Unmarshal(m[key], &s)
	return s
}
