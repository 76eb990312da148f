package relay_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/relay"
)

// secretToken is a credential the client sends in a header and the server
// echoes in a body: no recording may hold it.
const secretToken = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"

// echoServer is an MCP server with one tool, echo, that answers with its
// message.
func echoServer() *server.MCPServer {
	s := server.NewMCPServer("echo-upstream", "1.0.0")
	s.AddTool(mcp.NewTool("echo", mcp.WithString("message", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("echo: " + req.GetString("message", "")), nil
		})
	return s
}

// proxyTo starts a proxy to upstream recording to the returned sink.
func proxyTo(t *testing.T, upstream string) (*httptest.Server, *relay.Copier, *memSink) {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	c := relay.NewCopier(relay.CopierOptions{Server: "remote"}, sink)
	proxy := httptest.NewServer(relay.NewProxy(u, c, nil))
	t.Cleanup(proxy.Close)
	return proxy, c, sink
}

// exercise initializes cl, lists its tools and calls echo with the token.
func exercise(t *testing.T, cl *client.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "relay-http", Version: "0.1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	tools, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("tools/list = %v, %v", tools, err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"message": "token " + secretToken}
	res, err := cl.CallTool(ctx, req)
	if err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].(mcp.TextContent).Text, secretToken) {
		t.Fatalf("echo through the proxy = %v, %v; want the message back unchanged", res, err)
	}
}

// checkHTTPRecording wants the client's initialize, with its clientInfo
// and its masked Authorization header, and the echo's answer among the
// recorded frames, and the token nowhere.
func checkHTTPRecording(t *testing.T, sink *memSink) []record {
	t.Helper()
	rs := sink.records(t)
	var sawInit, sawEcho bool
	for _, r := range rs {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				ClientInfo struct{ Name string } `json:"clientInfo"`
			} `json:"params"`
		}
		if r.Dir == "c2s" && json.Unmarshal(r.Frame, &msg) == nil && msg.Method == "initialize" {
			sawInit = msg.Params.ClientInfo.Name == "relay-http"
			if r.HTTP == nil || r.HTTP.Method != http.MethodPost || strings.Join(r.HTTP.Headers["Authorization"], "") != "****" {
				t.Errorf("initialize's http = %+v: want POST and Authorization masked", r.HTTP)
			}
		}
		if r.Dir == "s2c" && strings.Contains(r.body(), "echo: token ****") {
			sawEcho = true
		}
	}
	if !sawInit || !sawEcho {
		t.Errorf("recording: initialize with clientInfo %v, echo's answer %v; want both:\n%s", sawInit, sawEcho, lines(sink))
	}
	if all := lines(sink); strings.Contains(all, secretToken) || strings.Contains(all, "ghp_0123") {
		t.Errorf("the recording holds the token:\n%s", all)
	}
	return rs
}

func lines(m *memSink) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, l := range m.lines {
		b.Write(l)
	}
	return b.String()
}

// TestProxyStreamableHTTP drives an mcp-go streamable HTTP server through
// the proxy with mcp-go's client.
func TestProxyStreamableHTTP(t *testing.T) {
	upstream := httptest.NewServer(server.NewStreamableHTTPServer(echoServer()))
	defer upstream.Close()
	proxy, c, sink := proxyTo(t, upstream.URL+"/mcp")
	cl, err := client.NewStreamableHttpClient(proxy.URL+"/mcp",
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + secretToken}))
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cl)
	cl.Close()
	proxy.Close()
	c.Close()
	checkHTTPRecording(t, sink)
}

// TestProxySSE drives an mcp-go SSE server through the proxy: the event
// stream is flushed as events arrive (the client would wait forever
// otherwise), and each event is a frame of its own.
func TestProxySSE(t *testing.T) {
	upstream := httptest.NewServer(server.NewSSEServer(echoServer()))
	defer upstream.Close()
	proxy, c, sink := proxyTo(t, upstream.URL)
	cl, err := client.NewSSEMCPClient(proxy.URL+"/sse",
		client.WithHeaders(map[string]string{"Authorization": "Bearer " + secretToken}))
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cl)
	cl.Close()
	proxy.Close()
	c.Close()
	rs := checkHTTPRecording(t, sink)
	var endpoint, opened bool
	for _, r := range rs {
		endpoint = endpoint || r.SSE == "endpoint" && strings.Contains(r.body(), "/message")
		opened = opened || r.Dir == "s2c" && r.HTTP != nil && r.HTTP.Status == 200 &&
			strings.HasPrefix(strings.Join(r.HTTP.Headers["Content-Type"], ""), "text/event-stream")
	}
	if !endpoint || !opened {
		t.Errorf("recording: the stream's opening %v, its endpoint event %v; want both:\n%s", opened, endpoint, lines(sink))
	}
}

// TestProxyPassthrough wants the bytes of a response as the upstream sent
// them (a gzip body stays gzip for a client that asked for it, and is
// recorded inflated) and each event of a stream delivered before the next
// is written.
func TestProxyPassthrough(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"  spaced  <&>  "}}` + "\n")
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(body)
	zw.Close()
	next := make(chan bool)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mcp":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zipped.Bytes())
		case "/events":
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 3 {
				fmt.Fprintf(w, "event: message\ndata: {\"n\":%d}\n\n", i)
				w.(http.Flusher).Flush()
				if !<-next { // the client has it: the proxy did not hold it back
					return
				}
			}
		}
	}))
	defer upstream.Close()
	proxy, c, sink := proxyTo(t, upstream.URL)

	req, _ := http.NewRequest(http.MethodPost, proxy.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, zipped.Bytes()) || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("the client got %q (%s), want the upstream's gzip bytes", got, resp.Header.Get("Content-Encoding"))
	}

	resp, err = http.Get(proxy.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(resp.Body)
	for i := range 3 {
		want := fmt.Sprintf("data: {\"n\":%d}\n", i)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("event %d: %v", i, err)
			}
			if line == want {
				break
			}
		}
		next <- true
	}
	resp.Body.Close()
	proxy.Close()
	c.Close()
	var inflated bool
	events := 0
	for _, r := range sink.records(t) {
		inflated = inflated || r.Dir == "s2c" && string(r.Frame) == strings.TrimSpace(string(body))
		if r.SSE == "message" {
			events++
		}
	}
	if !inflated || events != 3 {
		t.Errorf("recording: the gzip body inflated %v, %d events; want it and 3:\n%s", inflated, events, lines(sink))
	}
}
