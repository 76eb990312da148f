package loader_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

func init() {
	testServers["silent"] = serveSilent
}

// growServer is an MCP server listing one tool per page whose tool "grow"
// adds a tool, which sends notifications/tools/list_changed.
func growServer() *server.MCPServer {
	s := server.NewMCPServer("grow", "1", server.WithPaginationLimit(1), server.WithToolCapabilities(true))
	noop := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	s.AddTool(mcp.NewTool("t1"), noop)
	s.AddTool(mcp.NewTool("t2"), noop)
	s.AddTool(mcp.NewTool("grow"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(mcp.NewTool("t3"), noop)
		return mcp.NewToolResultText("grown"), nil
	})
	return s
}

// bodyLog keeps every request body a test HTTP server received, and checks
// a header on each.
type bodyLog struct {
	mu     sync.Mutex
	bodies [][]byte
	bad    []string
}

func (l *bodyLog) wrap(t *testing.T, h http.Handler, header, want string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		l.mu.Lock()
		if len(body) > 0 {
			l.bodies = append(l.bodies, body)
		}
		if got := r.Header.Get(header); got != want {
			l.bad = append(l.bad, fmt.Sprintf("%s %s: %s = %q", r.Method, r.URL.Path, header, got))
		}
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func remoteConfig(label, transport, url string, headers ...config.Header) *config.Config {
	return &config.Config{Servers: []config.ServerSpec{{Label: label, Transport: transport, URL: url, Headers: headers}}}
}

// TestStreamableHTTP connects over streamable HTTP with headers, follows
// every page, records the exact bodies both ways, relists on
// tools/list_changed, and calls a tool through the tap.
func TestStreamableHTTP(t *testing.T) {
	var log bodyLog
	ts := httptest.NewServer(log.wrap(t, server.NewStreamableHTTPServer(growServer()), "Authorization", "Bearer t0k"))
	t.Cleanup(ts.Close)
	cfg := remoteConfig("grow", config.TransportHTTP, ts.URL+"/mcp", config.Header{Name: "Authorization", Value: "Bearer t0k"})
	s := open(t, cfg, loader.Options{})

	ev := nextState(t, s, settleTimeout)
	if ev.State != mcpsession.Connecting || ev.Transport != config.TransportHTTP || ev.Deadline.IsZero() {
		t.Fatalf("first event = %+v, want Connecting over http with a deadline", ev)
	}
	ev = nextState(t, s, settleTimeout)
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", ev)
	}
	if got, want := toolNames(ev.Tools), []string{"grow", "t1", "t2"}; !slices.Equal(got, want) {
		t.Errorf("tools = %q, want %q (every page)", got, want)
	}
	if ev.Protocol != loader.ProtocolVersion {
		t.Errorf("protocol = %q, want %q", ev.Protocol, loader.ProtocolVersion)
	}

	// A stateless connection hears tools/list_changed on its
	// subscriptions/listen stream, which opens after the connection is
	// ready: a change before the server acknowledged it is not heard.
	for deadline := time.Now().Add(20 * time.Second); !heardFrame(s, "grow", "notifications/subscriptions/acknowledged"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server never acknowledged the subscriptions/listen stream")
		}
	}
	res, err := s.Call(context.Background(), "grow", "grow", nil)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if !bytes.Contains(res.Request, []byte(`"name":"grow"`)) || !bytes.Contains(res.Response, []byte("grown")) {
		t.Errorf("call request %s, response %s: want the tapped tools/call and its answer", res.Request, res.Response)
	}
	ev = nextState(t, s, settleTimeout)
	if got, want := toolNames(ev.Tools), []string{"grow", "t1", "t2", "t3"}; ev.State != mcpsession.Ready || !slices.Equal(got, want) {
		t.Errorf("after list_changed: %v %q, want Ready with %q", ev.State, got, want)
	}

	// Every body the server received is an Out frame, byte for byte.
	var out [][]byte
	var in int
	for _, f := range s.FrameLog("grow").Frames() {
		if f.Dir == mcpsession.Out {
			out = append(out, f.Bytes)
		} else if !f.Junk {
			in++
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, b := range log.bodies {
		if !slices.ContainsFunc(out, func(f []byte) bool { return bytes.Equal(f, b) }) {
			t.Errorf("the server received %s, which no Out frame holds exactly", b)
		}
	}
	if len(out) < 6 || in < 5 {
		t.Errorf("%d out and %d in frames, want initialize, initialized, 3 pages, the call, the relisting", len(out), in)
	}
	if len(log.bad) > 0 {
		t.Errorf("requests without the configured header: %q", log.bad)
	}
}

func TestSSE(t *testing.T) {
	var log bodyLog
	sse := server.NewSSEServer(growServer())
	ts := httptest.NewServer(log.wrap(t, sse, "X-Team", "blue"))
	t.Cleanup(ts.Close)
	server.WithBaseURL(ts.URL)(sse)
	cfg := remoteConfig("grow", config.TransportSSE, ts.URL+"/sse", config.Header{Name: "X-Team", Value: "blue"})
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	ev := last["grow"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 3 {
		t.Fatalf("event = %+v, want Ready with 3 tools", ev)
	}
	res, err := s.Call(context.Background(), "grow", "t1", nil)
	if err != nil || !bytes.Contains(res.Response, []byte(`"ok"`)) {
		t.Fatalf("Call = %s, %v; want the answer tapped from the event stream", res.Response, err)
	}
	var endpoint bool
	for _, f := range s.FrameLog("grow").Frames() {
		if f.Dir == mcpsession.In && f.Junk && bytes.Contains(f.Bytes, []byte("/message?sessionId=")) {
			endpoint = true
		}
		if f.Problem != "" {
			t.Errorf("frame %s has problem %q: transport text is no protocol fault", f.Bytes, f.Problem)
		}
	}
	if !endpoint {
		t.Errorf("no frame holds the endpoint event's data")
	}
	if len(log.bad) > 0 {
		t.Errorf("requests without the configured header: %q", log.bad)
	}
}

// silentHTTP is a streamable HTTP server that answers initialize and
// tools/list and never answers anything else: as mcp-go's server/discover
// probe would find a server that ignores unknown methods.
func silentHTTP(t *testing.T, answer bool) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var result string
		switch {
		case req.ID == nil:
			w.WriteHeader(http.StatusAccepted)
			return
		case req.Method == "initialize" && answer:
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"silent","version":"1"}}`
		case req.Method == "tools/list" && answer:
			result = `{"tools":[{"name":"hush","inputSchema":{"type":"object"}}]}`
		default:
			<-r.Context().Done() // silence
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
}

// serveSilent is the stdio form: initialize and tools/list answered,
// every other request ignored.
func serveSilent() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"silent","version":"1"}}}`+"\n", req.ID)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"hush","inputSchema":{"type":"object"}}]}}`+"\n", req.ID)
		}
	}
}

// TestIgnoringServerConnectsFast: a server that ignores unknown methods
// leaves mcplens's server/discover probe unanswered; the probe's bound
// (model.Era.Probe, a second) ends it and the connection falls back to
// initialize, over every transport, and says why. A profile of a
// handshake era never probes.
func TestIgnoringServerConnectsFast(t *testing.T) {
	ts := silentHTTP(t, true)
	t.Cleanup(ts.Close)
	for _, spec := range []config.ServerSpec{
		testServer("stdio", "silent"),
		{Label: "http", Transport: config.TransportHTTP, URL: ts.URL + "/mcp"},
	} {
		t.Run(spec.Label, func(t *testing.T) {
			cfg := &config.Config{Servers: []config.ServerSpec{spec}}
			start := time.Now()
			s := open(t, cfg, loader.Options{})
			_, last := settle(t, s, cfg)
			took := time.Since(start)
			ev := last[spec.Label]
			if ev.State != mcpsession.Ready || ev.Protocol != "2025-11-25" {
				t.Fatalf("event = %+v, want Ready on 2025-11-25", ev)
			}
			const why = "2025-11-25 via initialize: server/discover got no answer within the probe's bound"
			if ev.Facts.Settled != why {
				t.Errorf("settled = %q, want %q", ev.Facts.Settled, why)
			}
			// The time is logged, not asserted (timings flake on a shared
			// machine).
			t.Logf("%s: connected and listed in %s", spec.Label, took)

			// As a client of a handshake era, nothing is probed.
			s = open(t, cfg, loader.Options{Protocol: model.Revision20251125})
			if _, last := settle(t, s, cfg); last[spec.Label].State != mcpsession.Ready {
				t.Fatalf("at 2025-11-25: event = %+v, want Ready", last[spec.Label])
			}
			for _, f := range s.FrameLog(spec.Label).Frames() {
				if bytes.Contains(f.Bytes, []byte("server/discover")) {
					t.Errorf("at 2025-11-25, frame %s: the discover probe was sent", f.Bytes)
				}
			}
		})
	}
}

// TestConfigTimeout: a server's own timeout bounds its connect, the
// Connecting event carries the deadline, and the run's timeout overrides.
func TestConfigTimeout(t *testing.T) {
	ts := silentHTTP(t, false)
	t.Cleanup(ts.Close)
	spec := config.ServerSpec{Label: "mute", Transport: config.TransportHTTP, URL: ts.URL, Timeout: 300 * time.Millisecond}
	for _, tt := range []struct {
		name string
		run  time.Duration
		want time.Duration
	}{
		{"config", 0, 300 * time.Millisecond},
		{"run overrides", 200 * time.Millisecond, 200 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{Servers: []config.ServerSpec{spec}}
			start := time.Now()
			s := open(t, cfg, loader.Options{Timeout: tt.run})
			ev := nextState(t, s, settleTimeout)
			// The clock starts once the child runs, so the deadline is the
			// timeout after some start-up time; a generous bound only
			// catches a deadline taken from the wrong setting.
			if d := ev.Deadline.Sub(start); d < tt.want || d > tt.want+5*time.Second {
				t.Errorf("deadline in %s, want %s after the child started", d, tt.want)
			}
			ev = nextState(t, s, settleTimeout)
			want := fmt.Sprintf("initialize: no answer within %s", tt.want)
			if ev.State != mcpsession.Failed || ev.Err != want {
				t.Errorf("event = %v %q, want Failed %q", ev.State, ev.Err, want)
			}
			if took := time.Since(start); took > tt.want+10*time.Second {
				t.Errorf("failed after %s: the %s timeout did not end the wait", took, tt.want)
			}
		})
	}
}

func TestBlockedServerIsNotStarted(t *testing.T) {
	cfg := &config.Config{Servers: []config.ServerSpec{
		{Label: "b", Command: "/nonexistent", Blocked: "command: ${env:X} is not set"},
	}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["b"]; ev.State != mcpsession.Failed || ev.Err != "not started: command: ${env:X} is not set" {
		t.Errorf("event = %v %q, want Failed saying why it was not started", ev.State, ev.Err)
	}
	if s.Pid("b") != 0 {
		t.Errorf("a blocked server has a process")
	}
}

func TestToolFiltersMarkRows(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(growServer()))
	t.Cleanup(ts.Close)
	specs := []config.ServerSpec{
		{Label: "gem", Format: "gemini-cli", Transport: config.TransportHTTP, URL: ts.URL, IncludeTools: []string{"t1", "t2"}, ExcludeTools: []string{"t2"}},
		{Label: "cdx", Format: "codex", Transport: config.TransportHTTP, URL: ts.URL, Disabled: true},
	}
	cfg := &config.Config{Servers: specs}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	filtered := func(ev mcpsession.Event) string {
		var out []string
		for _, tool := range ev.Tools {
			out = append(out, tool.Name+"="+tool.FilteredBy)
		}
		return strings.Join(out, "; ")
	}
	if got, want := filtered(last["gem"]), "grow=includeTools does not list it; t1=; t2=excludeTools lists it"; got != want {
		t.Errorf("gemini filters: %s, want %s", got, want)
	}
	if got, want := filtered(last["cdx"]), "grow=the server is disabled; t1=the server is disabled; t2=the server is disabled"; got != want {
		t.Errorf("disabled server: %s, want %s", got, want)
	}
}

// TestHTTPCloseIsBounded: a server that never answers the session's DELETE
// does not hold Close past its budget.
func TestHTTPCloseIsBounded(t *testing.T) {
	mcpSrv := server.NewStreamableHTTPServer(growServer())
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			<-r.Context().Done()
			return
		}
		mcpSrv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	cfg := remoteConfig("grow", config.TransportHTTP, ts.URL)
	s := loader.Open(cfg, loader.Options{})
	settle(t, s, cfg)
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Close took %s: the bounded close did not end it", took)
	}
}

func TestServerCwd(t *testing.T) {
	dir := t.TempDir()
	cfg := &config.Config{Servers: []config.ServerSpec{
		{Label: "here", Command: "/bin/sh", Args: []string{"-c", "pwd >&2; exit 3"}, Cwd: dir},
		{Label: "nowhere", Command: "/bin/sh", Cwd: filepath.Join(dir, "missing")},
	}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["here"]; ev.State != mcpsession.Failed || !strings.Contains(ev.Stderr, dir) {
		t.Errorf("here = %v, stderr %q; want the child to run in %s", ev.State, ev.Stderr, dir)
	}
	want := fmt.Sprintf("starting %q: working directory %q: no such file or directory", "/bin/sh", filepath.Join(dir, "missing"))
	if ev := last["nowhere"]; ev.State != mcpsession.Failed || ev.Err != want {
		t.Errorf("nowhere = %v %q, want Failed %q", ev.State, ev.Err, want)
	}
}

// heardFrame reports whether server sent a frame holding method.
func heardFrame(s *loader.Session, server, method string) bool {
	for _, f := range s.FrameLog(server).Frames() {
		if f.Dir == mcpsession.In && bytes.Contains(f.Bytes, []byte(`"method":"`+method+`"`)) {
			return true
		}
	}
	return false
}
