// Command gosdk is an MCP server written with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk), an implementation independent
// of the mcp-go that mcplens uses: the loader tests list and call it over
// stdio. It lists two tools per page, so listing it follows a cursor.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

type sumArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sumOut struct {
	Sum int `json:"sum"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk-test", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 2})
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Says hello to someone."},
		func(_ context.Context, _ *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello, " + in.Name}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sum", Description: "Adds two integers."},
		func(_ context.Context, _ *mcp.CallToolRequest, in sumArgs) (*mcp.CallToolResult, sumOut, error) {
			return nil, sumOut{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always reports failure."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("failing on purpose")
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
