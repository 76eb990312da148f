package model

import (
	"strings"
	"testing"
)

func TestClaudeCodeName(t *testing.T) {
	tests := []struct {
		name, server, tool, want string
	}{
		{"plain", "alpha", "request", "mcp__alpha__request"},
		{"dot in label", "foo.bar", "evil", "mcp__foo_bar__evil"},
		{"e acute is one unit", "s", "caf\u00e9", "mcp__s__caf_"},
		{"emoji is two units", "s", "go\U0001F600", "mcp__s__go__"},
		{"spaces and slashes", "my server", "a/b c", "mcp__my_server__a_b_c"},
		{"never shortened", "s", strings.Repeat("x", 100), "mcp__s__" + strings.Repeat("x", 100)},
		{"empty label", "", "t", "mcp____t"},
	}
	for _, tt := range tests {
		if got := ClaudeCodeName(tt.server, tt.tool); got != tt.want {
			t.Errorf("%s: ClaudeCodeName(%q, %q) = %q, want %q", tt.name, tt.server, tt.tool, got, tt.want)
		}
	}
}

func TestClaudeCodePolicy(t *testing.T) {
	p := mustPolicy("claude-code")
	tests := []struct {
		name   string
		cats   []Catalogue
		routes string
		check  func(t *testing.T, reg *Registry)
	}{
		{
			name:   "labels that sanitize alike: the first declared keeps the name, silently",
			cats:   []Catalogue{catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")},
			routes: "mcp__foo_bar__evil->foo.bar/evil",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "foo_bar", 0)
				want := "name mcp__foo_bar__evil already taken by server foo.bar (tool evil); " +
					"claude-code keeps the first after sorting by name and drops the rest without a warning"
				if o.Kind != Dropped || o.By != "foo.bar" || o.Reason != want {
					t.Errorf("foo_bar row = %v by %q (%q), want dropped by foo.bar (%q)", o.Kind, o.By, o.Reason, want)
				}
				if s, _ := reg.Server("foo_bar"); s.Failed || len(s.Notes) != 0 {
					t.Errorf("foo_bar server failed %v, notes %q: want neither, the client says nothing", s.Failed, s.Notes)
				}
				if w := outcomeOf(reg, "foo.bar", 0); w.Reason != `sanitized: '.' is outside [a-zA-Z0-9_-]` {
					t.Errorf("foo.bar row reason = %q, want the sanitizing note", w.Reason)
				}
			},
		},
		{
			name: "the model sees the tools sorted by name",
			cats: []Catalogue{catalogue("alpha", "zeta", "beta_tool"), catalogue("beta", "alpha_tool")},
			routes: "mcp__alpha__beta_tool->alpha/beta_tool mcp__alpha__zeta->alpha/zeta " +
				"mcp__beta__alpha_tool->beta/alpha_tool",
		},
		{
			name:   "separator ambiguity: first wins, the label gets a note",
			cats:   []Catalogue{catalogue("a", "b__c"), catalogue("a__b", "c")},
			routes: "mcp__a__b__c->a/b__c",
			check: func(t *testing.T, reg *Registry) {
				if s, _ := reg.Server("a__b"); len(s.Notes) != 1 || !strings.Contains(s.Notes[0], `"__"`) {
					t.Errorf("a__b notes = %q, want one about the separator", s.Notes)
				}
				if s, _ := reg.Server("a"); len(s.Notes) != 0 {
					t.Errorf("a notes = %q, want none", s.Notes)
				}
			},
		},
		{
			name:   "over-long names are kept, for the provider to reject",
			cats:   []Catalogue{catalogue("s", strings.Repeat("x", 70))},
			routes: "mcp__s__" + strings.Repeat("x", 70) + "->s/" + strings.Repeat("x", 70),
			check: func(t *testing.T, reg *Registry) {
				openai, _ := ProfileNamed("openai")
				if c := openai.Check(reg.Servers[0].Outcomes[0]); c.Severity != Fail {
					t.Errorf("openai check of a 78-character name = %v, want fail", c.Severity)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.routes {
				t.Errorf("routes = %q, want %q", got, tt.routes)
			}
			if tt.check != nil {
				tt.check(t, reg)
			}
		})
	}
}
