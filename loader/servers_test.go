package loader_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/internal/testkit/taskserver"
	"github.com/mcplens/mcplens/loader/demo"
)

// The test binary doubles as every server the session tests talk to: run
// with one of these variables set, TestMain serves instead of testing.
const (
	envDemo   = "MCPLENS_TEST_DEMO"   // a demo server label
	envBanner = "MCPLENS_TEST_BANNER" // a line to print on stdout before serving
	envServer = "MCPLENS_TEST_SERVER" // a test server below
)

func TestMain(m *testing.M) {
	if banner := os.Getenv(envBanner); banner != "" {
		fmt.Println(banner)
	}
	if label := os.Getenv(envDemo); label != "" {
		if err := demo.Serve(label); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if name := os.Getenv(envServer); name != "" {
		serve, ok := testServers[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "no test server %q\n", name)
			os.Exit(2)
		}
		serve()
		os.Exit(0)
	}
	code := m.Run()
	hostile.Cleanup()
	scale.Cleanup()
	taskserver.Cleanup()
	os.Exit(code)
}

var testServers = map[string]func(){
	"slow":     serveSlow,
	"grow":     serveGrow,
	"stubborn": serveStubborn,
	"hostile":  serveHostile,
}

// serveSlow has a tool that never answers.
func serveSlow() {
	s := server.NewMCPServer("slow", "1")
	s.AddTool(mcp.NewTool("hang", mcp.WithDescription("Never answers.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	_ = server.NewStdioServer(s).Listen(context.Background(), os.Stdin, os.Stdout)
}

// serveGrow lists one tool per page, and its tool "grow" adds a tool, which
// makes mcp-go send notifications/tools/list_changed.
func serveGrow() {
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
	_ = server.NewStdioServer(s).Listen(context.Background(), os.Stdin, os.Stdout)
}

// serveStubborn is demo alpha that will not exit: not when stdin ends, not
// on SIGTERM. Only SIGKILL ends it.
func serveStubborn() {
	_ = demo.Serve("alpha")
	fmt.Fprintln(os.Stderr, "stubborn: stdin closed, still here")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	for range sigs {
		fmt.Fprintln(os.Stderr, "stubborn: SIGTERM ignored")
	}
}

// serveHostile is a hand-written server whose tools/list has rows without a
// usable name and a cursor that repeats.
func serveHostile() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cursor string `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"6.6.6"}}`
		case "tools/list":
			switch req.Params.Cursor {
			case "":
				result = `{"tools":[{"name":"ok","inputSchema":{"type":"object"}},{"description":"no name"},{"name":42},{"name":""},"just a string"],"nextCursor":"again"}`
			default:
				result = `{"tools":[{"name":"second_page"}],"nextCursor":"again"}`
			}
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`+"\n", req.ID)
			out.Flush()
			continue
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
		out.Flush()
	}
}
