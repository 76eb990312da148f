package model

import (
	"slices"
	"testing"
)

func TestOpenAIAgentsPolicy(t *testing.T) {
	p := mustPolicy("openai-agents")
	tests := []struct {
		name    string
		cats    []Catalogue
		wantErr string   // every server's Err; "" when the load succeeds
		reasons []string // every row's reason, in order, when it fails
		routes  string
	}{
		{
			name:   "no shared names: bare wire names",
			cats:   []Catalogue{catalogue("alpha", "request", "a.b"), withRow(catalogue("beta", "ping"), missingName)},
			routes: "request->alpha/request a.b->alpha/a.b ping->beta/ping",
		},
		{
			name:    "a name on two servers fails the whole load",
			cats:    []Catalogue{catalogue("alpha", "request", "ping"), catalogue("beta", "request"), catalogue("gamma", "x")},
			wantErr: `Duplicate tool names found across MCP servers: ["request"]`,
			reasons: []string{
				"request is also advertised by beta; openai-agents fails the whole load",
				`withheld: the openai-agents load failed (Duplicate tool names found across MCP servers: ["request"])`,
				"request is also advertised by alpha; openai-agents fails the whole load",
				`withheld: the openai-agents load failed (Duplicate tool names found across MCP servers: ["request"])`,
			},
		},
		{
			name:    "the SDK stops at the first server that repeats a name",
			cats:    []Catalogue{catalogue("alpha", "b", "a"), catalogue("beta", "b", "a"), catalogue("gamma", "c", "a")},
			wantErr: `Duplicate tool names found across MCP servers: ["a", "b"]`,
		},
		{
			name:    "a name listed twice by one server fails it too",
			cats:    []Catalogue{catalogue("alpha", "x"), catalogue("beta", "request", "request"), catalogue("gamma", "x")},
			wantErr: "Duplicate tool names found on MCP server `beta`: [\"request\"]",
			reasons: []string{
				`withheld: the openai-agents load failed (Duplicate tool names found on MCP server ` + "`beta`" + `: ["request"])`,
				"request is listed 2 times by beta; openai-agents fails the whole load",
				"request is listed 2 times by beta; openai-agents fails the whole load",
				`withheld: the openai-agents load failed (Duplicate tool names found on MCP server ` + "`beta`" + `: ["request"])`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.routes {
				t.Errorf("routes = %q, want %q", got, tt.routes)
			}
			var reasons []string
			for _, s := range reg.Servers {
				if s.Failed != (tt.wantErr != "") || s.Err != tt.wantErr {
					t.Errorf("%s: failed %v, Err %q, want %q", s.Server, s.Failed, s.Err, tt.wantErr)
				}
				for _, o := range s.Outcomes {
					reasons = append(reasons, o.Reason)
					if tt.wantErr != "" && (o.Kind != Dropped || o.Name != o.Wire) {
						t.Errorf("%s row %d = %v %q, want dropped under its wire name", s.Server, o.Index, o.Kind, o.Name)
					}
				}
			}
			if tt.reasons != nil && !slices.Equal(reasons, tt.reasons) {
				t.Errorf("reasons = %q, want %q", reasons, tt.reasons)
			}
		})
	}
}
