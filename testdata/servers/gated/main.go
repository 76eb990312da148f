// Command gated is an MCP server whose tools depend on the client, for
// mcplens's gated-tool tests: servers change what they advertise by the
// client's name, its capabilities and its headers.
//
//	gated                       serve over stdio
//	gated -http 127.0.0.1:0     serve streamable HTTP at /mcp; the first
//	                            line on stdout is the URL
//
// It lists search to everyone; claude_only when the initialize request's
// clientInfo.name contains "claude"; elicit_only when the client declares
// elicitation; and, over HTTP, toolset_NAME for each NAME of the
// comma-separated X-MCP-Toolsets header. Every tool answers with its name.
// Its initialize answer carries instructions, a title and a website.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// toolsetsKey carries the X-MCP-Toolsets header of a request in its
// context.
type toolsetsKey struct{}

// toolsets is every toolset X-MCP-Toolsets may name.
var toolsets = []string{"issues", "repos", "actions"}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	flag.Parse()

	s := server.NewMCPServer("gated", "1.0.0",
		server.WithToolCapabilities(false),
		server.WithLogging(),
		server.WithTitle("Gated Test Server"),
		server.WithWebsiteURL("https://example.test/gated"),
		server.WithInstructions("Tools depend on who asks.\nClaude clients see claude_only; clients that elicit see elicit_only."),
		server.WithToolFilter(gate))
	names := []string{"search", "claude_only", "elicit_only"}
	for _, t := range toolsets {
		names = append(names, "toolset_"+t)
	}
	for _, name := range names {
		s.AddTool(mcp.NewTool(name, mcp.WithDescription("Answers with its name.")), answer(name))
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := serve(ctx, s, *addr); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// serve serves s over stdio, or over streamable HTTP on addr.
func serve(ctx context.Context, s *server.MCPServer, addr string) error {
	if addr == "" {
		return server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, toolsetsKey{}, r.Header.Get("X-MCP-Toolsets"))
	}))
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	return srv.Serve(ln)
}

// gate keeps the tools the client of ctx's session is to see.
func gate(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	var info mcp.Implementation
	var caps mcp.ClientCapabilities
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		info, caps = s.GetClientInfo(), s.GetClientCapabilities()
	}
	header, _ := ctx.Value(toolsetsKey{}).(string)
	want := map[string]bool{"search": true}
	want["claude_only"] = strings.Contains(strings.ToLower(info.Name), "claude")
	want["elicit_only"] = caps.Elicitation != nil
	for _, t := range strings.Split(header, ",") {
		want["toolset_"+strings.TrimSpace(t)] = true
	}
	var out []mcp.Tool
	for _, t := range tools {
		if want[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

func answer(name string) server.ToolHandlerFunc {
	return func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("gated received " + name), nil
	}
}
