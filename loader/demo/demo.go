package demo

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/loader/config"
)

// Subcommand is the hidden argument that makes mcplens serve a demo server:
// `mcplens __demo-server LABEL`.
const Subcommand = "__demo-server"

// Config returns the demo config: servers alpha, beta and gamma, in that
// order, each running exe with Subcommand and its label.
func Config(exe string) *config.Config {
	cfg := &config.Config{Path: "demo config"}
	for _, label := range []string{"alpha", "beta", "gamma"} {
		cfg.Servers = append(cfg.Servers, config.ServerSpec{
			Label:   label,
			Command: exe,
			Args:    []string{Subcommand, label},
		})
	}
	return cfg
}

// Serve serves the demo server label on stdin and stdout until stdin ends
// or the process gets SIGTERM or SIGINT. With tool names, the server
// advertises exactly those, in that order, instead of the label's demo set:
// `mcplens __demo-server LABEL TOOL...` is a demo-style server for any
// collision a config wants to show.
func Serve(label string, tools ...string) error {
	s, err := newServer(label, tools)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	err = server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// newServer builds the MCP server for label, advertising names when given.
func newServer(label string, names []string) (*server.MCPServer, error) {
	tools := toolsOf(label)
	if len(names) > 0 {
		tools = namedTools(label, names)
	}
	if tools == nil {
		return nil, fmt.Errorf("unknown demo server %q (want alpha, beta or gamma)", label)
	}
	s := server.NewMCPServer("mcplens-demo-"+label, "1.0.0",
		server.WithToolCapabilities(true),
		server.WithToolFilter(inOrderOf(tools)),
	)
	for _, tool := range tools {
		s.AddTool(tool, echo(label))
	}
	return s, nil
}

// inOrderOf lists tools in the order they are declared here rather than
// sorted by name (mcp-go's order), so alpha lists request first, as a
// hand-written server would. Tools not in declared keep their place after
// those that are.
func inOrderOf(declared []mcp.Tool) server.ToolFilterFunc {
	rank := map[string]int{}
	for i, t := range declared {
		rank[t.Name] = i
	}
	return func(_ context.Context, tools []mcp.Tool) []mcp.Tool {
		out := slices.Clone(tools)
		slices.SortStableFunc(out, func(a, b mcp.Tool) int {
			ra, oka := rank[a.Name]
			rb, okb := rank[b.Name]
			switch {
			case oka && okb:
				return cmp.Compare(ra, rb)
			case oka:
				return -1
			case okb:
				return 1
			}
			return 0
		})
		return out
	}
}

// toolsOf returns a demo server's tools in the order it lists them, or nil
// for an unknown label.
func toolsOf(label string) []mcp.Tool {
	switch label {
	case "alpha":
		return []mcp.Tool{
			requestTool("alpha"),
			mcp.NewTool("alpha_status",
				mcp.WithDescription("Reports whether the alpha service is healthy."),
			),
		}
	case "beta":
		return []mcp.Tool{
			requestTool("beta"),
			mcp.NewTool("beta_lookup",
				mcp.WithDescription("Looks up one key in the beta store."),
				mcp.WithString("key", mcp.Required(), mcp.Description("The key to look up.")),
			),
		}
	case "gamma":
		return []mcp.Tool{
			mcp.NewTool("literature.search_pubmed",
				mcp.WithDescription("Searches PubMed for articles matching a query."),
				mcp.WithString("query", mcp.Required(), mcp.Description("The search terms.")),
				mcp.WithInteger("max_results", mcp.Description("How many articles to return at most."), mcp.Min(1)),
			),
			// 59 characters: 71 once qualified as mcp__gamma__..., over the
			// 64 most providers allow.
			mcp.NewTool("summarize_the_entire_quarterly_financial_report_with_tables",
				mcp.WithDescription("Summarizes the quarterly financial report, tables included."),
			),
			mcp.NewTool("search",
				mcp.WithDescription("Searches gamma's documents for a query."),
				mcp.WithString("query", mcp.Required(), mcp.Description("The search terms.")),
			),
		}
	}
	return nil
}

// namedTools is one echo tool per name, each taking an optional query.
func namedTools(label string, names []string) []mcp.Tool {
	tools := make([]mcp.Tool, len(names))
	for i, n := range names {
		tools[i] = mcp.NewTool(n,
			mcp.WithDescription(fmt.Sprintf("Echoes a call to %s on %s.", n, label)),
			mcp.WithString("query", mcp.Description("Anything; it is echoed back.")),
		)
	}
	return tools
}

// requestTool is the single-dispatch tool that alpha and beta both have.
func requestTool(label string) mcp.Tool {
	return mcp.NewTool("request",
		mcp.WithDescription(fmt.Sprintf("Sends one request to the %s service, dispatched on its verb.", label)),
		mcp.WithString("verb", mcp.Required(), mcp.Enum("get", "list", "create", "delete"),
			mcp.Description("What to do.")),
		mcp.WithObject("params", mcp.Description("The verb's parameters.")),
	)
}

// echo answers every call with the tool name the server actually received,
// taken from the request, so a renamed route shows where it arrived.
func echo(label string) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := "{}"
		if raw := req.Params.RawArguments; len(raw) > 0 {
			args = string(raw)
		} else if req.Params.Arguments != nil {
			b, err := json.Marshal(req.Params.Arguments)
			if err != nil {
				return nil, err
			}
			args = string(b)
		}
		text := fmt.Sprintf("%s received tool %q with arguments %s", label, req.Params.Name, compact(args))
		return mcp.NewToolResultText(text), nil
	}
}

func compact(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
