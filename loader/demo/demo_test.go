package demo

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestConfig(t *testing.T) {
	cfg := Config("/bin/mcplens")
	if cfg.Path != "demo config" || len(cfg.Servers) != 3 {
		t.Fatalf("Config = %+v, want three servers from \"demo config\"", cfg)
	}
	for i, label := range []string{"alpha", "beta", "gamma"} {
		s := cfg.Servers[i]
		if s.Label != label || s.Command != "/bin/mcplens" || !reflect.DeepEqual(s.Args, []string{Subcommand, label}) {
			t.Errorf("server %d = %+v, want %s running /bin/mcplens %s %s", i, s, label, Subcommand, label)
		}
	}
}

func TestServeUnknownLabel(t *testing.T) {
	if err := Serve("delta"); err == nil {
		t.Errorf("Serve(%q) = nil, want an error", "delta")
	}
}

// TestServers checks each demo server in process: what it lists, and that
// every tool answers with the name it received.
func TestServers(t *testing.T) {
	tests := []struct {
		label string
		tools []string
	}{
		{"alpha", []string{"request", "alpha_status"}},
		{"beta", []string{"request", "beta_lookup"}},
		{"gamma", []string{"literature.search_pubmed", "summarize_the_entire_quarterly_financial_report_with_tables", "search"}},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			s, err := newServer(tt.label, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := client.NewInProcessClientWithOptions(s, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			init, err := c.Initialize(ctx, mcp.InitializeRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if want := "mcplens-demo-" + tt.label; init.ServerInfo.Name != want {
				t.Errorf("serverInfo.name = %q, want %q", init.ServerInfo.Name, want)
			}
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.Description == "" {
					t.Errorf("tool %q has no description", tool.Name)
				}
			}
			if !reflect.DeepEqual(names, tt.tools) {
				t.Errorf("tools = %q, want %q", names, tt.tools)
			}
			for _, name := range names {
				req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, RawArguments: json.RawMessage(`{ "query" : "q", "n": [1, 2] }`)}}
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatalf("CallTool(%s): %v", name, err)
				}
				want := tt.label + ` received tool "` + name + `" with arguments {"query":"q","n":[1,2]}`
				if len(res.Content) != 1 {
					t.Fatalf("CallTool(%s) content %+v, want one text", name, res.Content)
				}
				if text, ok := res.Content[0].(mcp.TextContent); !ok || text.Text != want {
					t.Errorf("CallTool(%s) = %+v, want text %q", name, res.Content[0], want)
				}
			}
		})
	}
}
