// Command reader is an MCP server (written with the official Go SDK) whose
// tools answer with every kind of content a client has to show: 300 lines
// of text, an image, audio, a resource link and an embedded resource,
// structured content that matches its outputSchema and structured content
// that does not, and a tool error. The interface's reader is tested
// against it, and .ci/tui-check reads the last of the 300 lines through it
// (testdata/configs/reader/mcp.json).
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tinyPNG is a 16×16 red PNG.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAF0lEQVR4nGP4z8BAEiJN9aiGUQ1DSgMAkPn/Afnh+ngAAAAASUVORK5CYII="

var (
	noArgs = json.RawMessage(`{"type":"object","properties":{}}`)
	report = json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"},"status":{"type":"string","enum":["ok","degraded"]}},"required":["count","status"]}`)
)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "reader-test", Version: "1.0.0"}, nil)
	add := func(t *mcp.Tool, h mcp.ToolHandler) {
		t.InputSchema = noArgs
		s.AddTool(t, h)
	}
	add(&mcp.Tool{Name: "lines", Description: "Answers with 300 numbered lines of text."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var b strings.Builder
			for i := 1; i <= 300; i++ {
				fmt.Fprintf(&b, "line %03d of 300: the quick brown fox jumps over the lazy dog\n", i)
			}
			b.WriteString("the last line")
			return text(b.String()), nil
		})
	png, err := base64.StdEncoding.DecodeString(tinyPNG)
	if err != nil {
		log.Fatal(err)
	}
	add(&mcp.Tool{Name: "media", Title: "Media sampler", Description: "Answers with an image, audio, a resource link and an embedded resource.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			size := int64(2048)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "four kinds of content follow"},
				&mcp.ImageContent{Data: png, MIMEType: "image/png"},
				&mcp.AudioContent{Data: make([]byte, 1500), MIMEType: "audio/wav"},
				&mcp.ResourceLink{URI: "file:///srv/report.pdf", Name: "report.pdf", MIMEType: "application/pdf", Size: &size},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://notes.txt", MIMEType: "text/plain", Text: "embedded notes\nsecond line"}},
			}}, nil
		})
	add(&mcp.Tool{Name: "report", Description: "Answers with structured content that matches its outputSchema.", OutputSchema: report},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out := map[string]any{"count": 3, "status": "ok"}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"count":3,"status":"ok"}`}}, StructuredContent: out}, nil
		})
	destructive := true
	add(&mcp.Tool{Name: "bad_report", Description: "Answers with structured content that breaks its outputSchema.", OutputSchema: report,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out := map[string]any{"count": "three", "status": "fine"}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "see structuredContent"}}, StructuredContent: out}, nil
		})
	add(&mcp.Tool{Name: "broken", Description: "Reports a tool error (isError)."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r := text("the disk is full\nnothing was written")
			r.IsError = true
			return r, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
