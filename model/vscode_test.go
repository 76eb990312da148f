package model

import (
	"strings"
	"testing"
)

func TestVSCodeBase(t *testing.T) {
	tests := []struct {
		label, want string
	}{
		{"github", "github"},
		{"GitHub Copilot!!", "github_copilo"},
		// VS Code's own example of a registry-style key.
		{"io.github.upstash/context7", "io.github.ups"},
		{"a  !b", "a_b"}, // one '_' per run
		{"a_!b", "a__b"}, // '_' is kept, then the run of '!' is one more
		{"caf\u00e9-x", "caf_-x"},
		{"go\U0001F600x", "go_x"}, // two units, one run
		// JavaScript lower-cases U+0130 to i + U+0307, U+212A to k.
		{"\u0130x", "i_x"},
		{"\u212Aey", "key"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := vscodeBase(tt.label); got != tt.want {
			t.Errorf("vscodeBase(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
}

func TestVSCodePrefixAndID(t *testing.T) {
	prefixes := []struct {
		base string
		nth  int
		want string
	}{
		{"github", 1, "mcp_github_"},
		{"github", 2, "mcp_github2_"},
		{"github", 3, "mcp_github3_"},
		// The prefix stays within 18: the base gives way to the counter.
		{"analytics-war", 1, "mcp_analytics-war_"},
		{"analytics-war", 2, "mcp_analytics-wa2_"},
		{"analytics-war", 10, "mcp_analytics-w10_"},
		{"", 1, "mcp__"},
	}
	for _, tt := range prefixes {
		got := vscodePrefix(tt.base, tt.nth)
		if got != tt.want || len(got) > vscodePrefixMax {
			t.Errorf("vscodePrefix(%q, %d) = %q, want %q", tt.base, tt.nth, got, tt.want)
		}
	}
	long := strings.Repeat("x", 60)
	ids := []struct {
		prefix, tool, want, uncut string
	}{
		{"mcp_github_", "create_issue", "mcp_github_create_issue", ""},
		{"mcp_foo.bar_", "evil", "mcp_foo_bar_evil", ""},
		{"mcp_x_", "GetUser", "mcp_x_GetUser", ""}, // case kept
		{"mcp_x_", "a.b c\u00e9", "mcp_x_a_b_c_", ""},
		{"mcp_x_", "go\U0001F600", "mcp_x_go__", ""},
		{"mcp_x_", long, "mcp_x_" + long[:58], "mcp_x_" + long},
	}
	for _, tt := range ids {
		id, uncut := vscodeID(tt.prefix, tt.tool)
		if id != tt.want || uncut != tt.uncut {
			t.Errorf("vscodeID(%q, %q) = %q, %q, want %q, %q", tt.prefix, tt.tool, id, uncut, tt.want, tt.uncut)
		}
	}
}

func TestVSCodePolicy(t *testing.T) {
	p := mustPolicy("vscode")
	long := strings.Repeat("x", 60)
	tests := []struct {
		name   string
		cats   []Catalogue
		routes string
		check  func(t *testing.T, reg *Registry)
	}{
		{
			name:   "labels that sanitize alike: the first keeps the id",
			cats:   []Catalogue{catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")},
			routes: "mcp_foo_bar_evil->foo.bar/evil",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "foo_bar", 0)
				want := `id mcp_foo_bar_evil already registered by server foo.bar (tool evil); ` +
					`VS Code refuses the second: Tool "mcp_foo_bar_evil" is already registered.`
				if o.Kind != Dropped || o.By != "foo.bar" || o.Reason != want {
					t.Errorf("foo_bar row = %v by %q (%q), want dropped by foo.bar (%q)", o.Kind, o.By, o.Reason, want)
				}
				if s, _ := reg.Server("foo_bar"); len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "may be missing") {
					t.Errorf("foo_bar notes = %q, want the note on VS Code's throw", s.Notes)
				}
			},
		},
		{
			name:   "a repeated prefix base gets 2_, then 3_",
			cats:   []Catalogue{catalogue("GitHub", "a"), catalogue("github", "a"), catalogue("git hub", "a"), catalogue("GITHUB", "a")},
			routes: "mcp_github_a->GitHub/a mcp_github2_a->github/a mcp_git_hub_a->git hub/a mcp_github3_a->GITHUB/a",
			check: func(t *testing.T, reg *Registry) {
				if s, _ := reg.Server("GITHUB"); len(s.Notes) != 1 || s.Notes[0] != `prefix mcp_github3_: 2 server(s) before it have the prefix base "github"` {
					t.Errorf("GITHUB notes = %q", s.Notes)
				}
			},
		},
		{
			name:   "ids cut to 64 collide on one server: the first keeps it",
			cats:   []Catalogue{catalogue("docs", long+"_one", long+"_two")},
			routes: "mcp_docs_" + long[:55] + "->docs/" + long + "_one",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "docs", 1)
				if o.Kind != Dropped || o.Untruncated != "mcp_docs_"+long+"_two" {
					t.Errorf("row 1 = %v, untruncated %q, want dropped with its uncut id", o.Kind, o.Untruncated)
				}
			},
		},
		{
			name:   "tool case is kept, dots become '_'",
			cats:   []Catalogue{catalogue("Io.Example", "Get.User")},
			routes: "mcp_io_example_Get_User->Io.Example/Get.User",
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
