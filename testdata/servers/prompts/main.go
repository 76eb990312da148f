// Command prompts is an MCP server offering prompts, resources and a
// resource template, for mcplens's tests of what servers offer beside
// tools. Two of them under different labels collide as slash commands:
//
//	prompts alpha|beta
//
// Both offer the prompt greet (one argument, name, completed from a fixed
// list); alpha also offers "code review", beta code_review. Each offers the
// text resource mem://FLAVOUR/notes, the blob mem://FLAVOUR/logo and the
// template mem://FLAVOUR/items/{id} (id completed from a fixed list), and
// the tool ping (with PROMPTS_NO_TOOLS=1: no tool, and no tools
// capability). On
// SIGUSR1 it sends notifications/resources/updated for its notes and adds
// the prompt farewell (notifications/prompts/list_changed).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var names = []string{"ada", "alan", "grace"}

type completer struct{}

func (completer) CompletePromptArgument(_ context.Context, _ string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return complete(arg.Value, names), nil
}

func (completer) CompleteResourceArgument(_ context.Context, _ string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return complete(arg.Value, []string{"1", "2", "10"}), nil
}

func complete(prefix string, from []string) *mcp.Completion {
	c := &mcp.Completion{Values: []string{}}
	for _, v := range from {
		if strings.HasPrefix(v, prefix) {
			c.Values = append(c.Values, v)
		}
	}
	c.Total = len(c.Values)
	return c
}

func main() {
	flavour := "alpha"
	if len(os.Args) > 1 {
		flavour = os.Args[1]
	}
	opts := []server.ServerOption{
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(completer{}),
		server.WithResourceCompletionProvider(completer{}),
	}
	tools := os.Getenv("PROMPTS_NO_TOOLS") == ""
	if tools {
		opts = append(opts, server.WithToolCapabilities(false))
	}
	s := server.NewMCPServer("prompts-"+flavour, "1.0.0", opts...)
	review := "code review"
	if flavour == "beta" {
		review = "code_review"
	}
	s.SetPrompts(prompts(flavour, review, false)...)
	if tools {
		s.AddTool(mcp.NewTool("ping"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("pong"), nil
		})
	}

	notes := "mem://" + flavour + "/notes"
	s.AddResource(mcp.NewResource(notes, "notes", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: notes, MIMEType: "text/plain", Text: "notes of " + flavour}}, nil
		})
	logo := "mem://" + flavour + "/logo"
	s.AddResource(mcp.NewResource(logo, "logo", mcp.WithMIMEType("image/png")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			// "\x89PNG" in base64.
			return []mcp.ResourceContents{mcp.BlobResourceContents{URI: logo, MIMEType: "image/png", Blob: "iVBORw=="}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("mem://"+flavour+"/items/{id}", "item"),
		func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: "item " + r.Params.URI}}, nil
		})

	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	go func() {
		for range usr1 {
			s.SendNotificationToAllClients(string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": notes})
			s.SetPrompts(prompts(flavour, review, true)...) // notifies every session
		}
	}()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	err := server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// prompts are the prompts of a flavour, farewell added after SIGUSR1.
func prompts(flavour, review string, farewell bool) []server.ServerPrompt {
	greet := mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets someone from "+flavour+"."),
		mcp.WithArgument("name", mcp.ArgumentDescription("Who to greet."), mcp.RequiredArgument()))
	list := []server.ServerPrompt{
		{Prompt: greet, Handler: func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			msg := fmt.Sprintf("%s greets %s", flavour, r.Params.Arguments["name"])
			return mcp.NewGetPromptResult("a greeting", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(msg))}), nil
		}},
		{Prompt: mcp.NewPrompt(review, mcp.WithPromptDescription("Reviews code.")), Handler: text(flavour + " reviews")},
	}
	if farewell {
		list = append(list, server.ServerPrompt{Prompt: mcp.NewPrompt("farewell"), Handler: text(flavour + " says goodbye")})
	}
	return list
}

func text(s string) server.PromptHandlerFunc {
	return func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(s))}), nil
	}
}
