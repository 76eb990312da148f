// Command auditee is an MCP server for mcplens audit's tests: correct by
// default (mcp-go's server, over stdio or streamable HTTP on loopback with
// Origin and Host checked), or wrong in exactly one way, its -mode:
//
//	cursor-loop         tools/list gives the same nextCursor again
//	wrong-code          an unknown method is answered -32600, not -32601
//	id-changed          a response to a string id carries another id
//	bad-schema          a tool's inputSchema is not a JSON Schema
//	origin              (HTTP) a foreign Origin is accepted
//	rebinding           (HTTP) a foreign Origin and a foreign Host are accepted
//	stdout-noise        a line that is not JSON-RPC on stdout
//	ignore-stdin-close  the server keeps running when its stdin closes
//	echo-version        initialize answers the revision asked, known or not
//	answer-notification a notification gets a response
//	silent-parse-error  malformed JSON gets no -32700
//	no-cache-hints      (2026-07-28) results lack ttlMs
//	bad-versions        (2026-07-28) server/discover lists a version that is
//	                    no revision, escapes in it
//	silent-after-init   nothing is answered after initialize
//	any-log-level       logging/setLevel takes a level that does not exist
//	undeclared-changes  tools/list_changed sent, listChanged not declared
//	unasked-log         a log message with every tools/list, asked for or not
//	                    (a fault on 2026-07-28 only, where _meta asks for one)
//	mcp-method-ignored  (HTTP, 2026-07-28) a mismatched Mcp-Method is served
//	one-stream          (HTTP) a POST is refused 409 while its session's GET
//	                    stream is open
//	meta-optional       (HTTP, 2026-07-28) a request lacking _meta or its
//	                    required fields is served
//	removed-200         (HTTP, 2026-07-28) a removed method is answered -32601
//	                    with HTTP 200, not 404
//	ping-served         (HTTP, 2026-07-28) ping is answered with a result
//	unknown-200         (HTTP, 2026-07-28) an unknown method is answered -32601
//	                    with HTTP 200, not 404
//	no-server-info      (2026-07-28) results carry no serverInfo in _meta
//	undeclared-prompts  prompts are served and not declared
//	bare-unsupported    (2026-07-28) an unsupported version's error -32022
//	                    carries no data (supported, requested)
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	mode := flag.String("mode", "", "the one fault to commit")
	addr := flag.String("http", "", "serve streamable HTTP on this loopback address and print its URL, instead of stdio")
	flag.Parse()
	s := newServer(*mode)
	if *addr != "" {
		serveHTTP(s, *mode, *addr)
		return
	}
	serveStdio(s, *mode)
}

// completer completes every prompt argument and template variable.
type completer struct{}

func (completer) CompletePromptArgument(context.Context, string, mcp.CompleteArgument, mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{"alpha", "beta"}}, nil
}

func (completer) CompleteResourceArgument(context.Context, string, mcp.CompleteArgument, mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{"1", "2"}}, nil
}

func newServer(mode string) *server.MCPServer {
	opts := []server.ServerOption{
		server.WithToolCapabilities(mode != "undeclared-changes"), server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true), server.WithLogging(), server.WithCompletions(),
		server.WithPromptCompletionProvider(completer{}), server.WithResourceCompletionProvider(completer{}),
	}
	if mode == "cursor-loop" {
		opts = append(opts, server.WithPaginationLimit(1))
	}
	s := server.NewMCPServer("auditee", "1.0.0", opts...)
	echo := mcp.NewTool("echo", mcp.WithDescription("Echoes its text."), mcp.WithString("text", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true))
	s.AddTool(echo, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("text", "")), nil
	})
	schema := `{"type":"object","properties":{"n":{"type":"integer"}}}`
	if mode == "bad-schema" {
		schema = `{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`
	}
	s.AddTool(mcp.NewToolWithRawSchema("count", "Counts.", json.RawMessage(schema)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("1"), nil
		})
	s.AddResource(mcp.NewResource("file:///readme.txt", "readme", mcp.WithMIMEType("text/plain")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello"}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("note://{id}", "note"),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: "note"}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets."), mcp.WithArgument("name")),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello"))}), nil
		})
	return s
}

// serveStdio runs s over stdin and stdout through mcp-go's stdio server,
// the mode's fault applied to the lines on their way.
func serveStdio(s *server.MCPServer, mode string) {
	out := &faultyWriter{w: os.Stdout, mode: mode}
	if mode == "stdout-noise" {
		fmt.Fprintln(os.Stdout, "auditee starting, logging to stdout by mistake")
	}
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					ProtocolVersion string `json:"protocolVersion"`
					Level           string `json:"level"`
				} `json:"params"`
			}
			_ = json.Unmarshal(line, &m)
			switch {
			case mode == "silent-after-init" && m.Method != "initialize":
				continue
			case mode == "any-log-level" && m.Method == "logging/setLevel" && m.Params.Level != "info":
				_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}` + "\n"))
				continue
			case mode == "unasked-log" && m.Method == "tools/list":
				_, _ = out.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"listing"}}` + "\n"))
			case mode == "undeclared-changes" && m.Method == "notifications/initialized":
				_, _ = out.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n"))
			case mode == "echo-version" && m.Method == "initialize":
				out.setAsked(m.Params.ProtocolVersion)
			case mode == "answer-notification" && m.Method != "" && m.ID == nil:
				_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":null,"result":{}}` + "\n"))
			}
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		if mode != "ignore-stdin-close" {
			pw.Close()
		}
	}()
	_ = server.NewStdioServer(s).Listen(context.Background(), pr, out)
}

// faultyWriter rewrites the server's output lines as the mode says.
type faultyWriter struct {
	mu    sync.Mutex
	w     io.Writer
	mode  string
	buf   bytes.Buffer
	asked string // echo-version: the revision initialize asked for
}

func (f *faultyWriter) setAsked(v string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = v
}

var protocolVersion = regexp.MustCompile(`"protocolVersion":"[^"]*"`)

var ttl = regexp.MustCompile(`"ttlMs":[0-9]+,?`)

var unsupportedData = regexp.MustCompile(`,"data":\{"supported":\[[^\]]*\],"requested":"[^"]*"\}`)

var serverInfo = regexp.MustCompile(`"io\.modelcontextprotocol/serverInfo":\{[^{}]*\},?`)

var nextCursor = regexp.MustCompile(`"nextCursor":"([^"]*)"`)

var stringID = regexp.MustCompile(`"id":"([^"\\]|\\.)*"`)

func (f *faultyWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf.Write(p)
	for {
		line, err := f.buf.ReadBytes('\n')
		if err != nil {
			f.buf.Write(line) // not a whole line yet
			return len(p), nil
		}
		if _, err := f.w.Write(fault(f.mode, f.asked, line)); err != nil {
			return 0, err
		}
	}
}

// fault applies the mode's fault to one output line.
func fault(mode, asked string, line []byte) []byte {
	switch mode {
	case "echo-version":
		return protocolVersion.ReplaceAll(line, []byte(`"protocolVersion":"`+asked+`"`))
	case "silent-parse-error":
		if bytes.Contains(line, []byte(`"code":-32700`)) {
			return nil
		}
	case "no-cache-hints":
		return ttl.ReplaceAll(line, nil)
	case "undeclared-prompts":
		if bytes.Contains(line, []byte(`"capabilities":`)) {
			return bytes.Replace(line, []byte(`"prompts":{"listChanged":true},`), nil, 1)
		}
	case "no-server-info":
		return serverInfo.ReplaceAll(line, nil)
	case "bare-unsupported":
		return unsupportedData.ReplaceAll(line, nil)
	case "bad-versions":
		return bytes.ReplaceAll(line, []byte(`"supportedVersions":[`), []byte(`"supportedVersions":["next\u001b[2J",`))
	case "wrong-code":
		return bytes.ReplaceAll(line, []byte(`"code":-32601`), []byte(`"code":-32600`))
	case "id-changed":
		return stringID.ReplaceAll(line, []byte(`"id":"changed"`))
	case "cursor-loop":
		// Every cursor after the first points back at the first.
		if c := nextCursor.FindSubmatch(line); c != nil && string(c[1]) != firstCursor() && bytes.Contains(line, []byte(`"tools":`)) {
			return nextCursor.ReplaceAll(line, []byte(`"nextCursor":"`+firstCursor()+`"`))
		}
	}
	return line
}

// firstCursor is the cursor mcp-go gives after the first of the tools in
// name order ("count"): the base64 of its name.
func firstCursor() string { return "Y291bnQ=" }

// serveHTTP serves s as streamable HTTP on addr, Origin and Host checked
// unless the mode is origin.
func serveHTTP(s *server.MCPServer, mode, addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	var opts []server.StreamableHTTPOption
	if mode == "rebinding" {
		opts = append(opts, server.WithDisableLocalhostProtection(true)) // mcp-go refuses a foreign Host itself
	}
	h := sessions(server.NewStreamableHTTPServer(s, opts...), mode)
	if mode != "origin" && mode != "rebinding" {
		h = localOnly(h)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	go func() {
		// The server ends when its stdin does, as a test's child should.
		_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		os.Exit(0)
	}()
	_ = http.Serve(ln, mux)
}

// localOnly refuses a request whose Origin or Host is not loopback: the
// DNS-rebinding protection the specification asks of local servers.
func localOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		origin := r.Header.Get("Origin")
		if !loopback(host) || (origin != "" && !loopbackOrigin(origin)) {
			http.Error(w, "forbidden origin", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func loopbackOrigin(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok {
		return false
	}
	if h, _, err := net.SplitHostPort(rest); err == nil {
		rest = h
	}
	return loopback(rest)
}

// sessions holds the rules of streamable HTTP that mcp-go's handler leaves
// to its host: a POST must accept JSON and event streams (else 406), a
// request other than initialize must carry its session (else 400), and a
// session ended with DELETE is gone (404).
func sessions(next http.Handler, mode string) http.Handler {
	var mu sync.Mutex
	ended := map[string]bool{}
	listening := map[string]int{} // one-stream: the GET streams open, by session
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		mu.Lock()
		gone, busy := ended[sid], sid != "" && listening[sid] > 0
		mu.Unlock()
		switch {
		case gone:
			http.Error(w, "session ended", http.StatusNotFound)
			return
		case mode == "one-stream" && r.Method == http.MethodGet && sid != "":
			mu.Lock()
			listening[sid]++
			mu.Unlock()
			defer func() { mu.Lock(); listening[sid]--; mu.Unlock() }()
			next.ServeHTTP(w, r)
			return
		case mode == "one-stream" && r.Method == http.MethodPost && busy:
			http.Error(w, "one stream at a time", http.StatusConflict)
			return
		case r.Method == http.MethodDelete && sid != "":
			next.ServeHTTP(w, r)
			mu.Lock()
			ended[sid] = true
			mu.Unlock()
			return
		case r.Method != http.MethodPost:
			next.ServeHTTP(w, r)
			return
		}
		accept := r.Header.Get("Accept")
		if !strings.Contains(accept, "application/json") || !strings.Contains(accept, "text/event-stream") {
			http.Error(w, "accept application/json and text/event-stream", http.StatusNotAcceptable)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "reading the body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		// A stateless request (2026-07-28: server/discover, or the revision
		// in its _meta) has no session by design.
		stateless := func() bool {
			return m.Method == "server/discover" || m.Params.Meta["io.modelcontextprotocol/protocolVersion"] != nil ||
				r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28"
		}
		parsed := json.Unmarshal(body, &m) == nil
		if sid == "" && (!parsed || (m.Method != "initialize" && !stateless())) {
			if json.Valid(body) {
				http.Error(w, "no session", http.StatusBadRequest)
				return
			}
		}
		if mode == "mcp-method-ignored" && m.Method != "" {
			r.Header.Set("Mcp-Method", m.Method) // whatever the client said
		}
		w, r, serve := statelessFault(mode, w, r, body) // stateless.go
		if serve {
			next.ServeHTTP(w, r)
		}
	})
}
